%% OTP-19034 (erlang/otp PR #8286; ERTS 13.2.2.8 = OTP 25.3.2.8, 14.2.4, 27.0):
%% erlang:trace/3 on all (or processes, existing, ...) could crash the emulator while a
%% dirty scheduler was executing a trace action. Two processes with big heaps collect
%% again and again (major collections run on a dirty CPU scheduler and emit
%% garbage_collection events) while this process turns the flag on and off for all
%% processes for three seconds. Present: the node dies (no line printed). Turning the flag
%% only on, never off, does not crash 25.2.3: the crash needs the tracer cleared under
%% the dirty collection, the path of erlang/otp#6448 (fixed in 25.3) as well.
%% tries: 3
-module(pr8286).
-export([run/0]).

run() ->
    Tracer = spawn(fun Sink() -> receive _ -> Sink() end end),
    Big = lists:seq(1, 400000),
    Workers = [spawn(fun() -> put(big, Big), collect() end) || _ <- [1, 2]],
    toggle(Tracer, erlang:monotonic_time(millisecond) + 3000),
    [exit(W, kill) || W <- Workers],
    io:format("absent~n").

collect() ->
    erlang:garbage_collect(),
    collect().

toggle(Tracer, Deadline) ->
    erlang:trace(all, true, [garbage_collection, {tracer, Tracer}]),
    erlang:trace(all, false, [garbage_collection]),
    case erlang:monotonic_time(millisecond) < Deadline of
        true -> toggle(Tracer, Deadline);
        false -> ok
    end.
