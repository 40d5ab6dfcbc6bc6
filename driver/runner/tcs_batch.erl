%% Runs several tcs_runner jobs, one after another, in one node: starting a
%% node costs more than most cases take, and a release in a Debian root
%% costs more than the host's.
%%
%% Usage: erl -noshell -pa DIR -run tcs_batch main JOB_FILE...
%% Output: "TCS JOB I" before the I-th job (from 1), then what tcs_runner
%% prints for it, and "TCS BATCH END" once every job has run (PROTOCOLS.md,
%% section 5).
%%
%% Isolation.  Each job runs in a fresh process whose group leader is a proxy
%% of its own, so every process the job starts (collector, scenario processes
%% and their children) is found and killed afterwards.  Then everything a job
%% can leave in the node is undone: ports it opened (also those unlinked from
%% their owner), trace flags on all processes and ports,
%% the defaults for new ones and the node's cpu_timestamp flag, call trace
%% patterns of every kind (and on_load ones), send/receive match
%% specifications, the system seq tracer, the trace control word, the fixture module tcs_late, trace sessions
%% made since the batch began, and the tracer modules (the legacy one and the
%% trace sessions' recorders) with their NIF libraries (so
%% that the next job loads its own, with its own answers); the next job starts
%% once the runtime has released those modules' literals (tcs_runner_lib:literals_released/0)
%% and the trace cleaner has taken the ended sessions off every process
%% (tcs_runner_lib:trace_cleaner_idle/1).  The driver does
%% not rely on this alone: a job that crashes or hangs ends the node, and any
%% case that disagrees in a shared node is replayed in a fresh one.
-module(tcs_batch).
-export([main/1]).

main(JobFiles) ->
    Sessions = sessions(),
    true = register(?MODULE, self()),  % the jobs' step watcher (tcs_watchdog:watcher/1)
    %% loaded before the first job, so that no job counts them as fixtures it
    %% loaded (unload_fixtures/1): each job would purge and reload them
    tcs_runner:load_modules(),
    put(tcs_batch_ports, erlang:ports()),
    %% the trace cleaner's stack while it has nothing to do (no job has ended a session yet)
    put(tcs_trace_cleaner_stack, tcs_runner_lib:trace_cleaner_stack()),
    %% the jobs' names as binaries, a few words each on this process's heap (C-640)
    run([list_to_binary(F) || F <- JobFiles], 1, Sessions),
    io:put_chars("TCS BATCH END\n"),
    halt(0).

