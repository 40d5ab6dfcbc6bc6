%% A step that overruns says where it is stuck.  A hang used to end only
%% when the driver killed the node at its wall-clock limit, with nothing but
%% the last STEP marker as evidence.  Now the runner arms a timer for each
%% step (arm/3, disarm/1), sent to the process that waits for the job
%% (tcs_batch); when it fires, that process reports what every process of
%% the job is doing (report/4: status, mailbox, stack), what the gate holds
%% and the run queues, as STUCK markers, then the step's TIMEOUT.
%%
%% A timer, not a watching process: nothing is sent and nothing is
%% scheduled while the job keeps to its limit, so a scenario sees no event of
%% it (a message or a wake-up would be one under `trace all`).
-module(tcs_watchdog).
-export([arm/3, disarm/1, report/4]).

-import(tcs_runner_lib, [out/2]).

%% arm(Ctx, Step, Names): a timer for step Step, which sends the watcher
%% {tcs_overrun, Runner, Step, Names} after LimitMs (the Ctx's watch); none
%% without a watcher.  The collector is named too.
arm(#{watch := none}, _Step, _Names) -> none;
arm(#{watch := {Watcher, LimitMs}, collector := Collector}, Step, Names) ->
    erlang:start_timer(LimitMs, Watcher, {tcs_overrun, self(), Step, Names#{'(collector)' => Collector}}).

disarm(none) -> ok;
disarm(Timer) -> erlang:cancel_timer(Timer, [{async, true}, {info, false}]).

%% report(Runner, Step, Names, Members): one STUCK line per process of the
%% job (the runner, then Members, each by its scenario name where it has
%% one), the gate, the run queues, then TIMEOUT Step.
report(Runner, Step, Names, Members) ->
    ByPid = maps:from_list([{P, N} || {N, P} <- maps:to_list(Names#{'(runner)' => Runner}), is_pid(P)]),
    [out("STUCK ~ts ~ts", [name(P, ByPid), describe(P)]) || P <- [Runner | Members -- [Runner]]],
    {Generation, Turn, HasResult, Waiters} = tcs_gate:state(persistent_term:get(tcs_gate)),
    out("STUCK gate poke ~w, turn ~ts, result ~w, waiting ~ts",
        [Generation, name(Turn, ByPid), HasResult,
         lists:join(" ", [[name(P, ByPid), "@", integer_to_list(G)] || {P, G} <- Waiters])]),
    out("STUCK run queues (normal..., dirty CPU, dirty I/O) ~w, active ~w",
        [erlang:statistics(run_queue_lengths_all), erlang:statistics(active_tasks_all)]),
    out("TIMEOUT ~p", [Step]).

name(none, _) -> "none";
name(P, ByPid) ->
    case maps:find(P, ByPid) of
        {ok, N} -> io_lib:format("~w ~w", [N, P]);
        error -> io_lib:format("~w", [P])
    end.

%% process_info/2 of another process is a signal it answers: asked from a
%% helper, so that a process stuck in a NIF cannot stop the report.
describe(P) ->
    Items = [status, message_queue_len, reductions, current_stacktrace],
    {Helper, Ref} = spawn_monitor(fun() -> exit({info, erlang:process_info(P, Items)}) end),
    receive
        {'DOWN', Ref, process, Helper, {info, undefined}} -> "gone";
        {'DOWN', Ref, process, Helper, {info, [{status, S}, {message_queue_len, Q}, {reductions, R},
                                                {current_stacktrace, Stack}]}} ->
            io_lib:format("~w, ~w queued, ~w reductions, at ~ts", [S, Q, R, lists:join(" < ", [frame(F) || F <- Stack])])
    after 1000 ->
            exit(Helper, kill),
            "no answer to process_info within 1 s"
    end.

frame({M, F, A, Where}) ->
    Arity = if is_list(A) -> length(A); true -> A end,
    io_lib:format("~w:~w/~w~ts", [M, F, Arity, case lists:keyfind(line, 1, Where) of
                                                    {line, L} -> [":", integer_to_list(L)];
                                                    false -> ""
                                                end]).
