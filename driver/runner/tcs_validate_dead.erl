%% The ./tcs validate check dead_state: when the tracer state points to a dead
%% process, the tracer must end up removed from its tracees (spec 000,
%% enabled/3: "If remove is returned when the trace_status is checked, the
%% tracer is removed from the tracee"; the documentation's example answers
%% remove for trace_status when its state process is dead).
%%
%% Three tracees, each traced with [send, 'receive', procs] and made to send
%% and receive; then erlang:trace_info(Tracee, tracer) tells whether the
%% tracer is still attached:
%%   control  the state's process is alive: the tracer must stay attached
%%   dead     the state's process is dead from the start: removed
%%   died     the state's process dies while tracing goes on: removed
%% The state is the user's (--state) with '$harness' standing for the process;
%% a state without '$harness' cannot be made to point at a dead process.
%%
%% Usage: erl -noshell -pa DIR -run tcs_validate_dead main JOB_FILE
-module(tcs_validate_dead).
-export([main/1]).

-import(tcs_validate_lib, [out/3, step/3, finding/3]).

main([JobFile]) ->
    #{module := Module} = Ctx = tcs_validate_lib:start(JobFile),
    Given = tcs_validate_lib:option(state, Ctx, default),
    Alive = tcs_validate_lib:sink(),
    Dying = tcs_validate_lib:sink(),
    Dead = dead_pid(),
    {ok, Control} = tcs_validate_lib:parse_state(Given, Alive),
    {ok, DeadState} = tcs_validate_lib:parse_state(Given, Dead),
    {ok, DyingState} = tcs_validate_lib:parse_state(Given, Dying),
    case DeadState =:= Control of
        true ->
            out("SKIP", "the tracer state given with --state has no '$harness' in it, "
                "so it cannot be made to point at a dead process", []);
        false ->
            attached("control", Module, Control, fun() -> ok end, true),
            attached("dead", Module, DeadState, fun() -> ok end, false),
            attached("died", Module, DyingState, fun() -> exit(Dying, kill), wait_dead(Dying) end, false)
    end,
    tcs_validate_lib:finish(Module).

%% Traces a fresh process with State, lets it send and receive, runs Between,
%% lets it send and receive again; then the tracer must be attached or not.
attached(Name, Module, State, Between, Expected) ->
    Tracee = spawn(fun echo/0),
    step(Name, "-", io_lib:format("erlang:trace/3 with the ~s state", [Name])),
    Started = erlang:trace(Tracee, true, [send, 'receive', procs, {tracer, Module, State}]),
    traffic(Name, Tracee),
    Between(),
    traffic(Name, Tracee),
    {tracer, Tracer} = erlang:trace_info(Tracee, tracer),
    IsAttached = Tracer =/= [],
    out("NOTE", "~s: erlang:trace/3 returned ~p; then erlang:trace_info(Tracee, tracer) gave ~0tP",
        [Name, Started, Tracer, 8]),
    case {IsAttached, Expected} of
        {Same, Same} -> ok;
        {true, false} ->
            finding(Name, "the state points to a dead process, but the tracer is still attached "
                    "to the tracee after it sent and received", []);
        {false, true} ->
            finding(Name, "the state's process is alive, yet the tracer was removed from the tracee "
                    "(it must answer remove for trace_status only when its state is dead)", [])
    end,
    exit(Tracee, kill).

traffic(Name, Tracee) ->
    step(Name, "-", "the tracee sends a message and receives the reply"),
    Ref = make_ref(),
    Tracee ! {self(), Ref},
    receive {Ref, echo} -> ok end.

echo() ->
    receive {From, Ref} -> From ! {Ref, echo} end,
    echo().

dead_pid() ->
    Pid = spawn(fun() -> ok end),
    wait_dead(Pid),
    Pid.

wait_dead(Pid) ->
    Ref = erlang:monitor(process, Pid),
    receive {'DOWN', Ref, process, Pid, _} -> ok end.
