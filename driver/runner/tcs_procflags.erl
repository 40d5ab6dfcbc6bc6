%% Steps about process trace flags and the tracer's status (cases/README.md):
%% erlang:trace/3 on a process spec (all, existing, new, ...), erlang:trace_info/2,
%% and the tracer state process exiting.  tcs_runner dispatches them here.
-module(tcs_procflags).
-export([start_state/2, start_meta_state/1, run_step/3, sync_tracer_port/2, close_tracer_port/1]).

%% What the harness writes to the tracer port to know that cat has handed back
%% everything written before it: no trace message begins so (the external
%% term format begins with 131).
-define(SYNC, <<"tcs sync">>).

%% start_state(Collector, MatchBinaries): the legacy tracer's state process <tracer>.  It hands
%% every message it gets (the example tracer's {trace, Tracee, Recipient}) to the collector,
%% and exits when the scenario says so.  With MatchBinaries (`tracer process match_binaries`,
%% CALL-MATCH-CONTEXT-READ) it first matches the first byte of each binary argument of each call
%% message with the bit syntax, as a tracer process that inspects them does (C-540).
start_state(Collector, MatchBinaries) ->
    spawn(fun() -> put(tcs_match_binaries, MatchBinaries), forward(Collector) end).

%% start_meta_state(Collector): the meta tracer's state process <meta>.  Named
%% as a meta tracer process of its own ({meta, <meta>}, CALL-META-PROCESS), it
%% gets trace messages, which it hands on marked as its own, printed
%% msg(<meta>, ...) (tcs_runner's item_line/3).
start_meta_state(Collector) ->
    spawn(fun() -> forward_as(meta, Collector) end).

forward_as(Name, Collector) ->
    receive
        {'$tcs_exit', Reason} -> exit(Reason);
        Msg -> Collector ! {'$tcs_via', Name, Msg}, forward_as(Name, Collector)
    end.

forward(Collector) ->
    receive
        {'$tcs_exit', Reason} -> exit(Reason);
        {'$tcs_open_tracer_port', From} ->
            %% `tracer port` (PORT-TRACER): cat echoes each command whole ({packet, 4}), so
            %% what the runtime writes to the port comes back here as {Port, {data, Bytes}},
            %% handed to the collector like any message; the port closes when this exits
            Port = open_port({spawn, "cat"}, [binary, {packet, 4}]),
            put(tcs_tracer_port, Port),
            From ! {'$tcs_tracer_port', Port},
            forward(Collector);
        {'$tcs_sync_tracer_port', From} ->
            Port = get(tcs_tracer_port),
            true = port_command(Port, ?SYNC),
            synced(Collector, Port),
            From ! '$tcs_tracer_port_synced',
            forward(Collector);
        Msg -> hand_on(Collector, Msg), forward(Collector)
    end.

%% The echoes before the harness's marker, handed on in order.
synced(Collector, Port) ->
    receive
        {Port, {data, ?SYNC}} -> ok;
        Msg -> hand_on(Collector, Msg), synced(Collector, Port)
    end.

%% What the runtime wrote to the tracer port is decoded as it comes back, while
%% the node has the name its pids were written with: a case's peer node names
%% the node (DIST-PEER) until the job ends, and decoded at the end, after the
%% peer had stopped, they were other nodes' pids (<ext:pid>: fuzz seed
%% 2026112903, scenario 633, on 29; seed 20261130, scenario 33942, on 27 and 29).
hand_on(Collector, {Port, {data, Bytes}} = Msg) ->
    case get(tcs_tracer_port) of
        Port -> Collector ! {Port, {written, port_output(Bytes)}};
        _ -> Collector ! Msg
    end;
hand_on(Collector, Msg) ->
    get(tcs_match_binaries) =:= true andalso match_binaries(Msg),
    Collector ! Msg.

%% CALL-MATCH-CONTEXT-READ: the first byte of each binary argument of a call message ({trace, P,
%% call, {M, F, Args}}, with a match spec's message or a time stamp after it), matched with
%% <<B, _/binary>>; what was matched is kept (in the process dictionary, till the next call
%% message), so that no compiler drops the match.  On OTP 27 and 29 the argument erts made of a
%% match context then reads one byte short, here and in the collector (C-540).
match_binaries(Msg) when is_tuple(Msg), tuple_size(Msg) >= 4,
                         (element(1, Msg) =:= trace orelse element(1, Msg) =:= trace_ts),
                         element(3, Msg) =:= call ->
    case element(4, Msg) of
        {_M, _F, Args} when is_list(Args) -> put(tcs_first_bytes, [first_byte(A) || A <- Args]);
        _ -> false
    end;
match_binaries(_) -> false.

first_byte(<<B, _/binary>>) -> B;
first_byte(_) -> none.

%% One command of the runtime's, which cat hands back whole (PORT-TRACER-MESSAGE):
%% the term it encodes when it is exactly one term in the external format, every
%% byte used; else the bytes themselves, which no model line matches.
port_output(Bytes) ->
    try binary_to_term(Bytes, [used]) of
        {Term, Used} when Used =:= byte_size(Bytes) -> Term;
        _ -> Bytes
    catch error:badarg -> Bytes
    end.

%% sync_tracer_port(Names, Ctx): once a `tracer port` step has opened the tracer
%% port, returns when the tracer state process has got back every trace message
%% the runtime wrote to it before: cat hands them back asynchronously, and the
%% state process that owns the port may be ended by a later step (`tracer exit`)
%% with echoes on their way.  The runtime's writes for the events so far are
%% queued on the port before the marker (tcs_settle:trace_delivered/0).
sync_tracer_port(#{tracer_port := Port}, #{state := State, timeout := Timeout}) ->
    case erlang:port_info(Port, id) =/= undefined andalso is_process_alive(State) of
        true ->
            tcs_settle:trace_delivered(),
            State ! {'$tcs_sync_tracer_port', self()},
            receive '$tcs_tracer_port_synced' -> ok after Timeout -> timeout end;
        false -> ok
    end;
sync_tracer_port(_Names, _Ctx) -> ok.

%% close_tracer_port(Names): the tracer port closed once the case's lines are
%% printed, before the batch kills the case's processes and with them the
%% port's owner.  Killed together, the traced processes and the owner crashed
%% OTP 27 and 29 nodes now and then (signal 11 after the case's END, in a node
%% shared by cases: C-502); closed first, the port is dead before any tracee's
%% last events, which then write nothing (PORT-TRACER-DEAD).
close_tracer_port(#{tracer_port := Port}) ->
    catch erlang:port_close(Port),
    ok;
close_tracer_port(_Names) -> ok.

%% rounds(Call, Inverse, {Rounds, Ms}, Names, Ctx): what Call() answered (one call of the step), or
%% with `rounds N [within MS]` (PROCS-SPEC-ROUNDS: `trace SPEC on call rounds N`) what its calls
%% answered: N, made back to back with Inverse() (erlang:trace(SPEC, false, [call])) between each
%% two, no new pair once Ms milliseconds have passed since the first call (0: no bound; a release
%% where the call is slow makes fewer, with the same lines).  Each pair is watched like a step of
%% its own and begun as a step is for the busy loops (tcs_busy: a burst of calls with no pause, as
%% OTP-19034's race needs the dirty NIF calls); the other processes of the node stay held across
%% them all.  When a call or an off answered unlike the first call, every distinct answer is
%% printed instead, which no stream predicts.
rounds(Call, _Inverse, {1, _}, _Names, _Ctx) -> Call();
rounds(Call, Inverse, {Rounds, Ms}, Names, #{step := N} = Ctx) ->
    Deadline = case Ms of
                   0 -> infinity;
                   _ -> erlang:monotonic_time(millisecond) + Ms
               end,
    First = Call(),
    Pair = fun() ->
                   tcs_busy:step_begins(),
                   Off = try {ok, Inverse()}
                         catch Class:Reason -> {raised, Class, Reason}
                         end,
                   {Off, Call()}
           end,
    {Ons, Offs} = pairs(Pair, Rounds - 1, Deadline, Names, Ctx, N, {[], []}),
    case {Ons -- [First], Offs} of
        {[], [{ok, _}]} -> First;
        {[], []} -> First;
        _ -> {placeholder, ["rounds answered unlike: ", io_lib:format("~0p", [{First, Ons, Offs}])]}
    end.

%% The pairs of rounds/5, Left more at most until Deadline: {distinct ons, distinct offs}.
pairs(_Pair, 0, _Deadline, _Names, _Ctx, _N, Acc) -> Acc;
pairs(Pair, Left, Deadline, Names, Ctx, N, {Ons, Offs} = Acc) ->
    case Deadline =/= infinity andalso erlang:monotonic_time(millisecond) >= Deadline of
        true -> Acc;
        false ->
            [{Off, On}] = tcs_watchdog:each(Ctx, N, Names, Pair, 1),
            pairs(Pair, Left - 1, Deadline, Names, Ctx, N, {add_new(On, Ons), add_new(Off, Offs)})
    end.

add_new(X, Xs) ->
    case lists:member(X, Xs) of
        true -> Xs;
        false -> [X | Xs]
    end.

%% run_step(Step, Names, Ctx) -> {ok | harness, Names}: each is a call by the
%% harness; erlang:trace/3 is settled like the trace step of a pid.
run_step({trace_spec, Spec, How, Flags}, Names, Ctx) ->
    run_step({trace_spec, Spec, How, Flags, 1, 0}, Names, Ctx);
run_step({trace_spec, Spec, How, Flags, Rounds, Ms}, Names,
         #{collector := C, tracer := Mod, tracer_state := State} = Ctx) ->
    %% a case that names the tracer ({tracer, recorder, S}) gets no other (TRACER-OPTION)
    Named = [F || F <- Flags, is_tuple(F), tuple_size(F) > 0, element(1, F) =:= tracer],
    TracerFlags = case How of
                      true when Named =:= [] -> [tcs_runner_lib:tracer_option(Mod, tcs_runner_lib:tracer(State, Names))];
                      _ -> []
                  end,
    Real = [tcs_runner_lib:recorder_named(F, Mod) || F <- Flags],
    Spread = How andalso lists:member(Spec, [all, processes, existing, existing_processes]),
    Shield = case Spread of
                 true -> shield();
                 false -> none
             end,
    Held = case Spread of
               true -> load_tracer(Mod), hold(Names, Ctx);
               false -> []
           end,
    Before = tcs_runner_lib:node_counts(),
    Options = Real ++ TracerFlags,
    %% the shield keeps the caller out of the call; were it traced anyway, a
    %% collection now leaves its heap the room for what it does until confine/2
    %% (fuzz/FINDINGS.md, V11)
    Spread andalso erlang:garbage_collect(),
    Call = fun() -> try {ok, erlang:trace(Spec, How, Options)}
                    catch Class:Reason -> {raised, Class, Reason}
                    end
           end,
    Outcome = rounds(Call, fun() -> erlang:trace(Spec, not How, Real) end, {Rounds, Ms}, Names, Ctx),
    Spread andalso confine(Names, Ctx),
    [catch erlang:resume_process(P) || P <- Held],
    After = tcs_runner_lib:node_counts(),
    tcs_runner_lib:ctl(C, ["erlang:trace(", atom_to_list(Spec), ",", atom_to_list(How), ",",
                       tcs_runner_lib:canon(Flags, Names), ")"],
                       tcs_runner_lib:count(Outcome, but_caller(Shield, Before), but_caller(Shield, After)), Names),
    {ok, Names};
run_step({info, Who, Item}, Names, #{collector := C, tracer := Mod}) ->
    Target = maps:get(Who, Names, Who),  % a scenario process, or new / new_processes
    Value = case erlang:trace_info(Target, Item) of
                {tracer, {Mod, State}} -> {tracer, {tcs_recorder_or_example(Mod), State}};
                {meta, {Mod, State}} -> {meta, {tcs_recorder_or_example(Mod), State}};
                {all, Items} when is_list(Items) ->
                    {all, [case I of {meta, {Mod, S}} -> {meta, {tcs_recorder_or_example(Mod), S}}; _ -> I end
                           || I <- Items]};
                {flags, Flags} when is_list(Flags) -> {flags, lists:sort(Flags)};
                Other -> Other
            end,
    tcs_runner_lib:ctl(C, ["erlang:trace_info(", tcs_runner_lib:canon(Target, Names), ",", atom_to_list(Item), ")"],
                   {ok, Value}, Names),
    {harness, Names};
run_step({port_tracer, Name}, Names, #{collector := C, state := State}) ->
    State ! {'$tcs_open_tracer_port', self()},
    Port = receive {'$tcs_tracer_port', P} -> P end,
    Names1 = Names#{Name => Port},
    tcs_runner_lib:ctl(C, "erlang:open_port({spawn,\"cat\"},[binary,{packet,4}])", {ok, Port}, Names1),
    {harness, Names1};
run_step({kill_all, [tracer | Procs], Rounds}, Names, #{state := State, step := N} = Ctx) ->
    %% `kill_all tracer P... [rounds N]` (KILL-ALL-PORT-OWNER): exit(X, kill) to the tracer port's
    %% owner, then to each P, back to back (one burst, as otp_bugs/porttracer_dirty_kill.erl; C-502);
    %% the gate is poked at once, as tcs_batch:kill_group/1 does, so that the puppets killed in
    %% its dirty NIF leave it while the port closes; the owner's death is awaited here, the
    %% puppets' by the settle after the step
    Pids = [maps:get(P, Names) || P <- Procs],
    %% the flags of each P alive, for the harness's other rounds: their tracer is the port (a case
    %% with a tracer port names no other), whose built-in tracer writes nothing for this probe
    Flags = case Rounds of
                1 -> [];
                _ -> [F || Pid <- Pids, {flags, F} <- [erlang:trace_info(Pid, flags)]]
            end,
    Ref = erlang:monitor(process, State),
    [exit(X, kill) || X <- [State | Pids]],
    ok = tcs_gate:poke(persistent_term:get(tcs_gate)),
    receive {'DOWN', Ref, process, State, _} -> ok end,
    %% KILL-ALL-ROUNDS: each of the others, watched like a step of its own
    tcs_watchdog:each(Ctx, N, Names, fun() -> harness_burst(Flags, Ctx) end, Rounds - 1),
    {ok, Names};
run_step({tracer_exit, Reason}, Names, #{state := State}) ->
    Ref = erlang:monitor(process, State),
    State ! {'$tcs_exit', Reason},
    receive {'DOWN', Ref, process, State, _} -> ok end,
    {harness, Names}.

%% The port of a round: cat, as the tracer port, but silent about the echoes the closing port cuts
%% off ("cat: write error: Broken pipe" on the node's standard error, which is the runner's output:
%% thousands of rounds wrote into its marker lines, "cat: write errorTCS BATCH END").
-define(ROUND_CAT, "exec cat 2>/dev/null").

%% harness_burst(Flags, Ctx): one of the other rounds of `kill_all ... rounds N` (KILL-ALL-ROUNDS),
%% the case's burst again on processes and a port of the harness's own: an owner opens cat (its
%% errors dropped) as the state process does, a process per element of Flags waits in a gate of
%% its own (the gate's dirty NIF, as a puppet waits), is traced with those flags by that port and
%% settled as after a trace step (poked, back in the gate); then the owner and they are killed
%% back to back, the gate poked at once, all of them and the port awaited gone, the gate poked
%% again.  No echo of the port is handed on: its owner keeps them, and they die with it.
harness_burst(Flags, #{timeout := Timeout}) ->
    Self = self(),
    Gate = tcs_gate:new(),
    Owner = spawn(fun() -> Self ! {'$tcs_round_port', open_port({spawn, ?ROUND_CAT}, [binary, {packet, 4}])},
                           receive after infinity -> ok end
                  end),
    Port = receive {'$tcs_round_port', P} -> P end,
    Tracees = [spawn(fun Wait() -> tcs_gate:await_turn(Gate), Wait() end) || _ <- Flags],
    InGate = fun() -> [true = tcs_gate:await_waiting(Gate, T, 1000 * Timeout) || T <- Tracees] end,
    InGate(),
    [1 = erlang:trace(T, true, [{tracer, Port} | F]) || {T, F} <- lists:zip(Tracees, Flags)],
    ok = tcs_gate:poke(Gate),
    InGate(),
    Refs = [erlang:monitor(port, Port) | [erlang:monitor(process, X) || X <- [Owner | Tracees]]],
    [exit(X, kill) || X <- [Owner | Tracees]],
    ok = tcs_gate:poke(Gate),
    [receive {'DOWN', R, _, _, _} -> ok end || R <- Refs],
    %% one that went back into the gate before its kill holds a dirty scheduler until a poke
    %% (tcs_batch:kill_group/1)
    ok = tcs_gate:poke(Gate).

%% The recorder is one module per callback set (tcs_rec_MMMM); the stream names
%% it tcs_recorder.  The example tracer keeps its name.
tcs_recorder_or_example(erl_msg_tracer) -> erl_msg_tracer;
tcs_recorder_or_example(_Recorder) -> tcs_recorder.

%% all and existing trace every process and port of the node, the harness's
%% own included.  The scenario is about its own processes and ports only, so
%% right after the call every other process and port gets its flags back to
%% none, before the harness does anything that could be traced
%% (PROCS-SPEC-CONFINED): the tracer state processes are the harness's too.
%% Confinement is atomic for the other processes of the node: they are
%% suspended before the call (hold/2) and resumed once their flags are cleared,
%% so none of them runs, is scheduled or sends while it is traced (seen
%% without it: the job's I/O proxy scheduled in and out, traced).
confine(Names, Ctx) ->
    catch erlang:trace(self(), false, [all]),
    [catch erlang:trace(Id, false, [all]) || Id <- (erlang:processes() ++ erlang:ports()) -- scenario(Names, Ctx)],
    ok.

%% shield() -> Shield | none: the caller traced by a tracer of its own (its
%% group leader, the job's I/O proxy, alive through the job and no tracer of
%% the case) with a flag that sends nothing, so that the call on all,
%% processes or existing passes it by: erlang:trace/3 leaves a process traced
%% by another tracer that is still enabled as it is (start_trace/6 in
%% erl_bif_trace.c) and does not count it.  Without it the caller got the
%% case's flags until confine/2 took them back with its own
%% erlang:trace(self(), false, [all]), and that call waits (ERTS_BIF_YIELD3 in
%% erts_internal_trace_3) while anything else has the code modification
%% permission: the caller, traced with `running`, was scheduled out and in at
%% {erts_internal,trace,3} (seed 20261207, fuzz_20261207_577 in a shared node;
%% fuzz/FINDINGS.md, KP).  No process is spawned for it: one spawned after a
%% `trace new` step would be the case's tracee from its spawn.  The group
%% leader is held like the node's other processes, which keeps it alive (an
%% enabled tracer) through the call; confine/2 clears the caller's flags.
shield() ->
    Leader = group_leader(),
    case is_pid(Leader) andalso node(Leader) =:= node() andalso
         (catch erlang:trace(self(), true, [silent, {tracer, Leader}])) =:= 1 of
        true -> Leader;
        false -> none
    end.

%% The node's counts without the caller, which a shielded call never counts
%% (PROCS-SPEC-COUNT: the other processes all matched).
but_caller(none, Counts) -> Counts;
but_caller(_Shield, {Procs, Ports}) -> {Procs - 1, Ports}.

%% Suspends the node's other processes (tcs_runner_lib:hold/1); returns them.
hold(Names, Ctx) ->
    tcs_runner_lib:hold(scenario(Names, Ctx)).

%% The code server is held too: a tracer module gone since a `tracer unload`
%% step is loaded before, or erlang:trace/3 would wait for it forever.
load_tracer(process) -> ok;
load_tracer(Mod) -> _ = code:ensure_loaded(Mod), ok.

scenario(Names, #{sessions := Sessions}) ->
    tcs_sessions:scenario(Names, Sessions).
