%% The trace session steps of a plan (cases/README.md "Trace sessions"):
%% trace:session_create/3 and the other functions of module `trace` (OTP 27+),
%% run for tcs_runner, which prints what they return as control lines.
%%
%% Who holds what.  A session lives as long as a strong handle to it exists
%% (003, session_create/3: "If the handle is dropped and garbage collected,
%% the session will be destroyed"), so one process, the holder, keeps every
%% strong handle, makes every call that needs a handle, and hands out only
%% printable results: a `drop` step makes it forget a handle and collect its
%% garbage, and nothing else in the node still refers to the session.
%%
%% Each session's tracer reports to a tracer state process of its own (a
%% tcs_runner collector) that the stream calls by the session's name.
%%
%% Printing.  Values that differ from run to run print as placeholders
%% (PROTOCOLS.md section 6): a reference as _Ref, the number in the weak
%% handle {Name, Number} of a session this run created as _Id.  A recorder
%% variant's module (tcs_rec_XXXX, one per callback set) prints as `recorder`.
-module(tcs_sessions).
-export([start/2, answer_tables/3, load_tracers/2, states/1, scenario/2, run_step/3]).

%% start(Plan, Job): the tracer state processes of the plan's sessions and the
%% holder.  Plan: {sessions, [{Name, recorder | erl_msg_tracer | process | undefined,
%% Callbacks, Answers}]}; Job: {session_tracers, [{Name, Module, LibPath}]}
%% for each recorder session.
start(Plan, Job) ->
    Decls = case lists:keyfind(sessions, 1, Plan) of
                {sessions, D} -> D;
                false -> []
            end,
    States = [{Name, spawn(tcs_runner_lib, collect, [])} || {Name, _, _, _} <- Decls],
    Recorders = [{Name, Mod, Path} || {Name, Mod, Path} <- proplists:get_value(session_tracers, Job, [])],
    Modules = lists:usort([Mod || {_, Mod, _} <- Recorders]),
    Holder = spawn(fun() -> hold(#{strong => #{}, weak => #{}, recorders => Modules}) end),
    #{decls => Decls, states => States, recorders => Recorders, holder => Holder}.

%% The answer tables of the sessions whose recorder is the legacy tracer's
%% module (one library, loaded once: nif_impls/recorder).
answer_tables(Sessions, recorder, Job) ->
    tables(Sessions, proplists:get_value(tracer_module, Job));
answer_tables(_, _ErlMsgTracerOrProcess, _) ->
    [].

%% Loads the recorder variants of the sessions that the legacy tracer did not.
load_tracers(#{recorders := Recorders} = Sessions, LegacyModule) ->
    Others = lists:usort([{Mod, Path} || {_, Mod, Path} <- Recorders, Mod =/= LegacyModule]),
    [ok = tcs_runner_lib:load_recorder(Mod, Path, tables(Sessions, Mod)) || {Mod, Path} <- Others],
    ok.

tables(#{decls := Decls, states := States, recorders := Recorders}, Mod) ->
    [{proplists:get_value(Name, States), Answers}
     || {Name, recorder, _, Answers} <- Decls, lists:member({Name, Mod}, [{N, M} || {N, M, _} <- Recorders])].

%% [{Name, Pid}]: the tracer state process of each session.
states(#{states := States}) -> States.

%% The scenario's own processes and ports among Names: not the harness's tracer
%% state processes (<tracer>, <meta>, the sessions').
scenario(Names, Sessions) ->
    Harness = [tracer, meta, tracer_port | [Name || {Name, _} <- states(Sessions)]],
    [Id || {Name, Id} <- maps:to_list(Names), not lists:member(Name, Harness)].

%% --- steps -------------------------------------------------------------------

run_step({process, Ref, {spec, Fun, Spec}, How, Opts}, Names, #{sessions := #{holder := Holder} = Sessions} = Ctx)
  when Spec =:= all; Spec =:= existing ->
    %% as erlang:trace(all | existing, ...) (tcs_procflags, PROCS-SPEC-CONFINED):
    %% the node's other processes are held while the holder makes the call
    %% (trace:process/4 or trace:port/4) and takes the flags off every process
    %% and port that is not the scenario's; the count it answers is checked
    %% against the node's (PROCS-SPEC-COUNT)
    Scenario = scenario(Names, Sessions),
    %% a call that raises is explained by its error_info module (error_info/2),
    %% loaded on demand by the code server, which hold/1 suspends
    _ = code:ensure_loaded(erl_kernel_errors),
    Held = case How of true -> tcs_runner_lib:hold([Holder | Scenario]); _ -> [] end,
    Result = call_holder({spread, Ref, Fun, Spec, How, Opts, Scenario}, Names, Ctx),
    [catch erlang:resume_process(P) || P <- Held],
    Result;
run_step(Step, Names, #{sessions := Sessions, timeout := Timeout} = Ctx) ->
    call_holder(request(Step, Sessions, Timeout div 2), Names, Ctx).

call_holder(Request, Names, #{collector := C, sessions := #{holder := Holder}, timeout := Timeout}) ->
    Holder ! {Request, self()},
    receive
        {holder, Lines} ->
            [tcs_runner_lib:ctl(C, [Fun, "(", lists:join(",", [tcs_runner_lib:canon(A, Names) || A <- Args]), ")"],
                            Outcome, Names)
             || {{Fun, Args}, Outcome} <- Lines],
            {ok, Names}
    after Timeout -> timeout
    end.

request({create, Name, Opts}, Sessions, _) -> {create, Name, tracer(Name, Sessions), Opts};
request({destroy, Ref}, _, _) -> {apply, Ref, session_destroy, []};
request({drop, Name}, _, _) -> {drop, Name};
request({process, Ref, {spec, Fun, Spec}, How, Opts}, _, _) -> {apply, Ref, Fun, [Spec, How, Opts]};
request({process, Ref, Port, How, Opts}, _, _) when is_port(Port) -> {apply, Ref, port, [Port, How, Opts]};
request({process, Ref, Pid, How, Opts}, _, _) -> {apply, Ref, process, [Pid, How, Opts]};
request({function, Ref, MFA, MS, Flags}, _, _) -> {apply, Ref, function, [MFA, MS, Flags]};
request({send, Ref, MS, Opts}, _, _) -> {apply, Ref, send, [MS, Opts]};
request({recv, Ref, MS, Opts}, _, _) -> {apply, Ref, recv, [MS, Opts]};
request({info, Ref, What, Item}, _, _) -> {apply, Ref, info, [What, Item]};
request({session_info, What}, _, _) -> {session_info, What};
request({delivered, Ref, Pid}, _, Wait) -> {delivered, Ref, Pid, Wait};
request({system, Ref, Event, Value}, _, _) -> {apply, Ref, system, [Event, Value]};
%% `apply trace:Fn(...)` (C-280): the arguments as the case wrote them
request({call, none, Fn, Args}, _, _) -> {apply_plain, Fn, Args};
request({call, Ref, Fn, Args}, _, _) -> {apply, Ref, Fn, Args}.

%% The Tracer argument of session_create/3 for a declared session.
tracer(Name, #{decls := Decls, states := States, recorders := Recorders}) ->
    State = proplists:get_value(Name, States),
    case lists:keyfind(Name, 1, Decls) of
        {Name, recorder, _, _} -> {element(2, lists:keyfind(Name, 1, Recorders)), State};
        {Name, erl_msg_tracer, _, _} -> {erl_msg_tracer, State};
        {Name, process, _, _} -> State;
        %% each trace step names its process's tracer, {tracer, T} (OTP_SUITES.md F-3)
        {Name, undefined, _, _} -> undefined
    end.

%% --- the holder --------------------------------------------------------------

%% Replies {holder, [{{CallText, Args}, Outcome}]}: one control line per call,
%% with handles, references and recorder modules made printable.
hold(St) ->
    receive
        {{create, Name, Tracer, Opts}, From} ->
            Outcome = outcome(fun() -> trace:session_create(Name, Tracer, Opts) end),
            St1 = remember(Name, Outcome, St),
            reply(From, St1, [{{"trace:session_create", [Name, Tracer, Opts]}, Outcome}]),
            hold(St1);
        {{drop, Name}, From} ->
            #{strong := Strong} = St,
            collect_garbage(St#{strong := maps:remove(Name, Strong)}, From);
        {{apply, Ref, F, Args}, From} ->
            Handle = handle(Ref, St),
            Outcome = outcome(fun() -> apply(trace, F, [Handle | Args]) end),
            reply(From, St, [{{"trace:" ++ atom_to_list(F), [Handle | Args]}, Outcome}]),
            hold(St);
        {{spread, Ref, Fun, Spec, How, Opts, Scenario}, From} ->
            Handle = handle(Ref, St),
            Before = tcs_runner_lib:node_counts(),
            Call = fun() -> trace:Fun(Handle, Spec, How, Opts) end,
            %% the holder is traced too until confine/2 (tcs_procflags; fuzz/FINDINGS.md, V11)
            How =:= true andalso erlang:garbage_collect(),
            Outcome = outcome(Call),
            How =:= true andalso confine(Handle, Scenario),
            Counted = tcs_runner_lib:count(Outcome, Before, tcs_runner_lib:node_counts()),
            reply(From, St, [{{"trace:" ++ atom_to_list(Fun), [Handle, Spec, How, Opts]}, Counted}]),
            hold(St);
        {{apply_plain, F, Args}, From} ->
            Outcome = outcome(fun() -> apply(trace, F, Args) end),
            reply(From, St, [{{"trace:" ++ atom_to_list(F), Args}, Outcome}]),
            hold(St);
        {{session_info, What}, From} ->
            reply(From, St, [{{"trace:session_info", [What]}, outcome(fun() -> trace:session_info(What) end)}]),
            hold(St);
        {{delivered, Ref, Pid, Wait}, From} ->
            Handle = handle(Ref, St),
            Call = {"trace:delivered", [Handle, Pid]},
            case outcome(fun() -> trace:delivered(Handle, Pid) end) of
                {ok, Delivered} = Outcome ->
                    %% delivered/2 answers with a message once the trace
                    %% messages of Pid have all reached their tracers.
                    Message = receive {trace_delivered, Pid, Delivered} = M -> {ok, M}
                              after Wait -> {raised, exit, timeout}
                              end,
                    reply(From, St, [{Call, Outcome}, {{"receive", []}, Message}]);
                Raised ->
                    reply(From, St, [{Call, Raised}])
            end,
            hold(St)
    end.

%% The flags the session set on every process and port but the scenario's
%% taken off again, the holder's own first (it goes on running).
confine(Handle, Scenario) ->
    catch trace:process(Handle, self(), false, [all]),
    [catch trace:process(Handle, P, false, [all]) || P <- erlang:processes() -- Scenario],
    [catch trace:port(Handle, P, false, [all]) || P <- erlang:ports() -- Scenario],
    ok.

remember(Name, {ok, {_, Weak} = Strong}, #{strong := S, weak := W} = St) ->
    St#{strong := S#{Name => Strong}, weak := W#{Name => Weak}};
remember(_, _, St) ->
    St.

%% Only the new state is alive here: the dropped handle is garbage.
collect_garbage(St, From) ->
    Outcome = {ok, erlang:garbage_collect()},
    reply(From, St, [{{"erlang:garbage_collect", []}, Outcome}]),
    hold(St).

%% A session whose creation failed on this node has no handle: the call gets
%% {no_handle, Name} instead (and fails, visibly, rather than the holder).
handle({weak, legacy}, _) -> {legacy, default};
handle({term, T}, _) -> T; % a term that is no handle, passed as it is (SESSION-NOT-A-HANDLE)
handle({weak, Name}, #{weak := W}) -> maps:get(Name, W, {no_handle, Name});
handle(Name, #{strong := S}) -> maps:get(Name, S, {no_handle, Name}).

reply(From, St, Lines) ->
    From ! {holder, [{{Fun, printable(Args, St)}, printable(Outcome, St)} || {{Fun, Args}, Outcome} <- Lines]}.

%% A call of module trace that raises: with the extended error information
%% of the exception, where OTP gives one (PROTOCOLS.md section 6).
outcome(Fun) ->
    try {ok, Fun()}
    catch Class:Reason:Stack -> {raised, Class, Reason, error_info(Reason, Stack)}
    end.

%% The error_info map of the top frame, and the arguments (1-based) its
%% module's format_error/2 explains; none without one.  The explanations'
%% wording is the formatter's, not part of the stream.
error_info(Reason, [{_, _, _, Where} | _] = Stack) ->
    case proplists:get_value(error_info, Where) of
        #{module := Module} = Info ->
            Explained = try maps:keys(Module:format_error(Reason, Stack))
                        catch _:_ -> [format_error_failed]
                        end,
            {Info, lists:sort(Explained)};
        _ -> none
    end;
error_info(_, _) -> none.

printable(T, _) when is_reference(T) -> placeholder("_Ref");
printable(T, #{recorders := Recorders}) when is_atom(T) ->
    case lists:member(T, Recorders) of
        true -> recorder;
        false -> T
    end;
printable({Name, Id} = T, #{weak := W} = St) when is_atom(Name), is_integer(Id) ->
    case maps:get(Name, W, none) of
        T -> {Name, placeholder("_Id")};
        _ -> {Name, printable(Id, St)}
    end;
printable(T, St) when is_tuple(T) -> list_to_tuple(printable(tuple_to_list(T), St));
printable([H | T], St) -> [printable(H, St) | printable(T, St)];
printable(T, St) when is_map(T) -> maps:from_list(printable(maps:to_list(T), St));
printable(T, _) -> T.

placeholder(Text) -> {'$tcs_placeholder', Text}.
