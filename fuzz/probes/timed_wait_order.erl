%% timed_wait_order: in what order are a timed wait's message and its timeout traced, when the
%% message is sent before the wait's timer is due? (fuzz/findings-log.md, Z2 and Z4; RECV-TIMED-WAIT)
%%
%% Each round: A, bound to scheduler 1, gets `go` and waits `receive after 50 -> ok end`,
%% traced for 'receive' by this process; B, bound to scheduler 2, sends A `msg` SendUs after
%% T0, a time read before `go` was sent, so A's timer starts after T0 and a send that B reports
%% done before T0 + 50 ms came before the timer was due.  Rounds whose send came later are left
%% out.  Prints the orders of the two 'receive' events counted.  The tracer is a process: the
%% order is the trace messages' arrival order.
%%
%%   erlc timed_wait_order.erl && erl -noshell +S 2 -run timed_wait_order main SEND_US ROUNDS
-module(timed_wait_order).
-export([main/1]).
main([SendUs0, N0]) ->
    [SendUs, N] = [list_to_integer(X) || X <- [SendUs0, N0]],
    Res = [R || R <- [round1(SendUs) || _ <- lists:seq(1, N)], R =/= late],
    io:format("~p send@~bus: ~p~n", [erlang:system_info(otp_release), SendUs,
        lists:foldl(fun(K, M) -> maps:update_with(K, fun(V) -> V + 1 end, 1, M) end, #{}, Res)]),
    halt().
round1(SendUs) ->
    Self = self(),
    A = spawn_opt(fun() -> receive go -> ok end, receive after 50 -> ok end, receive stop -> ok end end,
                  [{scheduler, 1}]),
    erlang:trace(A, true, ['receive', {tracer, Self}]),
    B = spawn_opt(fun() -> receive {T0, go} -> spin(T0 + SendUs), A ! msg,
                               Self ! {sent, erlang:monotonic_time(microsecond) - T0} end end,
                  [{scheduler, 2}]),
    T0 = erlang:monotonic_time(microsecond),
    A ! go,
    B ! {T0, go},
    Sent = receive {sent, S} -> S end,
    Order = collect(A, []),
    A ! stop,
    receive {trace, A, 'receive', stop} -> ok after 1000 -> ok end,
    case Sent < 50000 of true -> Order; false -> late end.
spin(Until) -> case erlang:monotonic_time(microsecond) >= Until of true -> ok; false -> spin(Until) end.
collect(A, Acc) ->
    receive
        {trace, A, 'receive', go} -> collect(A, Acc);
        {trace, A, 'receive', What} when What =:= msg; What =:= timeout ->
            case [What | Acc] of [_, _] = Both -> lists:reverse(Both); More -> collect(A, More) end
    after 2000 -> {incomplete, lists:reverse(Acc)}
    end.
