%% The ./tcs validate check live: the tracer attached to real traffic of every
%% category must not crash or hang the node.  Unlike the synthetic calls, the
%% runtime calls the callbacks here, from its own contexts (enabled*/3 with
%% no calling process, trace*/5 for a port from the port's context).
%%
%% Each phase traces fresh processes (or ports) with the category's flags,
%% makes them do the category's traffic, one STEP line per action (what a
%% crash or a hang is reported against), and notes whether the tracer was
%% still attached afterwards.  Time stamp kinds, scheduler_id, arity and
%% set_on_spawn are spread over the phases; cpu_timestamp is left out: the
%% runtime allows it only for erlang:trace(all, ...), which would trace the
%% harness itself.
%%
%% System monitoring: the long_schedule and long_gc events of 100 ms or more
%% in each phase, as DATA monitor lines (evidence of the latency check).
%%
%% Usage: erl -noshell -pa DIR -run tcs_validate_live main JOB_FILE
-module(tcs_validate_live).
-export([main/1, target/1]).

-import(tcs_validate_lib, [out/3, step/3]).

%% long_schedule and long_gc of this long or more are reported (DATA monitor).
-define(MONITOR_MS, 100).

main([JobFile]) ->
    Ctx = tcs_validate_lib:start(JobFile),
    Monitor = tcs_validate_lib:system_monitor(?MONITOR_MS),
    [begin
         phase(Name, Ctx),
         [out("DATA", "monitor live_~s ~s ~b ~ts", [Name, Kind, Ms, Where])
          || {Kind, _Who, Ms, Where} <- tcs_validate_lib:monitored(Monitor)]
     end || Name <- [send, 'receive', call, procs, running_procs, garbage_collection, ports, seq_trace]],
    tcs_validate_lib:finish(maps:get(module, Ctx)).

%% The traced function of the call phase.
target(raise) -> error(tcs_expected);
target(Value) -> {ok, Value}.

phase(send, Ctx) ->
    A = traced(Ctx, send, [send, timestamp]),
    action(send, "a process sends to a live process and to a dead one", A,
           fun() -> maps:get(peer, Ctx) ! hello, maps:get(dead, Ctx) ! lost end),
    finish(send, A);
phase('receive', Ctx) ->
    A = traced(Ctx, 'receive', ['receive', strict_monotonic_timestamp, scheduler_id]),
    action('receive', "a process receives messages and times out in a receive", A,
           fun() -> self() ! ping, receive ping -> ok end, receive never -> ok after 0 -> ok end end),
    finish('receive', A);
phase(call, Ctx) ->
    A = traced(Ctx, call, [call, return_to, arity, monotonic_timestamp]),
    Spec = [{'_', [], [{exception_trace}, {message, {caller}}]}],
    1 = erlang:trace_pattern({?MODULE, target, 1}, Spec, [local]),
    action(call, "a traced function returns", A, fun() -> {ok, 1} = ?MODULE:target(1) end),
    action(call, "a traced function raises", A, fun() -> catch ?MODULE:target(raise) end),
    erlang:trace_pattern({?MODULE, target, 1}, false, [local]),
    finish(call, A);
phase(procs, Ctx) ->
    A = traced(Ctx, procs, [procs, set_on_spawn, scheduler_id]),
    action(procs, "a process spawns, links, unlinks, registers, unregisters; the child exits", A,
           fun() ->
                   Child = spawn(fun() -> receive stop -> exit(done) end end),
                   link(Child),
                   unlink(Child),
                   register(tcs_validate_live, self()),
                   unregister(tcs_validate_live),
                   Ref = erlang:monitor(process, Child),
                   Child ! stop,
                   receive {'DOWN', Ref, process, Child, _} -> ok end
           end),
    finish(procs, A);
phase(running_procs, Ctx) ->
    A = traced(Ctx, running_procs, [running_procs, timestamp]),
    action(running_procs, "a process is scheduled out and in, then exits", A,
           fun() -> receive after 1 -> ok end, erlang:yield() end),
    finish(running_procs, A),
    step(running_procs, "-", "live running_procs: a traced process exits"),
    Exiting = spawn(fun() -> receive go -> ok end end),
    trace(Ctx, Exiting, [running_procs]),
    Ref = erlang:monitor(process, Exiting),
    Exiting ! go,
    receive {'DOWN', Ref, process, Exiting, _} -> ok end;
