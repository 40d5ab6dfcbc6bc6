%% The fixture module of the code shapes OTP's trace tests trace that tcs_target has not:
%% recursion N calls deep (trace_local_SUITE and trace_meta_SUITE stack_grow/1: its loop/4),
%% the bit syntax matching a binary a byte or four bits at a time, each a local tail call on
%% the rest (trace_local_SUITE bit_syntax/1, OTP-7399: its bs_sum_a/2, bs_sum_b/2,
%% bs_sum_c/2), and a receive in a traced function (trace_call_memory_SUITE's
%% receive_message/0: the words of the message taken count to it; alloc_tuples/2: its
%% big_words/1, a tuple allocated per call), and a yield in a traced function (trace_call_time_SUITE's
%% bbb/0 in erlang/otp#8835's test: the process is scheduled out inside it).  The reference model
%% knows exactly this code (ref/vocab/fixture.c, ref/events/calls.c; cases/README.md "The
%% traced functions"): keep them in step.  A module of its own, so that the function counts
%% of trace_pattern/3 over tcs_target stay as they were.  The bodies call no function but
%% themselves, in alloc_tuples/2 the BIF erlang:make_tuple/2, and in yielding/1 erlang:yield/0 (an
%% instruction, never a traced call: RUN-YIELD).
-module(tcs_shapes).
-export([loop/1, bs_sum_a/2, bs_sum_b/2, bs_sum_c/2, receive_message/0, alloc_tuples/2, yielding/1]).
-file("tcs_shapes.erl", 13). % the file and line numbers of {caller_line}, however erlc is called
%% N non-tail local calls deep; each returns its own N.
loop(0) -> 0;
loop(N) -> loop(N - 1) + 1.

bs_sum_a(<<H, T/binary>>, Acc) -> bs_sum_a(T, H + Acc);
bs_sum_a(<<>>, Acc) -> Acc.

bs_sum_b(Acc, <<H, T/binary>>) -> bs_sum_b(H + Acc, T);
bs_sum_b(Acc, <<>>) -> Acc.

bs_sum_c(<<H:4, T/bits>>, Acc) -> bs_sum_c(T, H + Acc);
bs_sum_c(<<>>, Acc) -> Acc.

receive_message() ->
    receive
        Msg -> Msg
    end.

%% N local tail calls after the first, each but the last (N = 0) making a tuple of Size elements
%% (Size + 1 words), garbage at once; make_tuple/2 may raise, so the compiler keeps it.
alloc_tuples(0, _Size) -> ok;
alloc_tuples(N, Size) ->
    _ = erlang:make_tuple(Size, []),
    alloc_tuples(N - 1, Size).

%% X, after the process has been scheduled out and in again inside this function.
yielding(X) ->
    erlang:yield(),
    X.
