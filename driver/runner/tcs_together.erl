%% A together block (cases/README.md "Steps together", BLOCK-TOGETHER): each process of the
%% block does its own steps of it in order, every process at once.
%%
%% Each process gets its chain of steps through the gate ({together, Actions}), answers at once
%% and waits in the gate again; once every process of the block waits there, one poke of the gate
%% starts them all, and none waits for another's step.  A process keeps its results until the
%% harness asks for them (together_results), which it answers once its chain is done and it is
%% back in the gate.  The control lines of the steps (a raise, an answer of match_spec_test or
%% trace_pattern) are written then, in the order the case wrote the steps, as the model writes
%% them after the block.
-module(tcs_together).
-export([run/3]).

%% run(Acts, Names, Ctx): Acts the block's steps in the order written, each {Who, Action}
%% (tcs_puppet:perform/1's actions); {ok, Names}, or timeout when a process did not answer.
run(Acts, Names, #{gate := Gate, timeout := Timeout, collector := C}) ->
    Chains = [{W, [A || {W1, A} <- Acts, W1 =:= W]} || W <- first_seen([W || {W, _} <- Acts], [])],
    case started(Chains, Gate, Names, Timeout) andalso results(Chains, Gate, Names, Timeout, #{}) of
        false -> timeout;
        Results -> report(Acts, Results, C, Names), {ok, Names}
    end.

%% The names in the order of their first step.
first_seen([], Seen) -> lists:reverse(Seen);
first_seen([W | Rest], Seen) ->
    case lists:member(W, Seen) of
        true -> first_seen(Rest, Seen);
        false -> first_seen(Rest, [W | Seen])
    end.

%% Each process given its chain, one after the other, and started together once each took it and
%% waits in the gate: true; false when one did not.
started(Chains, Gate, Names, Timeout) ->
    Ready = fun({W, Chain}) ->
                    Pid = maps:get(W, Names),
                    give(Gate, Pid, {together, Chain}, Timeout) =:= {ok, started}
                        andalso tcs_gate:await_waiting(Gate, Pid, Timeout * 1000)
            end,
    lists:all(Ready, Chains) andalso tcs_gate:poke(Gate) =:= ok.

%% Each process's results once its chain is done (a chain may take the time of all its steps; the
%% watchdog bounds the whole block), by name; false when one did not answer.
results([], _Gate, _Names, _Timeout, Acc) -> Acc;
results([{W, Chain} | Rest], Gate, Names, Timeout, Acc) ->
    case give(Gate, maps:get(W, Names), together_results, Timeout * length(Chain)) of
        {ok, Results} -> results(Rest, Gate, Names, Timeout, Acc#{W => Results});
        timeout -> false
    end.

give(Gate, Pid, Step, Timeout) ->
    ok = tcs_gate:give(Gate, Pid, Step),
    tcs_gate:await_result(Gate, Timeout).

%% Each step's control line, in the order written.
report([], _Results, _C, _Names) -> ok;
report([{Who, Action} | Rest], Results, C, Names) ->
    [Result | Left] = maps:get(Who, Results),
    tcs_runner_lib:step_result(C, Who, Action, Result, Names),
    report(Rest, Results#{Who := Left}, C, Names).
