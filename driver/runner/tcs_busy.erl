%% A scenario process busy calling a traced function while the harness does
%% something else: `tracer reload while A calls M:F(Args)` (cases/README.md,
%% TRACER-RELOAD-BUSY), as the tracee of tracer_SUITE's reload/1 runs
%% reload_loop/0 all through the test; and `A loop M:F(Args)` ... `A idle`
%% (CALL-BUSY-LOOP), a loop without a pause that runs across the steps
%% between, as the callers of trace_call_time_SUITE's loop_aaa_bbb/0 do while
%% the test resets the counters under them (erlang/otp#8835).
%%
%% The process and the harness share an atomics array Calls: element 1 is the
%% stop flag the harness sets, element 2 the number of calls made so far,
%% element 3 (`loop` only) the number of steps the harness has begun.
%% Neither waits in a receive for the other, so the loop makes no message
%% events (the model refuses a tracee traced for more than call).
-module(tcs_busy).
-export([round/4, loop/4, start/3, stop/2, spin/4, spinning/0, step_begins/0]).

-define(STOP, 1).
-define(CALLS, 2).
-define(STEPS, 3).
%% The calls `A loop` makes with no pause after each step the harness begins;
%% then one a millisecond until the next (see spin/6).
-define(BURST, 5000).

%% round(Pid, {M, F, Args}, Ctx, Inner): Pid loops calling M:F(Args); Inner runs
%% once it has made a call, and after Inner Pid makes at least one more call
%% (so a tracer whose module Inner deleted is found gone, TRACER-UNLOADED)
%% before it stops and goes back to its gate.  ok, or timeout.
-spec round(pid(), {module(), atom(), list()}, map(), fun(() -> term())) -> ok | timeout.
round(Pid, {M, F, Args}, #{gate := Gate, timeout := Timeout}, Inner) ->
    Calls = atomics:new(2, []),
    ok = tcs_gate:give(Gate, Pid, {busy, M, F, Args, Calls}),
    case calls_past(Calls, 0, Timeout) of
        ok ->
            _ = Inner(),
            Done = calls_past(Calls, atomics:get(Calls, ?CALLS), Timeout),
            atomics:put(Calls, ?STOP, 1),
            case {Done, tcs_gate:await_result(Gate, Timeout)} of
                {ok, {ok, {ok, stopped}}} -> ok;
                _ -> timeout
            end;
        timeout ->
            timeout
    end.

%% The loop of reload_loop/0: five calls, then a millisecond's sleep (a
%% receive with no message: no event for a tracee traced for call only).
-spec loop(module(), atom(), list(), atomics:atomics_ref()) -> stopped.
loop(M, F, Args, Calls) ->
    calls(5, M, F, Args, Calls),
    receive after 1 -> ok end,
    case atomics:get(Calls, ?STOP) of
        0 -> loop(M, F, Args, Calls);
        _ -> stopped
    end.

%% K calls of M:F(Args), each counted (no library call: the loop's only calls
%% a pattern can reach are the case's).
calls(0, _, _, _, _) -> ok;
calls(K, M, F, Args, Calls) ->
    _ = erlang:apply(M, F, Args),
    atomics:add(Calls, ?CALLS, 1),
    calls(K - 1, M, F, Args, Calls).

%% ok once Calls counts more than N calls; timeout after Timeout ms.
calls_past(Calls, N, Timeout) ->
    Deadline = erlang:monotonic_time(millisecond) + Timeout,
    calls_past(Calls, N, Deadline, atomics:get(Calls, ?CALLS)).

calls_past(_, N, _, Made) when Made > N -> ok;
calls_past(Calls, N, Deadline, _) ->
    case erlang:monotonic_time(millisecond) > Deadline of
        true -> timeout;
        false -> receive after 1 -> ok end, calls_past(Calls, N, Deadline, atomics:get(Calls, ?CALLS))
    end.

%% start(Pid, {M, F, Args}, Ctx): `A loop M:F(Args)`: Pid calls M:F(Args) over
%% and over, with no pause, until stop/2; ok once it has made a call (the model's
%% certain first call), or timeout.  The puppet answers its step at once
%% (spinning), so the gate is free for the steps of other processes meanwhile.
-spec start(pid(), {module(), atom(), list()}, map()) -> ok | timeout.
start(Pid, {M, F, Args}, #{gate := Gate, timeout := Timeout}) ->
    Calls = atomics:new(3, []),
    ok = tcs_gate:give(Gate, Pid, {spin, M, F, Args, Calls}),
    case tcs_gate:await_result(Gate, Timeout) of
        {ok, {ok, spinning}} ->
            put({tcs_busy, Pid}, Calls),
            calls_past(Calls, 0, Timeout);
        _ -> timeout
    end.

%% stop(Pid, Ctx): `A idle`: the loop stops after a call that began after every
%% step before this one (the model's certain last call: the call under way when
%% the step begins may have begun before the step before it ended), and Pid is
%% back in its gate.  ok, or timeout.
-spec stop(pid(), map()) -> ok | timeout.
stop(Pid, #{gate := Gate, timeout := Timeout}) ->
    Calls = erase({tcs_busy, Pid}),
    Done = calls_past(Calls, atomics:get(Calls, ?CALLS) + 1, Timeout),
    atomics:put(Calls, ?STOP, 1),
    case {Done, tcs_gate:await_waiting(Gate, Pid, Timeout * 1000)} of
        {ok, true} -> ok;
        _ -> timeout
    end.

%% The pids whose loops run (the runner's settle leaves them be: they never wait).
-spec spinning() -> [pid()].
spinning() -> [Pid || {{tcs_busy, Pid}, _} <- get()].

%% step_begins(): each running loop is told that the harness begins a step.
-spec step_begins() -> ok.
step_begins() ->
    _ = [atomics:add(Calls, ?STEPS, 1) || {{tcs_busy, _}, Calls} <- get()],
    ok.

%% The loop of `A loop`: a call, counted, and the stop flag read, with no pause
%% (a process in a traced function most of the time, as #8835 needs) for
%% ?BURST calls after each step the harness begins, then a call a millisecond
%% until the next step (a receive with no message: no event for a tracee traced
%% for call only).  Without the pause the number of calls, each an event, grew
%% with the time the steps took: on a loaded machine a case's stream reached
%% hundreds of thousands of lines and its node its time limit.
-spec spin(module(), atom(), list(), atomics:atomics_ref()) -> stopped.
spin(M, F, Args, Calls) ->
    spin(M, F, Args, Calls, atomics:get(Calls, ?STEPS), 0).

spin(M, F, Args, Calls, Seen, Burst) ->
    _ = erlang:apply(M, F, Args),
    atomics:add(Calls, ?CALLS, 1),
    case {atomics:get(Calls, ?STOP), atomics:get(Calls, ?STEPS)} of
        {0, Seen} when Burst < ?BURST -> spin(M, F, Args, Calls, Seen, Burst + 1);
        {0, Seen} -> receive after 1 -> ok end, spin(M, F, Args, Calls, Seen, Burst);
        {0, Steps} -> spin(M, F, Args, Calls, Steps, 1);
        _ -> stopped
    end.
