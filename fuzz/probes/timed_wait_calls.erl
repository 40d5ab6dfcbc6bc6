%% timed_wait_calls: timed_wait_order.erl with a NIF tracer (timed_wait_calls.c), so that the
%% order counted is the order of the runtime's trace/5 calls, not of trace messages arriving
%% at a tracer process (fuzz/findings-log.md, Z2 and Z4; RECV-TIMED-WAIT, C-760).
%%
%% Each round: A, bound to scheduler 1, gets `go`, reads the monotonic time W and waits
%% `receive after 50 -> ok end` (its timer is set after W, so it is due at W + 50 ms or
%% later); B, bound to scheduler 2, sends A `msg` SendUs after T0 (read before `go` was
%% sent) and reads the time S after the send.  Rounds with S >= W + 50 ms are left out:
%% every round counted sent its message before the timer was due.  The tracer records each
%% 'receive' call with a sequence number, the time and the thread that made it.  Prints the
%% count of each order, how long after its send the message was traced when it came first, and,
%% for every round whose timeout was traced first, when the message was sent and when each
%% event was traced (ms after W) and by which thread.
%%
%%   gcc -shared -fPIC -O2 -I/usr/lib/erlang/usr/include -o timed_wait_calls.so timed_wait_calls.c
%% With HOLD_US, a process of high priority bound to A's scheduler spins from 5 ms before the send
%% to HOLD_US after T0: A cannot run between the send and then.
%%
%%   erlc timed_wait_calls.erl && erl -noshell +S 2 -run timed_wait_calls main SEND_US ROUNDS [HOLD_US]
-module(timed_wait_calls).
-export([main/1, enabled/3, trace/5, take/0]).
-on_load(init/0).

init() -> erlang:load_nif(filename:join(filename:dirname(code:which(?MODULE)), ?MODULE_STRING), 0).
enabled(_, _, _) -> erlang:nif_error(not_loaded).
trace(_, _, _, _, _) -> erlang:nif_error(not_loaded).
take() -> erlang:nif_error(not_loaded).

main([SendUs, N]) -> main([SendUs, N, "0"]);
main([SendUs0, N0, HoldUs0]) ->
    [SendUs, N, HoldUs] = [list_to_integer(X) || X <- [SendUs0, N0, HoldUs0]],
    Rounds = [R || R <- [round1(SendUs, HoldUs) || _ <- lists:seq(1, N)], R =/= late],
    Orders = [Order || {Order, _} <- Rounds],
    io:format("~s send@~bus hold@~bus: ~p~n", [erlang:system_info(otp_release), SendUs, HoldUs,
        lists:foldl(fun(K, M) -> maps:update_with(K, fun(V) -> V + 1 end, 1, M) end, #{}, Orders)]),
    Lags = lists:sort([Traced - Sent || {[msg, timeout], [Sent, Traced | _]} <- Rounds]),
    Threads = lists:usort([Th || {[msg, timeout], [_, _, Th | _]} <- Rounds]),
    Lags =/= [] andalso io:format("  msg first: traced ~.3f to ~.3f ms after the send (median ~.3f) by ~s~n",
                                  [hd(Lags), lists:last(Lags), lists:nth((length(Lags) + 1) div 2, Lags),
                                   lists:join(", ", Threads)]),
    [io:format("  timeout first: sent ~.2f, msg traced ~.2f by ~s, timeout traced ~.2f by ~s~n", Detail)
     || {[timeout, msg], Detail} <- Rounds],
    halt().

round1(SendUs, HoldUs) ->
    Self = self(),
    HoldUs > 0 andalso hold_scheduler_1(SendUs, HoldUs),
    A = spawn_opt(fun() -> receive go -> ok end,
                           Self ! {waits, erlang:monotonic_time(nanosecond)},
                           receive after 50 -> ok end,
                           receive stop -> ok end end,
                  [{scheduler, 1}]),
    erlang:trace(A, true, ['receive', {tracer, ?MODULE, []}]),
    B = spawn_opt(fun() -> receive {T0, go} -> spin(T0 + SendUs * 1000), A ! msg,
                               Self ! {sent, erlang:monotonic_time(nanosecond)} end end,
                  [{scheduler, 2}]),
    _ = take(),
    T0 = erlang:monotonic_time(nanosecond),
    HoldUs > 0 andalso (whereis(hold) ! {T0, go}),
    A ! go,
    B ! {T0, go},
    W = receive {waits, Wt} -> Wt end,
    S = receive {sent, St} -> St end,
    timer:sleep(max(0, (W + 80000000 - erlang:monotonic_time(nanosecond)) div 1000000)),
    Ref = monitor(process, A),
    A ! stop,
    receive {'DOWN', Ref, _, _, _} -> ok end,
    Calls = [C || {_, What, _, _} = C <- take(), What =:= msg orelse What =:= timeout],
    Ms = fun(T) -> (T - W) / 1.0e6 end,
    case {S - W < 50000000, Calls} of
        {false, _} -> late;
        {true, [{_, First, T1, Th1}, {_, Second, T2, Th2}]} ->
            {[First, Second], [Ms(S) | case First of
                                           msg -> [Ms(T1), Th1, Ms(T2), Th2];
                                           timeout -> [Ms(T2), Th2, Ms(T1), Th1]
                                       end]};
        {true, Other} -> {{incomplete, Other}, []}
    end.

%% With HoldUs: a process of high priority on A's scheduler spins from 5 ms before the send to
%% HoldUs after T0, so that A cannot run between the send and then.
hold_scheduler_1(SendUs, HoldUs) ->
    register(hold, spawn_opt(fun() -> receive {T0, go} -> timer:sleep((SendUs - 5000) div 1000),
                                                         spin(T0 + HoldUs * 1000) end end,
                             [{scheduler, 1}, {priority, high}])).

spin(Until) -> case erlang:monotonic_time(nanosecond) >= Until of true -> ok; false -> spin(Until) end.
