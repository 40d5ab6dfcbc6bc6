%% Waiting until the scenario processes are at rest, without making them run
%% (which `running` tracing would see): process_info(P, status) is answered
%% for a process at rest without scheduling it, and the gate knows who waits
%% in it.
%%
%% A process that is not at rest yet is asked again only after a wait twice
%% as long as the last one (from 1 ms).  Asked, a process on its way (running
%% or runnable) has a signal to handle, which schedules it once more, and a
%% traced process calls its tracer each time it is scheduled: asked every
%% millisecond, a puppet whose tracer took 3 ms per call never got back into
%% the gate, and the runner waited for it until the node was killed (one job
%% in about 15 of run_block_twice on a quiet machine, step 3: the receiving
%% puppet on its way back).  Doubling, the questions a process gets are a
%% handful whatever its tracer's pace, and the wait outlasts what is left of
%% its way by less than that way took.
-module(tcs_settle).
-export([until_blocked/1, until_idle/1, until_in_gate/2, trace_delivered/0, until_handed_on/1]).

-define(FIRST_WAIT_US, 1000).

%% until_blocked(Pid): returns once Pid waits in a receive on an empty
%% mailbox (tcs_puppet:block/0), or is gone.
until_blocked(Pid) ->
    until_status(Pid, [undefined, {status, waiting}], ?FIRST_WAIT_US).

%% Pid is asked its status (process_info/2 answers a process at rest without scheduling it)
%% until the answer is one of Rest.
until_status(Pid, Rest, Us) ->
    case lists:member(erlang:process_info(Pid, status), Rest) of
        true -> ok;
        false -> receive after Us div 1000 -> until_status(Pid, Rest, 2 * Us) end
    end.

%% until_handed_on(Forwarders): returns once each tracer state process that hands what it
%% gets on to the collector (tcs_procflags: <tracer>, <meta>) waits in its receive, so has
%% handed on every message it got, or is suspended, or is gone.  Called after
%% trace_delivered/0, which guarantees that the trace messages are in the state process's
%% queue, not that it has passed them on: the tail of a burst was still on its way when the
%% collector handed over its records (otp_meta_stack_grow_deep, 27, CI of stop 33: the last
%% 3 of 9 return_froms of a 32768 deep recursion missing in a shared node; the same for
%% otp_local_stack_grow_deep once in 17 runs of the corpus on 27).
until_handed_on(Forwarders) ->
    [until_status(Pid, [undefined, {status, waiting}, {status, suspended}], ?FIRST_WAIT_US) || Pid <- Forwarders],
    ok.

%% until_idle(Pids): returns once each of the processes is back in the gate,
%% blocked in a receive, suspended sending to a busy port (tcs_ports), or gone; a process woken by the last step has then
%% finished what the wake-up made it do.  "Back in the gate" is the gate's
%% word (tcs_gate:waiting/2), not the process's current function: a puppet a
%% poke has woken is still in await_turn/1 until it has left, and its way
%% out and back in is traced after that (see tcs_gate.c).
until_idle(Pids) ->
    Gate = persistent_term:get(tcs_gate),
    lists:foreach(fun(Pid) -> idle(Gate, Pid, ?FIRST_WAIT_US) end, Pids).

%% The wait is woken by the puppet's way back into the gate (the usual case,
%% asked once); a process that blocks in a receive instead is seen at the
%% next question.
idle(Gate, Pid, Us) ->
    Rest = tcs_gate:waiting(Gate, Pid)
        orelse lists:member(erlang:process_info(Pid, status),
                            [undefined, {status, waiting}, {status, suspended}]),
    case Rest of
        true -> ok;
        false -> tcs_gate:await_waiting(Gate, Pid, Us), idle(Gate, Pid, 2 * Us)
    end.

%% until_in_gate(Pid, Ms): true once Pid waits in the gate again, false when it does not within
%% Ms milliseconds.  Pid is asked nothing (a question is a signal it would handle).
until_in_gate(Pid, Ms) ->
    Gate = persistent_term:get(tcs_gate),
    tcs_gate:waiting(Gate, Pid) orelse tcs_gate:await_waiting(Gate, Pid, Ms * 1000).

%% trace_delivered(): returns once every scheduler has finished the trace
%% calls it was making (erlang:trace_delivered(all) answers after each has
%% run a job queued behind them): no record of an event that happened before
%% is still on its way to a tracer.
trace_delivered() ->
    Ref = erlang:trace_delivered(all),
    receive {trace_delivered, all, Ref} -> ok end.
