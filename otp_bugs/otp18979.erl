%% OTP-18979 (ERTS 14.2.3, OTP 26.2.3; no OTP 25 patch lists it): "Do not clear tracing in
%% old module instance if load fails with 'not_purged'". A process still runs the old
%% instance of a module, so erlang:load_module/2 of a new version fails with not_purged
%% (code:load_binary/3 would purge it first, killing the process); the current instance's
%% local function f/0 is call traced. Present: after the failed load, calls of f/0 are no
%% longer traced.
-module(otp18979).
-export([run/0]).

-define(MOD, otp18979_target).

run() ->
    Bin = target_beam(),
    {module, ?MOD} = code:load_binary(?MOD, "otp18979_target.erl", Bin),
    OldRunner = spawn(?MOD, loop, []),
    {module, ?MOD} = erlang:load_module(?MOD, Bin),
    Runner = spawn(?MOD, loop, []),
    1 = erlang:trace(Runner, true, [call]),
    1 = erlang:trace_pattern({?MOD, f, 0}, true, [local]),
    Before = traced_call(Runner),
    Failed = erlang:load_module(?MOD, Bin),
    After = traced_call(Runner),
    exit(OldRunner, kill),
    io:format("~s~n", [case {Before, Failed, After} of
                           {true, {error, not_purged}, true} -> "absent";
                           {true, {error, not_purged}, false} -> "present";
                           Other -> io_lib:format("not_applicable: precondition not met ~p", [Other])
                       end]).

%% Asks the process to call f/0 once; true if its call event came.
traced_call(Runner) ->
    Runner ! {self(), go},
    receive {Runner, done} -> ok end,
    receive {trace, Runner, call, {?MOD, f, []}} -> true after 500 -> false end.

target_beam() ->
    Forms = [{attribute, 1, module, ?MOD},
             {attribute, 2, export, [{loop, 0}]},
             {function, 3, loop, 0,
              [{clause, 3, [], [],
                [{'receive', 4,
                  [{clause, 4, [{tuple, 4, [{var, 4, 'From'}, {atom, 4, go}]}], [],
                    [{call, 5, {atom, 5, f}, []},
                     {op, 5, '!', {var, 5, 'From'}, {tuple, 5, [{call, 5, {atom, 5, self}, []}, {atom, 5, done}]}},
                     {call, 6, {atom, 6, loop}, []}]}]}]}]},
             {function, 7, f, 0, [{clause, 7, [], [], [{atom, 7, ok}]}]}],
    {ok, ?MOD, Bin} = compile:forms(Forms, []),
    Bin.
