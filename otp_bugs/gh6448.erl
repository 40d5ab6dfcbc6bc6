%% erlang/otp#6448 (OTP-18398, fix PR #6495, OTP 25.3): a meta match spec's {silent,true}
%% run by an untraced process leaves F_TRACE_SILENT with the nil tracer; a later
%% erlang:trace/3 on that process makes lookup_tracer_nif read the nil tracer: SIGSEGV.
%% Present: the node dies at the erlang:trace/3 call (no line printed).
-module(gh6448).
-export([run/0, target/1]).

run() ->
    Self = self(),
    erlang:trace_pattern({?MODULE, target, 1}, [{'_', [], [{silent, true}]}], [meta]),
    D = spawn(fun() -> ?MODULE:target(1), Self ! called, receive stop -> ok end end),
    receive called -> ok end,
    erlang:trace(D, true, [send]),
    io:format("absent~n").

target(X) -> X.
