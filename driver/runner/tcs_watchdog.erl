%% A step that overruns says where it is stuck.  A hang used to end only
%% when the driver killed the node at its wall-clock limit, with nothing but
%% the last STEP marker as evidence.  Now the runner arms a timer for each
%% step (arm/3, disarm/2), sent to the process that waits for the job
%% (tcs_batch); when it fires, that process reports what every process of
%% the job is doing (report/4: status, mailbox, stack), what the gate holds
%% and the run queues, as STUCK markers, then the step's TIMEOUT.  A step
%% whose own wait for its process ends first (tcs_runner: the step limit) is
%% reported the same way, by the runner itself: a timeout seen only in a
%% shared node (fuzz B1) said nothing of where the process was.
%%
%% A timer, not a watching process: nothing is sent and nothing is
%% scheduled while the job keeps to its limit, so a scenario sees no event of
%% it (a message or a wake-up would be one under `trace all`).  The timer is
%% cancelled asynchronously (a synchronous cancel may suspend the runner,
%% which `running` tracing would see), so the watcher trusts a timer's message
%% only if that arming is still the current one (overrun/2): on OTP 29.1.2
%% timers the runner had cancelled fired anyway, at their limit (C-660: sent
%% to the batch's pid while hold/1 suspended it; about 600 of the 810 of
%% busy_dirty_trace_all_otp19034, and one to three in 25 other cases of a
%% whole-corpus run; none on 25 and 27), and their messages, kept in the
%% batch's mailbox, made it long enough for a `long_message_queue` monitor
%% message about it in a later case (otp_sess_system_monitor_info,
%% sysmon_long_msgq_crossings: an extra line in a shared node).
-module(tcs_watchdog).
-export([watcher/1, watch/2, arm/3, disarm/2, each/5, overrun/2, report/5, members/1]).

-import(tcs_runner_lib, [out/2]).

%% watcher(Name): the process registered as Name as the watcher of a job
%% (tcs_runner:run/2), with the job's armings: how many so far, and the
%% current one (0: none).  The timers go to the name: on OTP 29 a timer sent
%% to a pid is paused while that process is suspended, as tcs_runner_lib:hold/1
%% suspends the watcher around a `trace all on` step, and then cannot be
%% cancelled (C-660); one sent to a registered name is not paused.
watcher(Name) when is_atom(Name) -> {Name, atomics:new(2, [])}.

%% watch(Watcher, LimitMs): what the job's Ctx holds: a step is reported to
%% Watcher (or none) when it takes more than LimitMs.
watch(none, _) -> none;
watch({Name, Armings}, LimitMs) -> {Name, LimitMs, Armings}.

%% arm(Ctx, Step, Names): a timer for step Step, which sends the watcher
%% {tcs_overrun, Runner, Step, Names, LimitMs, Arming} after LimitMs (the Ctx's watch),
%% and makes it the current arming; none without a watcher.  The collector is
%% named too.
arm(#{watch := none}, _Step, _Names) -> none;
arm(#{watch := {Watcher, LimitMs, Armings}, collector := Collector}, Step, Names) ->
    Arming = atomics:add_get(Armings, 1, 1),
    atomics:put(Armings, 2, Arming),
    erlang:start_timer(LimitMs, Watcher, {tcs_overrun, self(), Step, Names#{'(collector)' => Collector},
                                          LimitMs, {Armings, Arming}}).

%% disarm(Ctx, Timer): no arming is current, and the timer is cancelled.
disarm(_, none) -> ok;
disarm(#{watch := {_, _, Armings}}, Timer) ->
    atomics:put(Armings, 2, 0),
    erlang:cancel_timer(Timer, [{async, true}, {info, false}]).

%% each(Ctx, Step, Names, Fun, Count): the results of Count calls of Fun(), in turn, each call
%% watched as step Step is (a step of many rounds, `kill_all ... rounds N`, `pattern ... restart
%% ... rounds N`, `trace SPEC on call rounds N`: each round must keep to the limit, not all of them
%% together); the step's own
%% arming is the current one again afterwards (its timer, had it fired meanwhile, was stale and
%% dropped).  A count, not a list: the harness calls no lists:seq/2, which a case's pattern on that
%% library target would see (seed 2026112936, scenario 382: a meta call of lists:seq(1, 6) by the
%% runner).
each(#{watch := none}, _Step, _Names, Fun, Count) -> repeat(Fun, Count);
each(#{watch := {_, _, Armings}} = Ctx, Step, Names, Fun, Count) ->
    Own = atomics:get(Armings, 2),
    Results = repeat(fun() -> Timer = arm(Ctx, Step, Names), R = Fun(), disarm(Ctx, Timer), R end, Count),
    atomics:put(Armings, 2, Own),
    Results.

repeat(_, 0) -> [];
repeat(Fun, Count) -> [Fun() | repeat(Fun, Count - 1)].

%% overrun(Watcher, Message): {Runner, Step, Names, LimitMs} when Message is the timer
%% of the current arming of Watcher's job; stale for the timer of an arming
%% since disarmed (its cancellation lost), or of an earlier job.
overrun({_, Armings}, {tcs_overrun, Runner, Step, Names, LimitMs, {Armings, Arming}}) ->
    case atomics:get(Armings, 2) of
        Arming -> {Runner, Step, Names, LimitMs};
        _ -> stale
    end;
overrun(_, _) -> stale.

%% report(Runner, Step, Names, Members, {Span, LimitMs}): what overran (OVERRUN
%% Span LimitMs: `step`, the step's own wait for its process, or `settled`, the
%% step with its settling), one STUCK line per process of the job (the runner,
%% then Members, each by its scenario name where it has one), the gate, the
%% run queues, then TIMEOUT Step.
report(Runner, Step, Names, Members, {Span, LimitMs}) ->
    out("OVERRUN ~w ~w", [Span, LimitMs]),
    ByPid = maps:from_list([{P, N} || {N, P} <- maps:to_list(Names#{'(runner)' => Runner}), is_pid(P)]),
    [out("STUCK ~ts ~ts", [name(P, ByPid), describe(P)]) || P <- [Runner | Members -- [Runner]]],
    {Generation, Turn, HasResult, Waiters} = tcs_gate:state(persistent_term:get(tcs_gate)),
    out("STUCK gate poke ~w, turn ~ts, result ~w, waiting ~ts",
        [Generation, name(Turn, ByPid), HasResult,
         lists:join(" ", [[name(P, ByPid), "@", integer_to_list(G)] || {P, G} <- Waiters])]),
    out("STUCK run queues (normal..., dirty CPU, dirty I/O) ~w, active ~w",
        [erlang:statistics(run_queue_lengths_all), erlang:statistics(active_tasks_all)]),
    out("TIMEOUT ~p", [Step]).

%% members(Leader): the processes of the job whose group leader is Leader
%% (tcs_batch gives each job its own), Leader itself left out.
members(Leader) ->
    [P || P <- processes(), P =/= Leader, erlang:process_info(P, group_leader) =:= {group_leader, Leader}].

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
