%% C-540 (found by this suite, not reported to OTP): the argument of a call trace event that
%% erts made of a match context is a binary that changes when the process holding it matches
%% it with the bit syntax. bs_sum/2 is trace_local_SUITE's bs_sum_a/2 (bit_syntax/1, OTP-7399):
%% it tail-calls itself with the rest of the binary it matches, which the compiler passes on
%% as a match context; erl_trace.c erts_call_trace turns that into a binary for the event. The
%% binary is off the heap (a refc binary, as one a case's plan or binary:copy/2 makes). The
%% target is compiled here by the release's own compiler (check.sh compiles with OTP 25's,
%% whose code for the match differs, and whose matching code OTP 29 does not load; the tracer's
%% own reading, read/1, is compiled with it). Present: the tracer reads the second call's
%% binary (bytes 2 to 100) with binary_to_list/1, matches its first byte, and then reads
%% something else (in the suite's harness: the binary one byte shorter).
-module(c540).
-export([run/0]).

-define(MOD, c540_target).

run() ->
    {ok, ?MOD, Bin} = compile:forms(forms(), []),
    {module, ?MOD} = code:load_binary(?MOD, "c540_target.erl", Bin),
    Self = self(),
    Tracee = spawn(fun() -> receive {go, B} -> Self ! {sum, ?MOD:bs_sum(B, 0)} end end),
    %% the events reach this process through a tracer process: copied twice, as a tracer
    %% process hands them on (the suite's harness does so too)
    Tracer = otp_bugs_lib:forwarder(Self, event),
    1 = erlang:trace(Tracee, true, [call, {tracer, Tracer}]),
    1 = erlang:trace_pattern({?MOD, bs_sum, 2}, [], [local]),
    %% a binary off the heap (more than 64 bytes): the change was not seen with a heap binary
    Tracee ! {go, list_to_binary(lists:seq(1, 100))},
    receive {sum, 5050} -> ok end,
    receive {event, {trace, Tracee, call, {?MOD, bs_sum, [_, 0]}}} -> ok end,
    receive {event, {trace, Tracee, call, {?MOD, bs_sum, [Rest, 1]}}} -> ok end,
    {Before, First, After} = ?MOD:read(Rest),
    case {Before, First} of
        {[2 | _], 2} -> otp_bugs_lib:verdict(After =:= Before);
        Other -> io:format("not_applicable: precondition not met ~p~n", [Other])
    end.

%% The target, parsed from its text: bs_sum/2 is OTP's bs_sum_a/2; read/1 is what a tracer does
%% with the binary: reads it, matches its first byte, reads it again.
forms() ->
    Text = "-module(c540_target).\n"
           "-export([bs_sum/2, read/1]).\n"
           "bs_sum(<<H, T/binary>>, Acc) -> bs_sum(T, H + Acc);\n"
           "bs_sum(<<>>, Acc) -> Acc.\n"
           "read(B) ->\n"
           "    Before = binary_to_list(B),\n"
           "    First = case B of <<X, _/binary>> -> X; _ -> none end,\n"
           "    {Before, First, binary_to_list(B)}.\n",
    {ok, Tokens, _} = erl_scan:string(Text),
    [begin {ok, F} = erl_parse:parse_form(Form), F end || Form <- split(Tokens, [])].

%% The token list cut after each dot, one list per form.
split([], []) -> [];
split([{dot, _} = Dot | Rest], Acc) -> [lists:reverse([Dot | Acc]) | split(Rest, [])];
split([T | Rest], Acc) -> split(Rest, [T | Acc]).