phase(garbage_collection, Ctx) ->
    A = traced(Ctx, garbage_collection, [garbage_collection, monotonic_timestamp]),
    action(garbage_collection, "a process allocates and collects garbage", A,
           fun() -> _ = lists:seq(1, 20000), erlang:garbage_collect() end),
    finish(garbage_collection, A);
phase(ports, Ctx) ->
    A = actor(),
    Flags = [ports, send, 'receive', running_ports, timestamp],
    step(ports, "-", "live ports: erlang:trace(new_ports, ...) and a process opens a port"),
    erlang:trace(new_ports, true, Flags ++ [tracer(Ctx)]),
    Port = run(A, fun() -> open_port({spawn_executable, os:find_executable("cat")}, [binary]) end),
    erlang:trace(new_ports, false, Flags),
    action(ports, "a port gets a command and sends its output", A,
           fun() -> port_command(Port, <<"ping">>), receive {Port, {data, _}} -> ok end end),
    action(ports, "a port is unlinked and linked", A, fun() -> unlink(Port), link(Port) end),
    {tracer, Tracer} = erlang:trace_info(Port, tracer),
    out("NOTE", "ports: tracer attached afterwards: ~p", [Tracer =/= []]),
    action(ports, "a port is closed", A, fun() -> port_close(Port) end);
phase(seq_trace, Ctx) ->
    A = actor(),
    B = actor(),
    step(seq_trace, "-", "live seq_trace: the tracer becomes the system seq tracer"),
    %% The runtime refuses a system seq tracer whose enabled(trace_status, _,
    %% undefined) answers remove.
    try seq_trace:set_system_tracer(tracer_tuple(Ctx)) of
        _ -> seq_trace_traffic(A, B)
    catch error:badarg ->
            out("NOTE", "seq_trace: the runtime refused the tracer as the system seq tracer "
                "(enabled(trace_status, State, undefined) answered remove)", [])
    end.

seq_trace_traffic(A, B) ->
    action(seq_trace, "a process with a seq_trace token (label 17) sends, receives and prints", A,
           fun() ->
                   seq_trace:set_token(label, 17),
                   [seq_trace:set_token(Flag, true) || Flag <- [send, 'receive', print, timestamp]],
                   seq_trace:print(17, tcs_print),
                   ok = run(B, fun() -> ok end),
                   seq_trace:set_token([])
           end),
    seq_trace:reset_trace(),
    _ = seq_trace:set_system_tracer(false),
    out("NOTE", "seq_trace: done", []).

%% --- helpers -----------------------------------------------------------------

tracer(Ctx) -> {tracer, maps:get(module, Ctx), maps:get(state, Ctx)}.

tracer_tuple(Ctx) -> {maps:get(module, Ctx), maps:get(state, Ctx)}.

trace(Ctx, Who, Flags) -> erlang:trace(Who, true, Flags ++ [tracer(Ctx)]).

%% A fresh actor process traced with Flags.
traced(Ctx, Phase, Flags) ->
    A = actor(),
    step(Phase, "-", io_lib:format("live ~s: erlang:trace(Pid, true, ~0tp)", [Phase, Flags])),
    trace(Ctx, A, Flags),
    %% erlang:trace/3 asks enabled(trace_status, ...): a tracer that answers
    %% remove is not attached, and the phase's events never reach it.
    {tracer, Tracer} = erlang:trace_info(A, tracer),
    out("NOTE", "~s: tracer attached when the traffic starts: ~p", [Phase, Tracer =/= []]),
    A.

action(Phase, What, Actor, Fun) ->
    step(Phase, "-", io_lib:format("live ~s: ~s", [Phase, What])),
    run(Actor, Fun).

finish(Phase, Actor) ->
    {tracer, Tracer} = erlang:trace_info(Actor, tracer),
    out("NOTE", "~s: tracer attached afterwards: ~p", [Phase, Tracer =/= []]),
    erlang:trace(Actor, false, [all]).

%% An actor runs the funs it is given and answers their result.
actor() -> spawn(fun actor_loop/0).

actor_loop() ->
    receive
        {run, From, Ref, Fun} -> From ! {Ref, Fun()}
    end,
    actor_loop().

run(Actor, Fun) ->
    Ref = make_ref(),
    Actor ! {run, self(), Ref, Fun},
    receive {Ref, Result} -> Result end.
