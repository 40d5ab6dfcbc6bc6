%% OTP-19034 (erlang/otp PR #8286; ERTS 13.2.2.8 = OTP 25.3.2.8, 14.2.4): erlang:trace/3
%% on all (or processes, existing, ...) could crash the emulator while a dirty scheduler
%% was executing a trace action. Two processes with big heaps collect again and again
%% (major collections run on a dirty CPU scheduler and emit garbage_collection events)
%% while this process turns the flag on and off for all processes, until they have
%% collected 250 times (at most 5 s). Present: the node dies (no line printed). Turning
%% the flag only on, never off, does not crash 25.2.3: the crash needs the tracer cleared
%% under the dirty collection, the path of erlang/otp#6448 (fixed in 25.3) as well.
%% On 25.2.3, 5 of 6 single runs crashed, within 0 to 160 collections (load average ~24).
%% Session 38: 10 of 10 quiet, 9 of 10 beside four `yes` loops, 1 of 6 beside six at a higher
%% priority; absent in both tries of a fresh-clone ./tcs test run beside validate runs: a third try.
%% tries: 3
-module(pr8286).
-export([run/0]).

-define(COLLECTIONS, 250).

run() ->
    Tracer = spawn(fun Sink() -> receive _ -> Sink() end end),
    Big = lists:seq(1, 400000),
    Collections = atomics:new(1, []),
    Workers = [spawn(fun() -> put(big, Big), collect(Collections) end) || _ <- [1, 2]],
    toggle(Tracer, Collections, erlang:monotonic_time(millisecond) + 5000),
    [exit(W, kill) || W <- Workers],
    io:format("absent~n").

collect(Collections) ->
    erlang:garbage_collect(),
    atomics:add(Collections, 1, 1),
    collect(Collections).

%% Until the workers have collected ?COLLECTIONS times (a count, not a time, so that a
%% loaded machine gives the race as many chances), or the deadline.
toggle(Tracer, Collections, Deadline) ->
    erlang:trace(all, true, [garbage_collection, {tracer, Tracer}]),
    erlang:trace(all, false, [garbage_collection]),
    case atomics:get(Collections, 1) < ?COLLECTIONS andalso erlang:monotonic_time(millisecond) < Deadline of
        true -> toggle(Tracer, Collections, Deadline);
        false -> ok
    end.
