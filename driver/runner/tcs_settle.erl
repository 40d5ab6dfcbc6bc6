%% Waiting until the scenario processes are at rest, without making them run:
%% process_info(P, status) is answered for P without scheduling it, but
%% current_function makes a process blocked in a receive run (an in/out pair
%% of scheduling events), so it is only asked of processes not waiting.
-module(tcs_settle).
-export([until_blocked/1, until_idle/1]).

%% until_blocked(Pid): returns once Pid waits in a receive on an empty
%% mailbox (tcs_puppet:block/0), or is gone.
until_blocked(Pid) ->
    case erlang:process_info(Pid, status) of
        {status, waiting} -> ok;
        undefined -> ok;
        _ -> timer:sleep(1), until_blocked(Pid)
    end.

%% until_idle(Pids): returns once each of the processes is back in the gate,
%% blocked in a receive, or gone; a process woken by the last step has then
%% finished what the wake-up made it do.
until_idle(Pids) ->
    lists:foreach(fun idle/1, Pids).

idle(Pid) ->
    Rest = erlang:process_info(Pid, status) =:= {status, waiting}
        orelse lists:member(erlang:process_info(Pid, current_function),
                            [undefined, {current_function, {tcs_gate, await_turn, 1}}]),
    case Rest of
        true -> ok;
        false -> timer:sleep(1), idle(Pid)
    end.
