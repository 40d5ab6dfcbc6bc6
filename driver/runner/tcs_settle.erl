%% Waiting until the scenario processes are at rest, without making them run
%% (which `running` tracing would see): process_info(P, status) is answered
%% for P without scheduling it, and the gate knows who waits in it.
-module(tcs_settle).
-export([until_blocked/1, until_idle/1, trace_delivered/0]).

%% until_blocked(Pid): returns once Pid waits in a receive on an empty
%% mailbox (tcs_puppet:block/0), or is gone.
until_blocked(Pid) ->
    case erlang:process_info(Pid, status) of
        {status, waiting} -> ok;
        undefined -> ok;
        _ -> timer:sleep(1), until_blocked(Pid)
    end.

%% until_idle(Pids): returns once each of the processes is back in the gate,
%% blocked in a receive, suspended sending to a busy port (tcs_ports), or gone; a process woken by the last step has then
%% finished what the wake-up made it do.  "Back in the gate" is the gate's
%% word (tcs_gate:waiting/2), not the process's current function: a puppet a
%% poke has woken is still in await_turn/1 until it has left, and its way
%% out and back in is traced after that (see tcs_gate.c).
until_idle(Pids) ->
    Gate = persistent_term:get(tcs_gate),
    lists:foreach(fun(Pid) -> idle(Gate, Pid) end, Pids).

%% The wait is woken by the puppet's way back into the gate (the usual case);
%% a process that blocks in a receive instead is seen within a millisecond.
idle(Gate, Pid) ->
    Rest = tcs_gate:waiting(Gate, Pid)
        orelse lists:member(erlang:process_info(Pid, status),
                            [undefined, {status, waiting}, {status, suspended}]),
    case Rest of
        true -> ok;
        false -> tcs_gate:await_waiting(Gate, Pid, 1000), idle(Gate, Pid)
    end.

%% trace_delivered(): returns once every scheduler has finished the trace
%% calls it was making (erlang:trace_delivered(all) answers after each has
%% run a job queued behind them): no record of an event that happened before
%% is still on its way to a tracer.
trace_delivered() ->
    Ref = erlang:trace_delivered(all),
    receive {trace_delivered, all, Ref} -> ok end.
