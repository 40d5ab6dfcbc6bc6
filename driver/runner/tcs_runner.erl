%% Replays one scenario plan on this node and prints what the tracer was
%% called with, one canonical line per callback.
%%
%% Usage: erl -noshell -pa DIR -run tcs_runner main JOB_FILE
%% (or run/2 from another module, which returns instead of halting: tcs_batch,
%% which also watches each step: tcs_watchdog).
%% The plan, the job file and the output (markers, stream lines, the progress
%% file) are specified in PROTOCOLS.md, sections 2, 4 and 5.  The step
%% modules (tcs_sessions, tcs_procflags, tcs_ports, tcs_seq, tcs_patterns) and
%% this one share tcs_runner_lib, a leaf: no module calls back into this one.
-module(tcs_runner).
-export([main/1, run/2, load_modules/0]).
-import(tcs_runner_lib, [out/1, out/2, out_after/2, ctl/4, canon/2, load_recorder/3, puppet_step/4, after_puppet_step/2]).

-define(TRACER_NAME, tracer).

main([JobFile]) ->
    run(JobFile, none),
    halt(0).

%% run(JobFile, Watcher): Watcher (tcs_watchdog:watcher/1, or none) is told
%% when a step takes more than twice the step timeout.
run(JobFile, Watcher) ->
    tcs_runner_lib:utf8_output(),
    out("OTP ~s", [erlang:system_info(otp_release)]),
    {ok, Job} = tcs_runner_lib:consult(JobFile),
    {ok, Plan} = tcs_runner_lib:consult(proplists:get_value(plan, Job)),
    ok = load_gate(proplists:get_value(gate_so, Job)),
    load_modules(),
    Gate = gate(),
    put(tcs_dead_puppets, []),
    Collector = spawn(fun() -> tcs_runner_lib:collect() end),
    %% The legacy tracer's state is a process of its own, so that a scenario
    %% can make it exit while the collector goes on: it hands what it receives
    %% (the example tracer's messages) to the collector; the recorder reports
    %% to the collector directly ('$collector').
    State = tcs_procflags:start_state(Collector, lists:member({match_binaries, true}, Plan)),
    Sessions = tcs_sessions:start(Plan, Job),
    {tracer, Kind, _Callbacks, Answers} = lists:keyfind(tracer, 1, Plan),
    TracerModule = load_tracer(Kind, Job, [{'$collector', Collector} | Answers] ++
                                              tcs_sessions:answer_tables(Sessions, Kind, Job)),
    ok = tcs_sessions:load_tracers(Sessions, TracerModule),
    {processes, Declared} = lists:keyfind(processes, 1, Plan),
    States = [{?TRACER_NAME, Collector} | tcs_sessions:states(Sessions)],
    %% The meta tracer's state is started now, with the tracer's: a harness
    %% process started by a later step would be born traced after a
    %% `trace new ...` step, and its events would reach the tracer.
    Meta = tcs_procflags:start_meta_state(Collector),
    Names0 = maps:from_list([{?TRACER_NAME, State}, {meta, Meta} | tcs_sessions:states(Sessions)] ++
                            [{N, start_puppet(N)} || N <- Declared]),
    %% What the legacy tracer module gets as its state: the case's term
    %% (STATE-ANY-TERM), or the state process.  The recorder reports to its
    %% collector ('$collector' above) whatever the state is.
    TracerState = case lists:keyfind(tracer_state, 1, Plan) of
                      {tracer_state, Term} -> resolve(Term, Names0);
                      false -> State
                  end,
    Ctx = #{gate => Gate, collector => Collector, tracer => TracerModule, state => State,
            tracer_state => TracerState,
            sessions => Sessions,
            drivers => filename:dirname(proplists:get_value(gate_so, Job)),  % tcs_drv.so (tcs_ports)
            timeout => proplists:get_value(step_timeout_ms, Job, 5000),
            watch => tcs_watchdog:watch(Watcher, 2 * proplists:get_value(step_timeout_ms, Job, 5000)),
            %% {step_lines, true}: the model says a node may crash in some step (C-92)
            step_lines => case lists:member({step_lines, true}, Plan) of true -> States; false -> [] end},
    %% Each step is settled after it runs; after a timed-out step nothing is
    %% settled, since the stuck process may never answer.
    settle(Names0),
    %% Every process of the node is watched by a large_heap system monitor a case sets: this
    %% one's heap, grown by loading the recorder (a fullsweep's old heap of 35462 to 46421
    %% words, reported at its next collection during the steps), is cut to what it holds (C-640)
    erlang:garbage_collect(),
    {Names, Watched} = run_steps([S || {step, _, _} = S <- Plan], Names0, Ctx, 0),
    %% The watch covers the collection, not the printing: a busy loop's tens of thousands of
    %% lines took a loaded node over the step limit to write (fuzz seed 9063 and 9064, OTP 29:
    %% a timeout in the shared node at io:put_chars, agreeing alone); the node's wall time
    %% still bounds it.
    Records = [{Name, collected(Pid)} || {Name, Pid} <- States],
    tcs_peer:stop(),
    tcs_watchdog:disarm(Ctx, Watched),
    print_records(Records, Names),
    tcs_procflags:close_tracer_port(Names),
    out("END").

