%% The ./tcs validate checks stress and leak: the tracer attached to many
%% processes running on every scheduler at once, every category together
%% (send, receive, call, procs, running, garbage_collection, ports), in the
%% legacy session and, where the release has trace sessions (27+), in two more
%% sessions at once, for {seconds, S}.  The runtime calls the tracer from
%% every scheduler at the same time, as it does in production (000: the
%% callbacks are "called in the context of the entity that triggered the
%% trace probe").
%%
%% The tracer state is a checker ('$harness' stands for it) that looks at
%% every report: a report that does not survive term_to_binary/binary_to_term,
%% or that names a send event of one worker with the message another worker
%% sent (every worker sends {tcs_stress, self(), N} only), is garbage: the
%% tracer mixed up calls made at once.
%%
%% Memory over time: a warm-up of a quarter of the time, then the rest in two
%% halves; after each part, the workers pause, every queue is drained and every
%% process collected (quiescence), and the node's memory is sampled:
%% erlang:memory/1, the bytes malloc has in use (tcs_validate_heap, when the
%% job names it) and the RSS of the OS process.  Growth in each half over its
%% events is what the driver judges (leak): a leak grows in both halves, a
%% one-off growth (a carrier, a table, a message still in flight at a sample)
%% in one only.  Events per action are counted beforehand with the built-in
%% tracer on one worker.
%%
%% System monitoring: long_schedule and long_gc of 100 ms or more of the
%% tracees during the whole run, reported as DATA monitor lines.
%%
%% {traffic_only, true} (the race detector's node, tsan.py): the traffic for
%% the whole time in one go, and nothing else: no calibration, no quiescence,
%% no samples, no tally of the checker.  That node's memory is not judged
%% (+Mea min) nor its reports (the plain stress node judges those), and under
%% ThreadSanitizer a quiescence took up to minutes: the checker had a few
%% hundred thousand reports queued, and asking for its queue length (a signal
%% it handles after them) waited 78 s once.
%%
%% Output: STEP per part; DATA key value; FINDING - garbage descriptions;
%% NOTE lines.  Usage: erl -noshell -pa DIR -run tcs_validate_stress main JOB_FILE
-module(tcs_validate_stress).
-export([main/1, work/1]).

-import(tcs_validate_lib, [out/3, step/3]).

-define(NAME, tcs_validate_stress_name).
-define(PER_SCHEDULER, 3).
-define(EXTRA_SESSIONS, 2).
-define(MONITOR_MS, 100).
-define(SHOWN, 5).

main([JobFile]) ->
    Job = tcs_validate_lib:read_job(JobFile),
    Seconds = tcs_validate_lib:option(seconds, Job, 4),
    TrafficOnly = tcs_validate_lib:option(traffic_only, Job, false),
    persistent_term:put(tcs_gc_in_sessions, tcs_validate_lib:option(gc_in_sessions, Job, true)),
    persistent_term:put(tcs_heap_nif, load_heap_nif(tcs_validate_lib:option(heap_nif, Job, none))),
    Module = tcs_validate_lib:option(module, Job),
    %% The race detector's node (traffic only) never drains the checker, whose
    %% queue then grows by hundreds of thousands of reports: kept off its heap,
    %% it is not copied by each of its collections.
    Checker = spawn_opt(fun() -> checker(#{reports => 0, garbage => 0, shown => [], workers => []}) end,
                        [{message_queue_data, case TrafficOnly of true -> off_heap; false -> on_heap end}]),
    {ok, State} = tcs_validate_lib:parse_state(tcs_validate_lib:option(state, Job, default), Checker),
    case tcs_validate_lib:load_tracer(Module, tcs_validate_lib:option(beam, Job)) of
        {ok, _, _} -> ok;
        {error, Why} -> out("ABORT", "the tracer module did not load: ~0tp", [Why]), halt(1)
    end,
    Monitor = tcs_validate_lib:system_monitor(?MONITOR_MS),
    Peer = tcs_validate_lib:drain(),
    true = register(?NAME, Peer),
    1 = erlang:trace_pattern({?MODULE, work, 1}, [{'_', [], [{exception_trace}]}], [local]),
    Schedulers = erlang:system_info(schedulers_online),
    Groups = [group(N, Peer) || N <- lists:seq(1, Schedulers)],
    PerAction = [events_per_action(Peer, hd(Groups)) || not TrafficOnly],
    Sessions = sessions(Module, State),
    out("DATA", "schedulers ~b", [Schedulers]),
    out("DATA", "workers ~b", [length(workers(Groups))]),
    out("DATA", "sessions ~b", [1 + length(Sessions)]),
    [out("DATA", "events_per_action ~.2f", [P * (1 + length(Sessions))]) || P <- PerAction],
    out("DATA", "bound_to_schedulers ~p", [bound()]),
    [out("NOTE", "OTP ~s has erlang/otp#11624 (fix PR #11623, open), found by validate's probe on this "
         "release: garbage_collection traced in two sessions of one process, the legacy one counting, crashes the "
         "emulator at the first collection (it frees the first session's message heap while it still builds the "
         "others'; a tracer module then aborts the node with size_object: bad tag when it copies the trace term). "
         "An OTP fault, not the tracer's: the extra sessions go without garbage_collection here",
         [erlang:system_info(otp_release)])
     || Sessions =/= [], gc_broken_in_sessions()],
    step("attach", "-", io_lib:format("stress: the tracer attached to ~b processes on ~b schedulers, "
                                      "~b session(s)", [length(workers(Groups)), Schedulers, 1 + length(Sessions)])),
    Checker ! {workers, workers(Groups)},
    [attach(G, {tracer, Module, State}, Sessions) || G <- Groups],
    Counter = counters:new(1, [write_concurrency]),
    Dirty = spawn(fun() -> dirty_gc_loop() end),
    trace_dirty(Dirty, {tracer, Module, State}, Sessions),
    Warmup = max(1000, round(Seconds * 250)),
    Main = max(1000, round(Seconds * 1000) - Warmup),
    Workers = workers(Groups),
    case TrafficOnly of
        true -> traffic([Dirty | Workers], Warmup + Main, Counter);
        false ->
            sampled(Workers, Warmup, Main, [Checker, Peer | ports_owners(Groups)], Counter, Checker),
            %% Only the tracees' events: the harness's own processes (the checker with
            %% its long queue) collect garbage for long too.
            Tracees = Workers ++ [maps:get(port, G) || G <- Groups] ++ [Dirty],
            [out("DATA", "monitor stress ~s ~b ~ts", [Kind, Ms, Where])
             || {Kind, Who, Ms, Where} <- tcs_validate_lib:monitored(Monitor), lists:member(Who, Tracees)],
            erlang:system_monitor(undefined),
            exit(Dirty, kill)
    end,
    tcs_validate_lib:finish(Module).

%% Warm-up, quiescence and a sample, then two halves each ended by quiescence
%% and a sample; then the checker's tally.
sampled(Workers, Warmup, Main, Queues, Counter, Checker) ->
    step("warmup", "-", io_lib:format("stress: every category on every scheduler at once for ~b ms (warm-up)",
                                      [Warmup])),
    [W ! {go, Counter, infinity} || W <- Workers],
    timer:sleep(Warmup),
    quiesce(Workers, Queues),
    Before = sample(counters:get(Counter, 1)),
    step("main", "-", io_lib:format("stress: every category on every scheduler at once for ~b ms", [Main])),
    Middle = stress_and_sample(Workers, Main div 2, Queues, Counter),
    After = stress_and_sample(Workers, Main - Main div 2, Queues, Counter),
    step("report", "-", "stress: what the checker and the system monitor saw"),
    [out("DATA", "~s_~s ~b", [Point, K, V])
     || {Point, Sample} <- [{before, Before}, {middle, Middle}, {'after', After}], {K, V} <- Sample],
    Checker ! {report, self()},
    receive
        {checked, #{reports := Reports, garbage := Garbage, shown := Shown}} ->
            out("DATA", "reports ~b", [Reports]),
            out("DATA", "garbage ~b", [Garbage]),
            [tcs_validate_lib:finding("-", "~ts", [S]) || S <- lists:reverse(Shown)]
    end.

%% The traffic for Ms in one go: each worker ends itself once the time is up
%% (after its action under way), and this process waits for them all.  Not a
%% sleep of this process, then the workers stopped: on a node the traffic and a
%% race detector keep busy, a timer of the coordinator ends late (a 1000 ms
%% sleep ended after 7 s under ThreadSanitizer, a 4000 ms one after 40 s at
%% high priority), and the traffic, so the node, went on meanwhile.
traffic([Dirty | Workers], Ms, Counter) ->
    step("traffic", "-", io_lib:format("stress: every category on every scheduler at once for ~b ms", [Ms])),
    Until = erlang:monotonic_time(millisecond) + Ms,
    Ends = [erlang:monitor(process, W) || W <- Workers],
    [W ! {go, Counter, Until} || W <- Workers],
    [receive {'DOWN', End, process, _, _} -> ok end || End <- Ends],
    exit(Dirty, kill),
    out("DATA", "actions ~b", [counters:get(Counter, 1)]).

%% The traced function of the call category.
work(N) when N rem 50 =:= 0 -> catch error(tcs_stress);
work(N) -> {ok, N}.

%% --- the workers -------------------------------------------------------------------

%% A group: ?PER_SCHEDULER workers bound to scheduler N (where spawn_opt takes
%% {scheduler, N}), their timestamp kind, and a port (cat) they send to.
group(N, Peer) ->
    Owner = port_owner(),
    Port = receive {Owner, P} -> P end,
    Ts = lists:nth(1 + N rem 4, [[timestamp], [monotonic_timestamp], [strict_monotonic_timestamp], []]),
    Workers = [spawn_on(N, fun() -> worker_start(Peer, Port, Owner) end) || _ <- lists:seq(1, ?PER_SCHEDULER)],
    #{workers => Workers, port => Port, owner => Owner, flags => Ts}.

workers(Groups) -> lists:append([maps:get(workers, G) || G <- Groups]).
ports_owners(Groups) -> [maps:get(owner, G) || G <- Groups].

spawn_on(N, Fun) ->
    try spawn_opt(Fun, [{scheduler, N}])
    catch error:badarg -> put(tcs_unbound, true), spawn(Fun)
    end.

bound() -> get(tcs_unbound) =/= true.

port_owner() ->
    Parent = self(),
    spawn(fun() ->
                  Port = open_port({spawn_executable, os:find_executable("cat")}, [binary]),
                  Parent ! {self(), Port},
                  (fun Loop() -> receive _ -> Loop() end end)()
          end).

process_flags() -> [send, 'receive', call, procs, running, garbage_collection, scheduler_id, set_on_spawn].

%% The flags of the extra sessions.  On a release with erlang/otp#11624 (two
%% sessions tracing garbage_collection on one process crash the emulator; seen
%% on 27.3.4.1, not on 29.1.2), which the driver finds out with
%% tcs_validate_probe and passes as {gc_in_sessions, false}, those sessions go
%% without garbage_collection: a runtime defect, not the tracer's.
session_flags() ->
    case gc_broken_in_sessions() of
        true -> process_flags() -- [garbage_collection];
        false -> process_flags()
    end.

gc_broken_in_sessions() -> not persistent_term:get(tcs_gc_in_sessions, true).
port_flags() -> [send, 'receive', ports, running_ports, scheduler_id].

attach(#{workers := Workers, port := Port, flags := Ts}, Tracer, Sessions) ->
    [erlang:trace(W, true, process_flags() ++ Ts ++ [Tracer]) || W <- Workers],
    erlang:trace(Port, true, port_flags() ++ [Tracer]),
    [begin
         [trace:process(S, W, true, session_flags()) || W <- Workers],
         trace:port(S, Port, true, port_flags())
     end || S <- Sessions].

trace_dirty(Pid, Tracer, Sessions) ->
    erlang:trace(Pid, true, [garbage_collection, scheduler_id, Tracer]),
    [trace:process(S, Pid, true, [garbage_collection, scheduler_id]) || S <- Sessions,
                                                                        not gc_broken_in_sessions()].

%% Trace sessions (OTP 27+), each with the tracer and the call pattern.
sessions(Module, State) ->
    case code:ensure_loaded(trace) of
        {module, trace} ->
            [begin
                 S = trace:session_create(list_to_atom("tcs_stress_" ++ integer_to_list(I)), {Module, State}, []),
                 trace:function(S, {?MODULE, work, 1}, [{'_', [], [{exception_trace}]}], [local]),
                 S
             end || I <- lists:seq(1, ?EXTRA_SESSIONS)];
        _ -> []
    end.

worker_start(Peer, Port, Owner) ->
    receive {go, Counter, Until} -> worker(Peer, Port, Owner, Counter, Until, 1) end.

%% Until: the monotonic millisecond at which the worker ends, or infinity (the
%% coordinator pauses and resumes it): a number is less than any atom.
worker(Peer, Port, Owner, Counter, Until, N) ->
    receive
        {pause, From} ->
            From ! {paused, self()},
            receive resume -> ok end
    after 0 -> ok
    end,
    action(Peer, Port, Owner, N),
    counters:add(Counter, 1, 1),
    case erlang:monotonic_time(millisecond) < Until of
        true -> worker(Peer, Port, Owner, Counter, Until, N + 1);
        false -> done
    end.

%% One action: sends to a pid, a registered name and {Name, Node}, receives,
%% calls a traced function; now and then a port command, a child that links
%% and exits, a garbage collection.
action(Peer, Port, Owner, N) ->
    Msg = {tcs_stress, self(), N},
    Peer ! Msg,
    ?NAME ! Msg,
    {?NAME, node()} ! Msg,
    self() ! Msg,
    receive {tcs_stress, _, N} -> ok end,
    _ = ?MODULE:work(N),
    [Port ! {Owner, {command, <<"tcs">>}} || N rem 16 =:= 0],
    [child() || N rem 64 =:= 0],
    [erlang:garbage_collect() || N rem 32 =:= 0],
    ok.

child() ->
    Child = spawn(fun() -> receive stop -> ok end end),
    link(Child),
    unlink(Child),
    Child ! stop.

%% A process whose heap is large enough to be collected on a dirty
%% scheduler (scheduler_id 0).
dirty_gc_loop() ->
    Big = lists:seq(1, 400000),
    erlang:garbage_collect(),
    _ = receive after 200 -> length(Big) end,
    dirty_gc_loop().

%% Events the tracer gets per action, from one worker traced with the same
%% flags and the built-in tracer (a counting process).
events_per_action(Peer, #{port := Port, owner := Owner}) ->
    Counting = spawn(fun() -> count(0) end),
    Calibrate = spawn(fun() -> receive go -> [action(Peer, Port, Owner, N) || N <- lists:seq(1, 512)] end end),
    erlang:trace(Calibrate, true, process_flags() ++ [{tracer, Counting}]),
    Ref = erlang:monitor(process, Calibrate),
    Calibrate ! go,
    receive {'DOWN', Ref, process, Calibrate, _} -> ok end,
    Delivered = erlang:trace_delivered(Calibrate),
    receive {trace_delivered, Calibrate, Delivered} -> ok end,
    Counting ! {count, self()},
    receive {counted, Events} -> Events / 512 end.

count(N) ->
    receive
        {count, From} -> From ! {counted, N};
        _ -> count(N + 1)
    end.

%% --- quiescence and memory ------------------------------------------------------------

%% The workers resumed for Ms, then quiescence and a sample.
stress_and_sample(Workers, Ms, Queues, Counter) ->
    [W ! resume || W <- Workers],
    timer:sleep(Ms),
    quiesce(Workers, Queues),
    sample(counters:get(Counter, 1)).

%% Every worker paused, every given process's queue empty, every process collected.
quiesce(Workers, Queues) ->
    [W ! {pause, self()} || W <- Workers],
    [receive {paused, W} -> ok end || W <- Workers],
    drained(Queues),
    [erlang:garbage_collect(P) || P <- processes()],
    ok.

drained(Pids) ->
    case lists:sum([queue_len(P) || P <- Pids]) of
        0 -> ok;
        _ -> timer:sleep(20), drained(Pids)
    end.

queue_len(Pid) ->
    case erlang:process_info(Pid, message_queue_len) of
        {message_queue_len, N} -> N;
        undefined -> 0
    end.

%% [{Key, Bytes}]: the actions so far, erlang:memory/1 and the RSS (0 where
%% /proc cannot be read, as in a root without it; erlang:memory/0 0 where the
%% node has no allocators of its own to count, +Mea min, as the race
%% detector's node: its memory is not judged).
sample(Actions) ->
    Memory = try erlang:memory() catch error:notsup -> [] end,
    [{actions, Actions}]
        ++ [{atom_to_list(K), proplists:get_value(K, Memory, 0)} || K <- [total, processes, system, binary, ets]]
        ++ [{malloc, malloc_in_use()}, {rss, rss()}].

load_heap_nif(none) -> false;
load_heap_nif(SoPath) -> tcs_validate_heap:load(filename:rootname(SoPath)) =:= ok.

%% malloc's bytes in use (tcs_validate_heap), 0 where the job names no heap NIF or the C
%% library cannot tell: a tracer's malloc leak shows in neither erlang:memory/0 nor,
%% below hundreds of megabytes, the RSS.
malloc_in_use() ->
    case persistent_term:get(tcs_heap_nif, false) andalso tcs_validate_heap:malloc_in_use() of
        Bytes when is_integer(Bytes) -> Bytes;
        _ -> 0
    end.

rss() ->
    case file:read_file("/proc/" ++ os:getpid() ++ "/statm") of
        {ok, Statm} ->
            [_, Resident | _] = binary:split(Statm, <<" ">>, [global]),
            binary_to_integer(Resident) * 4096;
        {error, _} -> 0
    end.

%% --- the checker (the tracer state) and the system monitor ---------------------------

checker(Seen) ->
    receive
        {report, From} -> From ! {checked, Seen};
        {workers, Workers} -> checker(Seen#{workers := Workers});
        Report -> checker(check(Report, Seen))
    end.

check(Report, #{reports := N, workers := Workers} = Seen) ->
    Seen1 = Seen#{reports := N + 1},
    case garbage(Report, N, Workers) of
        ok -> Seen1;
        {garbage, Why} ->
            #{garbage := G, shown := Shown} = Seen1,
            Seen1#{garbage := G + 1,
                   shown := [io_lib:format("garbage in a report to the state: ~ts: ~0tP", [Why, Report, 12])
                             || G < ?SHOWN] ++ Shown}
    end.

garbage(Report, N, Workers) ->
    case N rem 16 =:= 0 andalso (catch binary_to_term(term_to_binary(Report))) =/= Report of
        true -> {garbage, "it does not survive term_to_binary/1 and binary_to_term/1"};
        false when is_tuple(Report) -> mixed_send(tuple_to_list(Report), Workers);
        false -> ok
    end.

%% A send event of worker P reported with the message worker W =/= P sent
%% (workers send only to a drain, a name, themselves and ports, so no other
%% worker belongs in a report of their sends).
mixed_send(Elements, Workers) ->
    Senders = [W || {tcs_stress, W, _} <- Elements, is_pid(W)],
    Pids = [P || P <- Elements, is_pid(P), lists:member(P, Workers)],
    case lists:member(send, Elements) of
        true when Senders =/= [], Pids =/= [] ->
            [W] = Senders,
            case lists:member(W, Pids) of
                true -> ok;
                false -> {garbage, io_lib:format("a send event of ~p with the message ~p sent: the tracer mixed "
                                                 "up two calls made at once", [hd(Pids), W])}
            end;
        _ -> ok
    end.
