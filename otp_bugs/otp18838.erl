%% OTP-18838 (erlang/otp PR #7822, issue #7801; ERTS 13.2.2.5 = OTP 25.3.2.5, 14.2): "A
%% process with message_queue_data configured as off_heap could end up in an inconsistent
%% state when being receive traced, inspected using process_info/2 with the
%% message_queue_len item, or inspected using the break menu (CTRL-C). When it ended up in
%% this inconsistent state, it was not enqueued into a run queue even though it was set in
%% a runnable state. [...] from this point not possible to communicate with it." Rounds of:
%% an off_heap process, 'receive' traced, sent 2000 messages by each of four senders
%% while a fifth process asks for its message_queue_len, for 200 ms; then the load stops
%% and the process is pinged. Present: the process does not answer, is runnable, and runs
%% no reduction for 1.5 s (a process still draining its queue runs reductions, so the
%% verdict does not depend on the machine's speed).
%% tries: 2
-module(otp18838).
-export([run/0]).

-define(LOAD_MS, 200).
-define(ROUNDS_MS, 6000).

run() ->
    Tracer = otp_bugs_lib:sink(),
    Deadline = erlang:monotonic_time(millisecond) + ?ROUNDS_MS,
    otp_bugs_lib:verdict(rounds(Tracer, Deadline, 0)).

%% True if every round's process answered its ping.
rounds(Tracer, Deadline, N) ->
    case erlang:monotonic_time(millisecond) < Deadline of
        false -> io:format("rounds: ~p~n", [N]), true;
        true ->
            case load_round(Tracer) of
                true -> rounds(Tracer, Deadline, N + 1);
                false -> io:format("stuck in round ~p~n", [N + 1]), false
            end
    end.

load_round(Tracer) ->
    P = spawn_opt(fun Serve() -> receive {ping, From} -> From ! {pong, self()}, Serve(); _ -> Serve() end end,
                  [{message_queue_data, off_heap}]),
    1 = erlang:trace(P, true, ['receive', {tracer, Tracer}]),
    Load = [spawn(fun() -> flood(P) end) || _ <- [1, 2, 3, 4]]
        ++ [spawn(fun() -> inspect(P) end)],
    timer:sleep(?LOAD_MS),
    [exit(L, kill) || L <- Load],
    P ! {ping, self()},
    Answered = answers(P, undefined, 0),
    exit(P, kill),
    Answered.

%% True once P answers the ping; false once P has been runnable with the same reductions
%% for three checks 500 ms apart.
answers(_P, _Reductions, 3) -> false;
answers(P, Reductions, Still) ->
    receive {pong, P} -> true
    after 500 ->
        case erlang:process_info(P, [status, reductions]) of
            [{status, runnable}, {reductions, Reductions}] -> answers(P, Reductions, Still + 1);
            [_, {reductions, Now}] -> answers(P, Now, 0)
        end
    end.

flood(P) ->
    [begin P ! {load, N}, N rem 50 =:= 0 andalso erlang:yield() end || N <- lists:seq(1, 2000)],
    receive stop -> ok end.

inspect(P) ->
    _ = erlang:process_info(P, message_queue_len),
    inspect(P).