%% Load every module the scenario processes run before they start: a
%% process that calls an unloaded module receives a code_server reply,
%% a message the scenario never sent.  The harness's own modules are
%% loaded too, so that no on_load pattern of a scenario applies to them
%% (a meta tracer sees the harness's calls too).  tcs_late is left for
%% the scenario to load.  tcs_batch loads them once for all its jobs.
%%
%% The library modules the harness or the node's own processes may load
%% while a case runs are loaded before it too (seed 20261206, P1): the
%% logger's report of a process killed at its max_heap_size loaded string
%% and unicode_util, a few steps after the kill; the code_server got the
%% loader's load_ok while `trace existing on all` had traced it, and the case
%% got its lines.  Measured by listing code:all_loaded() before and after
%% each step over the corpus on 27 and 29 (fuzz/FINDINGS.md, P1).
load_modules() ->
    [{module, M} = code:ensure_loaded(M) || M <- [tcs_peer, tcs_target, tcs_nif, tcs_shapes, tcs_direct, tcs_puppet, tcs_canon, tcs_patterns, timer,
                                                  tcs_settle, tcs_suspends, tcs_ports, tcs_seq, tcs_busy, tcs_readings, tcs_watchdog,
                                                  tcs_foreign, tcs_together | library_modules()]],
    ok.

%% What the node loads on demand: the logger's formatting of a report
%% (string, unicode_util, io_lib_pretty, epp), the extended error
%% information of a raise (erl_erts_errors, erl_kernel_errors), the
%% port driver loader (erl_ddll, erl_bits), seq_trace, and filelib
%% (tcs_runner_lib's recorder stub).
library_modules() ->
    [string, unicode_util, io_lib_pretty, epp, erl_erts_errors, erl_kernel_errors, erl_ddll, erl_bits,
     seq_trace, filelib].

%% The node's gate: made by its first job, kept by the later ones of a shared node
%% (tcs_batch).  A new gate each job replaced the persistent term, and the runtime
%% releases a replaced value's literal area when it gets to it, after thread progress
%% (erl_bif_persistent.c: table_deleter/1 on 25 and 27, persistent_term_destroy_node/1
%% on 29): the literal area collector then sends every process a copy request, and a
%% scenario process that gets one in a dirty NIF is scheduled out and in at the NIF on a
%% normal scheduler.  No wait of the harness bounds when that happens (the CI of the
%% 37th session: run_dirty_nif_io on 29, a second out/in pair in a shared node only,
%% after tcs_runner_lib:literals_released/0's wait for thread progress).  A job leaves
%% nothing in the gate that the next one reads: a step is given to a pid, give/3 drops
%% the last result, and a waiter counts only for its pid and the poke it waits in.
gate() ->
    case persistent_term:get(tcs_gate, none) of
        none ->
            Gate = tcs_gate:new(),
            persistent_term:put(tcs_gate, Gate),
            Gate;
        Gate ->
            Gate
    end.

%% The gate, and the NIF fixture's library beside it (tcs_nif); an earlier job in the same
%% node (tcs_batch) may have loaded them already.
load_gate(SoPath) ->
    Loaded = [tcs_gate:load(SoPath), tcs_nif:load(filename:join(filename:dirname(SoPath), "tcs_nif"))],
    case [R || R <- Loaded, R =/= ok, element(1, element(2, R)) =/= reload] of
        [] -> ok;
        Failed -> {error, Failed}
    end.

%% --- the tracer ------------------------------------------------------------

load_tracer(recorder, Job, Answers) ->
    Mod = proplists:get_value(tracer_module, Job),
    ok = load_recorder(Mod, proplists:get_value(tracer_so, Job), Answers),
    Mod;
load_tracer(process, _Job, _Answers) ->
    %% {tracer, <tracer>}: the state process itself gets the trace messages
    %% and hands them to the collector, which prints them as msg lines.
    process;
load_tracer(erl_msg_tracer, _Job, [{'$collector', _}]) ->
    %% The documentation's load/0 names its library without a directory: the
    %% driver puts that directory on LD_LIBRARY_PATH (Clarification C-4).
    ok = erl_msg_tracer:load(),
    erl_msg_tracer.

%% --- steps -----------------------------------------------------------------

start_puppet(Name) ->
    Pid = spawn(tcs_puppet, run, [Name]),
    erlang:monitor(process, Pid),
    Pid.

%% After the last step, the records of every event so far are awaited (a
%% slow tracer may still be between an enabled call and its trace call);
%% after a timed-out step they are not, since the stuck call may be one.
%% Each step, with its settling, is watched (tcs_watchdog); so is the
%% collection after the last one, as part of it.  Returns the names and the
%% watch on that collection.
run_steps([], Names, Ctx, Last) ->
    Watched = tcs_watchdog:arm(Ctx, Last, Names),
    delivered(Names),
    {Names, Watched};
run_steps([{step, N, {together}} | Rest], Names, Ctx, Last) ->
    %% a together block is one step of the harness's, numbered by its `together`, settled at its end
    {Block, [{step, _, {together_end}} | After]} = lists:splitwith(fun({step, _, S}) -> S =/= {together_end} end, Rest),
    run_steps([{step, N, {together, [S || {step, _, S} <- Block]}} | After], Names, Ctx, Last);
run_steps([{step, N, Step} | Rest], Names, Ctx, _) ->
    Watched = tcs_watchdog:arm(Ctx, N, Names),
    step_marker(N, Names, Ctx),
    tcs_busy:step_begins(),
    Ran = run_step(resolve(Step, Names), Names, Ctx#{step => N}),
    case Ran of
        {ok, Names1} -> settle(Names1);
        _ -> ok
    end,
    case Ran of
        {skip, _} -> ok;
        {_, Names3} -> tcs_procflags:sync_tracer_port(Names3, Ctx);
        timeout -> ok
    end,
    tcs_watchdog:disarm(Ctx, Watched),
    case Ran of
        {ok, Names2} -> run_steps(Rest, Names2, Ctx, N);
        {harness, Names2} ->
            %% A call by the harness only: no scenario process ran, none is
            %% woken (a woken process would be scheduled, which `running`
            %% tracing would see).
            run_steps(Rest, Names2, Ctx, N);
        {skip, Why} ->
            %% the case cannot run here (no peer node): no later step runs
            out("SKIP ~ts", [Why]),
            {Names, none};
        timeout ->
            %% the step's own wait for its process ran out (puppet_step): where each process
            %% of the job is, as the watchdog says it for a step that overran with its settling
            tcs_watchdog:report(self(), N, Names#{'(collector)' => maps:get(collector, Ctx)},
                                tcs_watchdog:members(group_leader()), {step, maps:get(timeout, Ctx)}),
            {Names, none}
    end.

run_step({trace, Who, How, Flags}, Names, #{collector := C, tracer := Mod, tracer_state := State}) ->
    Target = maps:get(Who, Names),
    %% a case that names a tracer ({tracer, recorder, S}, {tracer, lists, []}...) gets no other
    Named = [F || F <- Flags, is_tuple(F), tuple_size(F) > 0, element(1, F) =:= tracer],
    TracerFlags = case How of
                      true when Named =:= [] -> [tcs_runner_lib:tracer_option(Mod, tcs_runner_lib:tracer(State, Names))];
                      _ -> []
                  end,
    Real = [tcs_runner_lib:recorder_named(F, Mod) || F <- Flags],
    Outcome = outcome(fun() -> erlang:trace(Target, How, Real ++ TracerFlags) end),
    ctl(C, ["erlang:trace(", canon(Target, Names), ",", atom_to_list(How), ",",
            canon(Flags, Names), ")"], Outcome, Names),
    {ok, Names};
run_step(Step, Names, Ctx) when element(1, Step) =:= trace_spec; element(1, Step) =:= info;
                                element(1, Step) =:= tracer_exit; element(1, Step) =:= port_tracer;
                                element(1, Step) =:= kill_all ->
    tcs_procflags:run_step(Step, Names, Ctx);
run_step({session, Step}, Names, Ctx) ->
    tcs_sessions:run_step(Step, Names, Ctx);
run_step({pattern, Target, MS, Opts}, Names, #{collector := C, tracer := Mod}) ->
    {Outcome, Names1} = tcs_patterns:set(Target, MS, Opts, Names, Mod, C),
    ctl(C, pattern_call(Target, MS, Opts, Names1), Outcome, Names1),
    {ok, Names1};
run_step({pattern, Target, restart, Opts, Rounds}, Names, #{collector := C, tracer := Mod, step := N} = Ctx) ->
    %% `pattern ... restart ... rounds N` (PATTERN-RESTART-ROUNDS): N calls back to back, each
    %% watched like a step of its own; one control line when every call answered alike (as the
    %% model says they do), else one with each answer
    Answers = tcs_watchdog:each(Ctx, N, Names, fun() -> element(1, tcs_patterns:set(Target, restart, Opts, Names, Mod, C)) end,
                                Rounds),
    Outcome = case lists:usort(Answers) of
                  [Alike] -> Alike;
                  Unlike -> {placeholder, ["rounds answered unlike: ", io_lib:format("~0p", [Unlike])]}
              end,
    ctl(C, pattern_call(Target, restart, Opts, Names), Outcome, Names),
    {ok, Names};
run_step({Spawn, Who, Child}, Names, Ctx) when Spawn =:= spawn; Spawn =:= spawn_link ->
    spawned(Child, puppet_step(Who, {Spawn, Child}, Names, Ctx), Names);
run_step({Spawn, Who, Child, peer}, Names, Ctx) when Spawn =:= spawn; Spawn =:= spawn_link ->
    %% `P spawn R peer`: P spawns R on the case's peer node (DIST-SPAWN), a process there that does
    %% the steps the harness hands it, as one of `peer R`; a node that cannot be had skips the case
    case tcs_peer:peer_node() of
        {ok, Node} -> spawned(Child, puppet_step(Who, {Spawn, Node, tcs_peer, remote, [Child]}, Names, Ctx), Names);
        {error, Why} -> {skip, Why}
    end;
run_step({Spawn, Who, Child, {options, Opts}}, Names, Ctx) when Spawn =:= spawn; Spawn =:= spawn_link ->
    spawned(Child, puppet_step(Who, {Spawn, Child, Opts}, Names, Ctx), Names);
run_step({Spawn, Who, Child, Fun}, Names, Ctx) when is_function(Fun), Spawn =:= spawn; is_function(Fun), Spawn =:= spawn_link ->
    spawned(Child, puppet_step(Who, {Spawn, Fun}, Names, Ctx), Names);
run_step({Spawn, Who, Child, {M, F, Args}}, Names, Ctx) when Spawn =:= spawn; Spawn =:= spawn_link ->
    spawned(Child, puppet_step(Who, {Spawn, M, F, Args}, Names, Ctx), Names);
run_step({Spawn, Who, Child, {M, F, Args}, MaxHeap}, Names, Ctx) when Spawn =:= spawn; Spawn =:= spawn_link ->
    spawned(Child, puppet_step(Who, {Spawn, M, F, Args, MaxHeap}, Names, Ctx), Names);
run_step(Step, Names, Ctx) when element(1, Step) =:= open_port; element(1, Step) =:= port_command;
                                element(1, Step) =:= port_send; element(1, Step) =:= port_close;
                                element(1, Step) =:= port_control;
                                tuple_size(Step) =:= 4, element(1, Step) =:= register ->
    tcs_ports:run_step(Step, Names, Ctx);
run_step({Op, _, Other} = Step, Names, Ctx) when (Op =:= link orelse Op =:= unlink),
                                                 is_port(map_get(Other, Names)) ->
    tcs_ports:run_step(Step, Names, Ctx);
run_step({seq_tracer, tracer}, Names, Ctx) ->
    tcs_seq:tracer(Names, Ctx);
run_step({tracer_unload, recorder}, Names, #{collector := C, tracer := Mod}) ->
    %% as tracer_SUITE's purge/0; the recorder is loaded again on demand (its
    %% beam is on the code path: tcs_runner_lib:load_recorder/3)
    code:purge(Mod),
    Deleted = code:delete(Mod),
    code:purge(Mod),
    tcs_runner_lib:literals_released(),
    ctl(C, "code:delete(recorder)", {ok, Deleted}, Names),
    {harness, Names};
run_step({tracer_reload, recorder}, Names, #{collector := C, tracer := Mod}) ->
    %% as tracer_SUITE's reload/1: a new instance from the beam on the code path
    Loaded = case code:load_file(Mod) of {module, Mod} -> {module, recorder}; Other -> Other end,
    ctl(C, "code:load_file(recorder)", {ok, Loaded}, Names),
    {harness, Names};
run_step({tracer_reload_busy, recorder, Who, Call}, Names, Ctx) ->
    %% one round of tracer_SUITE's reload/1: reload, trace_info, delete while Who
    %% calls a traced function again and again (tcs_busy)
    Round = [{tracer_reload, recorder}, {info, Who, tracer}, {tracer_unload, recorder}],
    case tcs_busy:round(maps:get(Who, Names), Call, Ctx, fun() -> [run_step(S, Names, Ctx) || S <- Round] end) of
        ok -> {harness, Names};
        timeout -> timeout
    end;
run_step({loop, Who, Call}, Names, Ctx) ->
    %% `A loop M:F(Args)`: A loops through its calls until `A idle`, across the
    %% steps between (CALL-BUSY-LOOP)
    case tcs_busy:start(maps:get(Who, Names), Call, Ctx) of
        ok -> {harness, Names};
        timeout -> timeout
    end;
run_step({idle, Who}, Names, Ctx) ->
    case tcs_busy:stop(maps:get(Who, Names), Ctx) of
        ok -> {harness, Names};
        timeout -> timeout
    end;
run_step({wait, Who, Ms, Sender, Msg}, Names, #{timeout := Timeout} = Ctx) ->
    %% `A wait MS while B sends T` (RECV-TIMED-WAIT): B sends once A waits, and A is asked
    %% nothing until it is back in the gate: a question makes OTP 25 handle A's messages, and
    %% trace their receipt, before the wait ends (C-490)
    %% The wait's timer starts after A has the step, so a message sent (and so in A's signal
    %% queue) less than MS after Asked is there before the timer fires; from OTP 27 on A receives
    %% it when it is next scheduled, which may still come after the timer (C-760, predicted: no
    %% margin here could rule that out).  A send later than that,
    %% on a machine too slow for the step, may arrive after it: LATE says so, and the step ends
    %% as a timeout rather than as a difference the scenario does not make.
    %% Measured in native units: in milliseconds, both readings truncated, a send up to 1 ms
    %% after the timer fired could count as in time (Elapsed 249 for 250.9 ms).
    Waiter = maps:get(Who, Names),
    Asked = erlang:monotonic_time(),
    case puppet_step(Who, {wait, Ms}, Names, Ctx) of
        {done, waiting} ->
            tcs_settle:until_blocked(Waiter),
            Sent = puppet_step(Sender, {send, Waiter, Msg}, Names, Ctx),
            Elapsed = erlang:monotonic_time() - Asked,
            InTime = Elapsed < erlang:convert_time_unit(Ms, millisecond, native),
            case Sent =/= timeout andalso InTime andalso tcs_settle:until_in_gate(Waiter, Ms + Timeout) of
                true -> {ok, Names};
                false when Sent =/= timeout, not InTime ->
                    out("LATE ~p ~p", [Ms, erlang:convert_time_unit(Elapsed, native, millisecond)]), timeout;
                false -> timeout
            end;
        Other -> after_puppet_step(Other, Names)
    end;
run_step({Op, Who}, Names, #{collector := C}) when Op =:= suspend; Op =:= resume ->
    %% `suspend A`, `resume A`: erlang:suspend_process/1, resume_process/1 from the harness
    %% (SUSPEND-*); the settle after it asks A its message_queue_len like any puppet (C-491)
    Pid = maps:get(Who, Names),
    Bif = list_to_atom(atom_to_list(Op) ++ "_process"),
    Outcome = outcome(fun() -> erlang:Bif(Pid) end),
    ctl(C, ["erlang:", atom_to_list(Bif), "(", canon(Pid, Names), ")"], Outcome, Names),
    tcs_suspends:called(Bif, self(), Pid, Outcome),
    {ok, Names};
run_step({Op, Who, Other}, Names, #{collector := C} = Ctx) when Op =:= proc_suspend; Op =:= proc_resume ->
    %% `P suspend Q`, `P resume Q`: P calls erlang:suspend_process(Q), resume_process(Q)
    %% (SUSPEND-BY-PROCESS); its answer, or what it raised, is the step's control line
    Pid = maps:get(Other, Names),
    Bif = case Op of proc_suspend -> suspend_process; proc_resume -> resume_process end,
    case puppet_step(Who, {suspend_call, Bif, Pid}, Names, Ctx) of
        {done, {ok, Outcome}} ->
            ctl(C, ["<", atom_to_list(Who), "> erlang:", atom_to_list(Bif), "(", canon(Pid, Names), ")"], Outcome, Names),
            tcs_suspends:called(Bif, maps:get(Who, Names), Pid, Outcome),
            {ok, Names};
        Ran -> after_puppet_step(Ran, Names)
    end;
run_step({peer, Name}, Names, _Ctx) ->
    %% `peer R`: a process R on the case's peer node (DIST-PEER); a node that cannot be had
    %% skips the case, saying why
    case tcs_peer:start(Name) of
        {ok, Pid} -> {ok, Names#{Name => Pid}};
        {error, Why} -> {skip, Why}
    end;
run_step({peer_seq_tracer, Name}, Names, #{collector := C}) ->
    %% `seq_trace tracer peer T`: a process T on the peer node becomes that node's system seq
    %% tracer and hands on what it gets (DIST-SEQ-TRACER); its call is its own step's
    case tcs_peer:seq_tracer(Name, C) of
        {ok, Pid, Answer} ->
            Names1 = Names#{Name => Pid},
            ctl(C, ["<", atom_to_list(Name), "> seq_trace:set_system_tracer(", canon(Pid, Names1), ")"],
                {ok, Answer}, Names1),
            {ok, Names1};
        {error, Why} -> {skip, Why}
    end;
run_step(Step, Names, #{timeout := Timeout}) when is_tuple(Step), tuple_size(Step) >= 2,
                                                  is_pid(map_get(element(2, Step), Names)),
                                                  node(map_get(element(2, Step), Names)) =/= node() ->
    %% a step of the process on the peer node (DIST-RECEIVE, DIST-LINK, DIST-EXIT)
    {Who, Action} = action(Step, Names),
    case tcs_peer:step(maps:get(Who, Names), Action, Timeout) of
        ok -> {ok, Names};
        timeout -> timeout
    end;
run_step({suspend, Who, Opts}, Names, #{collector := C}) ->
    %% `suspend A Opts`: erlang:suspend_process/2 from the harness (SUSPEND-UNLESS-SUSPENDING,
    %% SUSPEND-OPTS-BADARG); the model refuses the asynchronous options (C-550)
    Pid = maps:get(Who, Names),
    Outcome = outcome(fun() -> erlang:suspend_process(Pid, Opts) end),
    ctl(C, ["erlang:suspend_process(", canon(Pid, Names), ",", canon(Opts, Names), ")"], Outcome, Names),
    tcs_suspends:called(suspend_process, self(), Pid, Outcome),
    {ok, Names};
run_step({status, Who}, Names, #{collector := C}) ->
    %% `status A`: process_info(A, status), read by the harness (SUSPEND-STATUS)
    Pid = maps:get(Who, Names),
    ctl(C, ["erlang:process_info(", canon(Pid, Names), ",status)"], {ok, erlang:process_info(Pid, status)}, Names),
    {harness, Names};
run_step({start_timer, Who, Ms}, Names, #{collector := C}) ->
    %% `start_timer A MS`: a BIF timer to A's pid, kept in the harness for `cancel_timer A` (TIMER-START)
    Pid = maps:get(Who, Names),
    Timer = erlang:start_timer(Ms, Pid, tcs_timer),
    put({tcs_timer, Who}, Timer),
    ctl(C, ["erlang:start_timer(", integer_to_list(Ms), ",", canon(Pid, Names), ",tcs_timer)"], {ok, Timer}, Names),
    {harness, Names};
run_step({cancel_timer, Who}, Names, #{collector := C}) ->
    %% `cancel_timer A`: erlang:cancel_timer/1 of A's timer; the time it had left varies from run
    %% to run, printed _Ms (TIMER-CANCEL; false when the timer was not found: C-660)
    Left = erlang:cancel_timer(erase({tcs_timer, Who})),
    Answer = case is_integer(Left) of true -> {placeholder, "_Ms"}; false -> {ok, Left} end,
    ctl(C, "erlang:cancel_timer(_Ref)", Answer, Names),
    {harness, Names};
run_step({module_unload, Mod}, Names, #{collector := C}) ->
    %% as trace_session_SUITE's on_load/1 (delete + purge): the module's next call
    %% loads it again; the purge before drops old code a delete would refuse
    code:purge(Mod),
    Deleted = code:delete(Mod),
    code:purge(Mod),
    tcs_runner_lib:literals_released(),  % its copy requests during this step
    ctl(C, ["code:delete(", atom_to_list(Mod), ")"], {ok, Deleted}, Names),
    {harness, Names};
run_step({module_load, Mod}, Names, #{collector := C}) ->
    %% a new version from the beam on the code path, as trace_pattern/3 users meet it in code
    %% upgrades: the current version becomes old (CALL-RELOAD-NEW-INSTANCE), or, with old code
    %% left by the last load, {error,not_purged} (CALL-RELOAD-NOT-PURGED)
    ctl(C, ["code:load_file(", atom_to_list(Mod), ")"], {ok, code:load_file(Mod)}, Names),
    {harness, Names};
run_step({reading, Name, Step}, Names, Ctx) ->
    %% a named call_time or call_memory reading: its answer is kept for the
    %% relation steps that name it (its control line as the step's own)
    erase(tcs_last_answer),
    Result = run_step(Step, Names, Ctx),
    put({tcs_reading, Name}, get(tcs_last_answer)),
    Result;
run_step({relation, X, Op, Y}, Names, #{collector := C}) ->
    Holds = tcs_readings:relation(get({tcs_reading, X}), Op, get({tcs_reading, Y})),
    ctl(C, io_lib:format("tcs_readings:relation(~w,~w,~w)", [X, Op, Y]), {ok, Holds}, Names),
    {harness, Names};
run_step({system_monitor, legacy}, Names, #{collector := C}) ->
    %% as trace_session_SUITE's system_monitor_info/1: the node's legacy system
    %% monitor, which no session's trace:system/3 sets
    ctl(C, "erlang:system_monitor()", {ok, erlang:system_monitor()}, Names),
    {harness, Names};
run_step({system_monitor, undefined}, Names, #{collector := C}) ->
    monitor_messages_delivered(),
    ctl(C, "erlang:system_monitor(undefined)", {ok, erlang:system_monitor(undefined)}, Names),
    {harness, Names};
run_step({system_monitor, Who, Event, Limit}, Names, #{collector := C}) ->
    %% `system_monitor P large_heap N` or `long_schedule N`: the node's legacy system monitor, P
    %% getting its messages (SYSMON-LEGACY-SET); tcs_batch clears it after the job
    Pid = maps:get(Who, Names),
    Options = [{Event, Limit}],
    monitor_messages_delivered(),
    ctl(C, ["erlang:system_monitor(", canon(Pid, Names), ",", canon(Options, Names), ")"],
        outcome(fun() -> erlang:system_monitor(Pid, Options) end), Names),
    {harness, Names};
run_step({together, Steps}, Names, Ctx) ->
    %% `together ... end`: each process does its steps of the block, all at once (BLOCK-TOGETHER)
    tcs_together:run([action(S, Names) || S <- Steps], Names, Ctx);
run_step(Step, Names, Ctx) ->
    {Who, Action} = action(Step, Names),
    after_puppet_step(puppet_step(Who, Action, Names, Ctx), Names).

%% The runtime's system message dispatcher sends a monitor message to the monitor set when it
%% dispatches it, and drops it when none is (erl_trace.c, sys_msg_dispatcher_func): before the
%% harness changes the legacy monitor, those of the steps before are delivered, as trace_SUITE's
%% large_heap/2 awaits erlang:trace_delivered/1 before it restores the monitor (a message
%% missing once in 5 shared-node runs on 25 without it).
monitor_messages_delivered() ->
    tcs_settle:trace_delivered().

%% A spawned process is watched like a declared one (settle/1 awaits its death).
spawned(Child, {done, {ok, Pid}}, Names) ->
    erlang:monitor(process, Pid),
    {ok, Names#{Child => Pid}};
spawned(_Child, Other, Names) -> after_puppet_step(Other, Names).

%% The control line's call of a pattern step, restart rounds too.
pattern_call(Target, MS, Opts, Names) ->
    ["erlang:trace_pattern(", canon(Target, Names), ",", canon(MS, Names), ",", canon(Opts, Names), ")"].

%% The action a scenario process does for a step, with names made pids.
action({send, Who, To, Msg}, Names) -> {Who, {send, maps:get(To, Names), Msg}};
action({link, Who, Other}, Names) -> {Who, {link, maps:get(Other, Names)}};
action({unlink, Who, Other}, Names) -> {Who, {unlink, maps:get(Other, Names)}};
action({recv, Who, Timeout}, _) -> {Who, {recv, Timeout}}; % Timeout or {match, T}
action({call, Who, M, F, Args}, _) -> {Who, {call, M, F, Args}};
action({call, Who, M, F, Args, direct}, _) -> {Who, {call_direct, M, F, Args}};
action({call, Who, M, F, Args, 'fun'}, _) -> {Who, {call_fun, M, F, Args}};
action({register, Who, Name}, _) -> {Who, {register, Name}};
action({unregister, Who, Name}, _) -> {Who, {unregister, Name}};
action({exit, Who, Reason}, _) -> {Who, {exit, Reason}};
action({kill, Who, Other, Reason}, Names) -> {Who, {kill, maps:get(Other, Names), Reason}};
action({trap_exit, Who, Bool}, _) -> {Who, {trap_exit, Bool}};
action({monitor, Who, Other}, Names) -> {Who, {monitor, maps:get(Other, Names)}};
action({send_name, Who, Name, Msg}, _) -> {Who, {send, Name, Msg}};
action({gc, Who, major}, _) -> {Who, {call, erlang, garbage_collect, []}};
action({ms_test, Who, Args, MS}, _) -> {Who, {match_spec_test, Args, MS, trace}};
action({proc_pattern, Who, Target, MS, Opts}, _) -> {Who, {pattern, Target, MS, Opts}};
action({gc, Who, minor}, Names) ->
    {Who, {call, erlang, garbage_collect, [maps:get(Who, Names), [{type, minor}]]}};
action(Step, _) -> tcs_seq:action(Step).

outcome(Fun) ->
    try {ok, Fun()}
    catch Class:Reason -> {raised, Class, Reason}
    end.

%% Replace {'$tcs_pid', Name} and the acting names by real pids, and make the
%% funs ({'$tcs_fun', Body}), fresh references ({'$tcs_ref'}) and long terms
%% ({'$tcs_duplicate', N, T}, {'$tcs_binary_copy', B, N}) a case wrote.
resolve({'$tcs_pid', Name}, Names) -> maps:get(Name, Names);
resolve({'$tcs_fun', Body}, Names) -> tcs_canon:constant_fun(resolve(Body, Names));
resolve({'$tcs_ref'}, _) -> make_ref();
resolve({'$tcs_duplicate', N, T}, Names) -> lists:duplicate(N, resolve(T, Names));
resolve({'$tcs_binary_copy', B, N}, _) -> binary:copy(<<B>>, N);
resolve({'$tcs_atomics'}, _) -> tcs_foreign:atomics_ref();
resolve({'$tcs_external', pid}, _) -> tcs_foreign:external_pid();
resolve({'$tcs_external', port}, _) -> tcs_foreign:external_port();
resolve(T, Names) when is_tuple(T) -> list_to_tuple(resolve(tuple_to_list(T), Names));
resolve([H | T], Names) -> [resolve(H, Names) | resolve(T, Names)];
resolve(M, Names) when is_map(M) -> maps:from_list(resolve(maps:to_list(M), Names));
resolve(T, _) -> T.

%% After a step, every consequence must have happened before the next one:
%% let waiting processes see pending exit signals (poke), make each live one
%% handle its signal queue (process_info is a signal, answered in order), and
%% wait for the processes that die to be gone.  Repeat until nothing changes.
%% Each death is collected once (its 'DOWN'), also that of a process which
%% died during the step itself, so that the ports closing with it are awaited.
settle(Names) ->
    Gate = persistent_term:get(tcs_gate),
    Pids = [P || {N, P} <- maps:to_list(Names), N =/= ?TRACER_NAME, N =/= meta, is_pid(P)],
    {Puppets, Remotes} = lists:partition(fun(P) -> node(P) =:= node() end, Pids),
    %% a busy loop never waits in the gate (tcs_busy): it is settled at its `idle`
    settle(Gate, Puppets -- (get(tcs_dead_puppets) ++ tcs_busy:spinning())),
    %% a process of the peer node that died sent exit signals back: settled again after them
    case Remotes =/= [] andalso tcs_peer:sync(Remotes, Puppets -- get(tcs_dead_puppets)) of
        true -> settle(Names);
        false -> ok
    end.

settle(Gate, Alive) ->
    %% a puppet killed in the gate's dirty NIF has its exit signal handled
    %% there (RUN-KILLED-DIRTY-OUT) before the poke lets it out: woken first,
    %% it would be scheduled in untraced and exit without in_exiting
    [erlang:process_info(P, message_queue_len) || P <- Alive, tcs_gate:waiting(Gate, P)],
    ok = tcs_gate:poke(Gate),
    [erlang:process_info(P, message_queue_len) || P <- Alive],
    Dead = [P || P <- Alive, not is_process_alive(P)],
    Deaths = [receive {'DOWN', _, process, P, Reason} -> {P, Reason} end || P <- Dead],
    put(tcs_dead_puppets, Dead ++ get(tcs_dead_puppets)),
    %% a dead suspender's suspends are lifted (SUSPEND-SUSPENDER-EXIT): its suspendees run again
    tcs_suspends:exited(Dead),
    %% a port that stays open against the rule shows up as a difference
    _ = tcs_ports:deaths(Deaths, 1000),
    case Dead of
        [] -> tcs_settle:until_idle(Alive);
        _ -> settle(Gate, Alive -- Dead)
    end.

%% --- collecting and printing ------------------------------------------------

%% What a tracer state process (tcs_runner_lib:collect/0) kept.
collected(Collector) ->
    Collector ! {collected, self()},
    receive {records, Records} -> Records end.

%% ... and what it got since the last peek, while it goes on.
peek(Collector) ->
    Collector ! {'$tcs_peek', self()},
    receive {records, Records} -> Records end.

%% The marker of step N.  With the plan's {step_lines, true} the stream lines
%% of the steps before N, those not written yet, go first into the progress
%% file, in the same write: a node that dies then has left exactly the lines
%% of the steps before the last one it started (PROTOCOLS.md, section 5).
step_marker(N, _Names, #{step_lines := []}) ->
    out("STEP ~p", [N]);
step_marker(N, Names, #{step_lines := States}) ->
    delivered(Names),
    out_after(record_lines([{Name, peek(Pid)} || {Name, Pid} <- States], Names), io_lib:format("STEP ~p", [N])).

%% Every event so far has reached the collectors: its trace message or callback record is
%% delivered (tcs_settle:trace_delivered/0), and what went to a state process that hands it on
%% (the tracer process <tracer>, the meta tracer process <meta>) has been handed on.
delivered(Names) ->
    tcs_settle:trace_delivered(),
    tcs_settle:until_handed_on([P || N <- [?TRACER_NAME, meta], P <- [maps:get(N, Names, none)], is_pid(P)]).

%% What every tracer state process received, in one order: callback records
%% by the recorder's sequence number (the order in which the runtime called
%% the tracers, whichever process it called them from), control lines by the
%% number the harness gave them, and any other message (one a tracer sent) by
%% its arrival.  All come from one counter.
print_records(PerState, Names) ->
    put_lines(record_lines(PerState, Names)).

%% 500 lines an I/O request: with one request a line (each a message to the
%% job's group leader proxy and on), a busy loop's 30,000 lines took 125 ms to
%% print, 37 ms so (OTP 25, output to /dev/null, 3 runs).
put_lines([]) -> ok;
put_lines(Bodies) ->
    {Now, Later} = lists:split(min(500, length(Bodies)), Bodies),
    io:put_chars([["TCS LINE ", Body, "\n"] || Body <- Now]),
    put_lines(Later).

%% The stream line bodies of the records, in print_records/2's order.
record_lines(PerState, Names) ->
    Items = [{order(Arrived, Item), State, Item} || {State, Items} <- PerState,
                                                    {Arrived, Item} <- Items],
    [item_line(State, Item, Names) || {_, State, Item} <- lists:keysort(1, Items)].

order(_, {tcs_rec, Seq, _, _, _}) -> Seq;
order(_, {ctl, Seq, _}) -> Seq;
order(Arrived, _) -> Arrived.

%% A line's body is the canonical text as it is (chardata, which the output and the progress file
%% take as it comes): flattened by io_lib:format/2's ~ts first, a callback line took twice as long
%% (9.3 us against 3.8 on 29), and a job's lines were most of the node's time after its steps.
item_line(_, {tcs_rec, _, _, _, _} = Rec, Names) -> callback_line(Rec, Names);
item_line(_, {ctl, _, Body}, _) -> Body;
item_line(_, {Port, {written, Output}}, #{tracer_port := Port} = Names) ->
    ["msg(", canon(Port, Names), ", ", canon(Output, Names), ")"];
item_line(_, {'$tcs_via', State, Msg}, Names) -> item_line(State, Msg, Names);
item_line(State, Msg, Names) -> [io_lib:format("msg(<~s>, ", [State]), canon(sizes_hidden(Msg), Names), ")"].

%% A system monitor message's sizes and times no model predicts: they print as _Info.
sizes_hidden({monitor, Who, Event, Info}) when is_list(Info) ->
    {monitor, Who, Event, {'$tcs_placeholder', "_Info"}};
sizes_hidden(Msg) -> Msg.

callback_line({tcs_rec, _Seq, Callback, Args, Result}, Names) ->
    ArgText = lists:join(", ", [canon(A, Names) || A <- Args]),
    case length(Args) of
        3 -> [atom_to_list(Callback), "(", ArgText, ") -> ", canon(Result, Names)];
        5 -> [atom_to_list(Callback), "(", ArgText, ")"]
    end.