run([], _, _) -> ok;
run([JobFile | Rest], Index, Sessions) ->
    tcs_runner_lib:out(io_lib:format("JOB ~p", [Index])),
    %% A large_heap system monitor a case sets watches this process too: a collection while
    %% the job runs (a code purge's) reported 225340 words of the jobs' names and of the last
    %% clean-up, on 29; cut to what it holds before each job (C-640)
    erlang:garbage_collect(),
    run_isolated(JobFile),
    close_ports(get(tcs_batch_ports)),
    clean(JobFile, Sessions),
    unload_fixtures(),
    tcs_runner_lib:literals_released(),
    tcs_runner_lib:trace_cleaner_idle(get(tcs_trace_cleaner_stack)),
    run(Rest, Index + 1, Sessions).

%% A job that raises ends the node, like it does when it runs alone: the
%% driver sees the job end without "TCS END" and reports a crash.  A job
%% whose step overruns (tcs_watchdog) ends it too, once its processes have
%% been reported: the driver sees the TIMEOUT marker.
run_isolated(JobFile) ->
    Leader = spawn(fun() -> forward_io(group_leader()) end),
    Watcher = tcs_watchdog:watcher(?MODULE),
    {Job, Ref} = spawn_monitor(fun() ->
                                       group_leader(Leader, self()),
                                       tcs_runner:run(JobFile, Watcher)
                               end),
    await_job(JobFile, Job, Ref, Leader, Watcher),
    kill_group(Leader),
    exit(Leader, kill).

%% A timer whose step has ended (the step ended as it fired, or its
%% cancellation was lost: tcs_watchdog) is dropped at once, so that none
%% stays in this process's mailbox, which the node's `long_message_queue`
%% monitoring sees like any other.
await_job(JobFile, Job, Ref, Leader, Watcher) ->
    receive
        {'DOWN', Ref, process, Job, normal} -> ok;
        {'DOWN', Ref, process, Job, Reason} ->
            io:format("job ~s failed: ~p~n", [JobFile, Reason]),
            halt(3);
        {timeout, _, Overrun} ->
            case tcs_watchdog:overrun(Watcher, Overrun) of
                {Job, Step, Names, Limit} ->
                    tcs_watchdog:report(Job, Step, Names, tcs_watchdog:members(Leader), {settled, Limit}),
                    halt(3);
                _ -> await_job(JobFile, Job, Ref, Leader, Watcher)
            end
    end.

%% An I/O request names its sender, and the real group leader answers it there.
forward_io(Real) ->
    receive Request -> Real ! Request end,
    forward_io(Real).

%% Kills every process of the job.  A scenario process killed while it waits
%% in the gate's dirty NIF is gone at once, but the NIF call goes on holding a
%% dirty I/O scheduler until the gate is poked: without the poke, each job
%% would leave its waiting processes' schedulers blocked for good, until no
%% scenario process could wait any more (seen: step timeouts, then
%% trace_pattern/3 never returning).
kill_group(Leader) ->
    Members = tcs_watchdog:members(Leader),
    Refs = [erlang:monitor(process, P) || P <- Members],
    [exit(P, kill) || P <- Members],
    tcs_gate:poke(persistent_term:get(tcs_gate)),
    await_down(Refs),
    tcs_gate:poke(persistent_term:get(tcs_gate)).

await_down([]) -> ok;
await_down([Ref | Rest] = Refs) ->
    receive {'DOWN', Ref, process, _, _} -> await_down(Rest)
    after 10 ->
            tcs_gate:poke(persistent_term:get(tcs_gate)),
            await_down(Refs)
    end.

%% A port closes with its owner only through their link: one the job unlinked
%% from its owner outlives the job's processes, so every port the batch did
%% not start with is closed.
close_ports(Before) ->
    [catch erlang:port_close(P) || P <- erlang:ports() -- Before],
    ok.

clean(JobFile, Sessions) ->
    %% `all` clears every flag of every process and port and the defaults for
    %% new ones, but not the node-wide cpu_timestamp (it is no flag of `all`).
    erlang:trace(all, false, [all]),
    erlang:trace(all, false, [cpu_timestamp]),
    [clear_patterns(What) || What <- [{'_', '_', '_'}, on_load]],
    erlang:trace_pattern(send, true, []),
    erlang:trace_pattern('receive', true, []),
    seq_trace:set_system_tracer(false),
    %% the legacy system monitor a case set (`system_monitor P large_heap N`)
    erlang:system_monitor(undefined),
    %% the trace control word, which match specs read and write (get_tcw, set_tcw)
    erlang:system_flag(trace_control_word, 0),
    %% a case's peer node ended with its processes; the node is made distributed only for
    %% the cases that need it (tcs_peer)
    _ = net_kernel:stop(),
    [catch trace:session_destroy(S) || Sessions =/= none, S <- trace:session_info(all) -- Sessions],
    {ok, Job} = tcs_runner_lib:consult(JobFile),
    %% the legacy tracer module and the recorders of the job's trace sessions
    Tracers = [proplists:get_value(tracer_module, Job)
               | [Mod || {_, Mod, _} <- proplists:get_value(session_tracers, Job, [])]],
    [begin code:purge(T), code:delete(T), code:purge(T) end || T <- lists:usort(Tracers)],
    ok.

%% Every kind of call trace pattern off, in two calls (as dbg:ctp/1 and ctpg/1
%% do): each call waits for every scheduler to pass a code barrier; one call
%% per kind (twelve) took 0.7 to 1.3 ms of wall time per job, 0.3 to 1 ms of
%% CPU, two per target 0.4 to 0.6 ms and 0.2 ms.  call_memory is OTP 26's:
%% before, the list without it.
clear_patterns(What) ->
    erlang:trace_pattern(What, false, [global]),
    try erlang:trace_pattern(What, false, [local, meta, call_count, call_time, call_memory])
    catch error:badarg -> erlang:trace_pattern(What, false, [local, meta, call_count, call_time])
    end,
    ok.

%% The fixture module a scenario loads by calling it (tcs_late, which
%% on_load patterns catch when it loads) is unloaded, so that the next job
%% loads it afresh as it would in a node of its own.  The runner's own
%% modules stay loaded: unloaded, they were read from disk again by the next
%% job, so a build that replaced the beams while a campaign ran gave the
%% node's later jobs a mix of two versions of the harness (a case that
%% disagrees in a shared node and agrees alone).
unload_fixtures() ->
    [begin code:purge(M), code:delete(M), code:purge(M) end
     || M <- [tcs_late], code:is_loaded(M) =/= false].

%% The trace sessions that exist when the batch begins; `none` before OTP 27,
%% which has no trace module.  Asked once: each job's code:ensure_loaded/1 of
%% the missing module searched the code path again, 1 ms a job on OTP 25.
sessions() ->
    case code:ensure_loaded(trace) of
        {module, trace} -> trace:session_info(all);
        {error, _} -> none
    end.
