%% What the ./tcs validate jobs (tcs_validate_*) share: the job file, loading
%% the tracer under test, its state, the harness's sink processes, the input
%% space of the erl_tracer callbacks, and the output protocol.
%%
%% The job file and the output protocol (markers in the job's progress
%% file, written synchronously so that a node killed by its tracer keeps every
%% line it wrote) are specified in PROTOCOLS.md, sections 4 and 5.
-module(tcs_validate_lib).
-export([start/1, read_job/1, option/2, option/3, parse_state/2, load_tracer/2, log/2,
         out/2, out/3, step/3, finding/3, finish/1, done/0]).
-export([system_monitor/1, monitored/1]).
-export([sink/0, drain/0, clear/1, messages/1, effects/1, tracee_effects/1,
         context/1, call/2, each/3, describe/2]).
-export([categories/0, callback_for/3, enabled_inputs/1, trace_inputs/1, inputs/2, input_key/1]).

%% The tag table (generated from the model: tcsref tags).
-include("tcs_tags.hrl").

%% --- the job ---------------------------------------------------------------

%% start(JobFile): the context every job except the shape job starts from:
%% the job, the loaded tracer module, its NIFs, the state and the sinks.
start(JobFile) ->
    Job = read_job(JobFile),
    StateSink = sink(),
    {ok, State} = parse_state(option(state, Job, default), StateSink),
    Module = option(module, Job),
    case load_tracer(Module, option(beam, Job)) of
        {ok, _How, Nifs} ->
            context(#{job => Job, module => Module, nifs => Nifs,
                      state => State, state_sink => StateSink});
        {error, Why} ->
            out("ABORT", "the tracer module did not load: ~0tp", [Why]),
            halt(1)
    end.

%% read_job(JobFile): the job's terms; the node works in the job's directory,
%% where the tracer's beam and library are.
read_job(JobFile) ->
    {ok, Job} = file:consult(JobFile),
    {ok, Progress} = file:open(option(progress, Job), [write, binary]),
    persistent_term:put(tcs_progress, Progress),
    sanitize_log(option(sanitize_log, Job, none)),
    out("OTP", "~s", [erlang:system_info(otp_release)]),
    ok = file:set_cwd(option(dir, Job)),
    Job.

%% A node under valgrind (validate --sanitize) also appends each STEP line to
%% valgrind's XML log, one with an ASan build of the tracer to its own stderr
%% file, where ASan writes: both append to one file (O_APPEND), so an error
%% there lies after the step that ran into it.
sanitize_log(none) -> ok;
sanitize_log(Path) ->
    %% raw: written by this process itself, the one that calls the tracer (tcs_validate_calls)
    {ok, Log} = file:open(Path, [append, raw, binary]),
    persistent_term:put(tcs_sanitize_log, Log).

option(Key, Job) ->
    {Key, Value} = lists:keyfind(Key, 1, Job),
    Value.

option(Key, Job, Default) when is_list(Job) ->
    case lists:keyfind(Key, 1, Job) of
        {Key, Value} -> Value;
        false -> Default
    end;
option(Key, #{job := Job}, Default) -> option(Key, Job, Default).

%% parse_state(Text | default, Pid): the tracer state.  The default is Pid; in
%% a given term the atom '$harness' stands for Pid.  Errors carry {Line, Col}.
parse_state(default, Pid) -> {ok, Pid};
parse_state(Text, Pid) ->
    Trimmed = string:trim(Text),
    Source = case lists:suffix(".", Trimmed) of
                 true -> Trimmed;
                 false -> Trimmed ++ " ."
             end,
    case erl_scan:string(Source, {1, 1}) of
        {ok, Tokens, _} ->
            case erl_parse:parse_term(Tokens) of
                {ok, Term} -> {ok, substitute(Term, Pid)};
                {error, {Where, Mod, Desc}} -> {error, Where, Mod:format_error(Desc)}
            end;
        {error, {Where, Mod, Desc}, _} -> {error, Where, Mod:format_error(Desc)}
    end.

substitute('$harness', Pid) -> Pid;
substitute(T, Pid) when is_tuple(T) -> list_to_tuple(substitute(tuple_to_list(T), Pid));
substitute([H | T], Pid) -> [substitute(H, Pid) | substitute(T, Pid)];
substitute(M, Pid) when is_map(M) -> maps:from_list(substitute(maps:to_list(M), Pid));
substitute(T, _) -> T.

%% load_tracer(Module, BeamPath): loads the module; its NIF library is loaded
%% by its -on_load function or, failing that, by its exported load/0 (as in
%% the documentation's example).  {ok, on_load | load, Nifs} | {error, Why}
%% where Why is {on_load, Text} (Text: what OTP logged about the failed
%% on_load, the only place its reason is given), {load_module, Reason},
%% {load_0_returned, Term} or no_nif_library.
load_tracer(Module, Beam) ->
    step("load", "-", "loading the tracer module and its NIF library"),
    %% code_server logs the on_load failure after load_abs/1 has returned,
    %% through the logger: a handler hands it over.
    ok = logger:add_handler(tcs_on_load, ?MODULE, #{level => all, config => #{to => self(), module => Module}}),
    Loaded = code:load_abs(filename:rootname(Beam)),
    Result = case Loaded of
                 {module, Module} ->
                     case Module:module_info(nifs) of
                         [] -> load_by_function(Module);
                         Nifs -> {ok, on_load, Nifs}
                     end;
                 {error, on_load_failure} -> {error, {on_load, on_load_said(Module)}};
                 {error, Why} -> {error, {load_module, Why}}
             end,
    _ = logger:remove_handler(tcs_on_load),
    Result.

on_load_said(Module) ->
    receive {tcs_on_load_said, Module, Text} -> Text
    after 5000 -> "(OTP logged no reason within 5 s)"
    end.

%% log/2: the logger handler of load_tracer/2 (logger's handler callback).
%% code_server logs through error_logger: a report with the format and its
%% arguments (OTP 25 to 29), the module first.
log(#{msg := {report, #{format := Format, args := [Module | _] = Args}}},
    #{config := #{to := To, module := Module}}) ->
    To ! {tcs_on_load_said, Module, one_line(io_lib:format(Format, Args))};
log(#{msg := {Format, [Module | _] = Args}}, #{config := #{to := To, module := Module}})
  when is_list(Format) ->
    To ! {tcs_on_load_said, Module, one_line(io_lib:format(Format, Args))};
log(_, _) -> ok.

one_line(Text) -> string:trim([case C of $\n -> $\s; _ -> C end || C <- lists:flatten(Text)]).

load_by_function(Module) ->
    case erlang:function_exported(Module, load, 0) of
        false -> {error, no_nif_library};
        true ->
            case catch Module:load() of
                ok -> {ok, load, Module:module_info(nifs)};
                Other -> {error, {load_0_returned, Other}}
            end
    end.

%% --- output ----------------------------------------------------------------

out(Kind, Text) -> out(Kind, "~ts", [Text]).
out(Kind, Fmt, Args) ->
    Line = [C || C <- lists:flatten(io_lib:format(Fmt, Args)), C =/= $\n, C =/= $\r],
    %% A file opened without raw is written by its own server process, which
    %% answers once write(2) is done: the line is kept even if a callback
    %% kills the node right after.
    Bytes = unicode:characters_to_binary([Kind, " ", Line, "\n"]),
    ok = file:write(persistent_term:get(tcs_progress), ["TCS ", Bytes]),
    Bytes.

step(Index, Key, Text) ->
    Line = out("STEP", "~s ~s ~ts", [Index, Key, Text]),
    case persistent_term:get(tcs_sanitize_log, none) of
        none -> ok;
        Log -> ok = file:write(Log, ["\nTCS-", Line])
    end.

finding(Index, Fmt, Args) -> out("FINDING", "~s " ++ Fmt, [Index | Args]).

%% finish(Module): the last step of a job that loaded the tracer, then END.  All tracing
%% of the node stops and the module is deleted and purged, so that the runtime unloads its
%% NIF library and calls the library's unload callback, as a code upgrade or a removal of
%% the tracer does.  A plain validate node runs with glibc's malloc check (validate/jobs.py,
%% MALLOC_DEBUG), which aborts the node at a free() of a block the tracer wrote past: such
%% a write shows here, at this step, whether or not it broke anything before.
finish(Module) ->
    step("unload", "-", "unloading the tracer module (its NIF library's unload callback frees "
         "what the library holds; glibc checks each block freed)"),
    _ = erlang:trace(all, false, [all]),
    _ = erlang:trace_pattern({'_', '_', '_'}, false, [local, meta, call_count, call_time]),
    _ = erlang:trace_pattern({'_', '_', '_'}, false, [global]),
    case erlang:function_exported(trace, session_info, 1) of
        true -> [catch trace:session_destroy(S) || S <- trace:session_info(all)];
        false -> ok
    end,
    _ = code:purge(Module),
    _ = code:delete(Module),
    _ = code:purge(Module),
    done().

done() ->
    out("END", ""),
    halt(0).

%% --- system monitoring -------------------------------------------------------

%% system_monitor(Ms): a process that keeps the long_schedule and long_gc
%% events of Ms milliseconds or more (erlang:system_monitor/2) for monitored/1.
system_monitor(Ms) ->
    Monitor = spawn(fun() -> monitor_loop([]) end),
    _ = erlang:system_monitor(Monitor, [{long_schedule, Ms}, {long_gc, Ms}]),
    Monitor.

%% monitored(Monitor): [{Kind, Who, Ms, Where}] since the last call, oldest first.
monitored(Monitor) ->
    Monitor ! {report, self()},
    receive {monitored, Events} -> lists:reverse(Events) end.

monitor_loop(Events) ->
    receive
        {report, From} ->
            From ! {monitored, Events},
            monitor_loop([]);
        {monitor, Who, Kind, Info} when Kind =:= long_schedule; Kind =:= long_gc ->
            Ms = proplists:get_value(timeout, Info, 0),
            Where = io_lib:format("~0tP ~0tP", [Who, 4, [I || {K, _} = I <- Info, K =/= timeout], 8]),
            monitor_loop([{Kind, Who, Ms, Where} | Events]);
        _ -> monitor_loop(Events)
    end.

%% --- sinks: processes whose mailbox shows what a tracer sent them ------------

%% sink(): a process that keeps every message it gets, until clear/1.
sink() -> spawn(fun sink_loop/0).

sink_loop() ->
    receive
        {'$tcs_clear', From, Ref} -> flush(), From ! {Ref, cleared}
    end,
    sink_loop().

flush() ->
    receive _ -> flush() after 0 -> ok end.

%% drain(): a process that throws every message away (a state for benchmarks).
drain() -> spawn(fun Loop() -> receive _ -> Loop() end end).

clear(Sink) ->
    Ref = make_ref(),
    Sink ! {'$tcs_clear', self(), Ref},
    receive {Ref, cleared} -> ok end.

messages(Pid) ->
    {messages, Messages} = erlang:process_info(Pid, messages),
    Messages.

%% --- the calling context ----------------------------------------------------

%% context(Ctx): adds the tracees synthetic calls pass (a sink process and a
%% port nothing else writes to) and processes named in trace terms (a peer,
%% and a dead process).
context(Ctx) ->
    Port = port_owned_by_drain(),
    put(tcs_port_output, port_output(Port)),
    Peer = sink(),
    %% the name a send to a registered name passes (tcs_validate_inputs)
    true = register(tcs_validate_name, Peer),
    Ctx#{tracee_pid => sink(), tracee_port => Port, peer => Peer, dead => dead_pid()}.

%% A port running cat, owned by a process that drops what cat echoes.
port_owned_by_drain() ->
    Parent = self(),
    Owner = spawn(fun() ->
                          Port = open_port({spawn_executable, os:find_executable("cat")}, [binary]),
                          Parent ! {self(), Port},
                          (fun Loop() -> receive _ -> Loop() end end)()
                  end),
    receive {Owner, Port} -> Port end.

dead_pid() ->
    Pid = spawn(fun() -> ok end),
    Ref = erlang:monitor(process, Pid),
    receive {'DOWN', Ref, process, Pid, _} -> Pid end.

port_output(Port) ->
    {output, Bytes} = erlang:port_info(Port, output),
    Bytes.

%% effects(Ctx): what callbacks sent since the last look, as [{Where, What}]:
%% messages to the state, the tracee, the peer or the caller, and port
%% commands to the tracee port.  What it saw is cleared.  A message a NIF
%% sends from this process is in the receiver's queue before process_info/2,
%% a signal from this process too, is handled.
effects(Ctx) ->
    Watched = [{"the tracer state process", maps:get(state_sink, Ctx)},
               {"the tracee", maps:get(tracee_pid, Ctx)},
               {"the peer process named in the trace term", maps:get(peer, Ctx)}],
    Sent = [{Where, {messages, messages(Pid)}} || {Where, Pid} <- Watched, has_messages(Pid)],
    [clear(Pid) || {_, Pid} <- Watched, has_messages(Pid)],
    Own = case messages(self()) of
              [] -> [];
              Mine -> flush(), [{"the calling process", {messages, Mine}}]
          end,
    Sent ++ Own ++ port_effects(Ctx).

%% tracee_effects(Ctx): only what reached the tracee (process or port).
tracee_effects(Ctx) ->
    Tracee = maps:get(tracee_pid, Ctx),
    Sent = case messages(Tracee) of
               [] -> [];
               Messages -> clear(Tracee), [{"the tracee", {messages, Messages}}]
           end,
    Sent ++ port_effects(Ctx).

%% The port's output counter is updated when the port handles the command, a
%% signal that comes before port_info/2's own from the same process.
port_effects(#{tracee_port := Port}) ->
    Before = get(tcs_port_output),
    case port_output(Port) of
        Before -> [];
        After ->
            put(tcs_port_output, After),
            [{"the tracee port", {port_command_bytes, After - Before}}]
    end.

has_messages(Pid) ->
    {message_queue_len, N} = erlang:process_info(Pid, message_queue_len),
    N > 0.

%% --- the input space --------------------------------------------------------

%% The categories of erl_tracer with their tags and the kinds of tracee the
%% runtime passes for them.  Which tags a category has comes from the model's
%% tag table (tcs_tags.hrl, generated from tcsref tags): for a process tracee
%% a tag's process category, for a port tracee its port category (so a port's
%% register and unregister are ports, PORTS-CATEGORY).
categories() ->
    [{Cat, tags_of(Cat, Kinds), Kinds} || {Cat, Kinds} <- tracee_kinds()].

%% The kinds of tracee of each category (spec 000, the trace_tag_*() types
%% and the flags they belong to): a category holds tags for pids or for ports.
tracee_kinds() ->
    [{send, [pid, port]}, {'receive', [pid, port]}, {call, [pid]}, {procs, [pid]},
     {ports, [port]}, {running_procs, [pid]}, {running_ports, [port]},
     {garbage_collection, [pid]}].

tags_of(Cat, [pid | _]) -> [Tag || {Tag, Process, _} <- ?TCS_TAGS, Process =:= Cat];
tags_of(Cat, [port]) -> [Tag || {Tag, _, Port} <- ?TCS_TAGS, Port =:= Cat].

%% callback_for(enabled | trace, Category, Nifs): the callback the runtime
%% calls for a tag of Category: the per-category NIF if the library has it.
callback_for(Base, Category, Nifs) ->
    Arity = case Base of enabled -> 3; trace -> 5 end,
    Specific = list_to_atom(atom_to_list(Base) ++ "_" ++ atom_to_list(Category)),
    case lists:member({Specific, Arity}, Nifs) of
        true -> Specific;
        false -> Base
    end.

%% enabled_inputs(Nifs): every {Callback, Tag, TraceeKind} the runtime can
%% call enabled*/3 with.  trace_status and seq_trace always go to enabled/3;
%% their tracee is undefined for a system-wide tracer (new processes, the
%% system seq tracer).
enabled_inputs(Nifs) ->
    [{callback_for(enabled, Cat, Nifs), Tag, Kind}
     || {Cat, Tags, Kinds} <- categories(), Kind <- Kinds, Tag <- Tags]
        ++ [{enabled, trace_status, Kind} || Kind <- [pid, port, undefined]]
        ++ [{enabled, seq_trace, Kind} || Kind <- [pid, undefined]].

%% trace_inputs(Nifs): every {Callback, Tag, TraceeKind, Opts} for trace*/5,
%% with the Opts the runtime makes for the tag (tcs_validate_inputs): extra
%% as the tag always has it or never, every other key present or absent and each timestamp kind, with the tag's first extra
%% shape and the highest scheduler id; then each other extra shape and each
%% other scheduler id once.  seq_trace always goes to trace/5 with a label
%% instead of a tracee, and only a timestamp.
trace_inputs(Nifs) ->
    [{callback_for(trace, Cat, Nifs), Tag, Kind, Opts}
     || {Cat, Tags, Kinds} <- categories(), Kind <- Kinds, Tag <- Tags, Opts <- opts_space(Tag, Kind)]
        ++ [{trace, seq_trace, Label, {none, false, none, Ts}}
            || Label <- [integer_label, term_label], Ts <- tcs_validate_inputs:timestamp_kinds()].

%% {Extra, MatchSpecResult, SchedulerId, Timestamp}: Extra and SchedulerId
%% none (no key) or a shape or id.
opts_space(Tag, Kind) ->
    {FirstExtra, OtherExtras} = first_and_rest(tcs_validate_inputs:extra_shapes(Tag, Kind)),
    {Highest, OtherIds} = first_and_rest(lists:reverse(tcs_validate_inputs:scheduler_ids())),
    %% A tag with extra always has it (erl_trace.c passes THE_NON_VALUE, no
    %% key, only for the tags without): never absent then.
    Always = case FirstExtra of [] -> [none]; _ -> FirstExtra end,
    [{E, M, S, T} || E <- Always,
                     M <- [false | [true || tcs_validate_inputs:has_match_spec_result(Tag)]],
                     S <- [none | Highest],
                     T <- tcs_validate_inputs:timestamp_kinds()]
        ++ [{E, false, none, none} || E <- OtherExtras]
        ++ [{E, false, S, none} || E <- Always, S <- OtherIds].

first_and_rest([]) -> {[], []};
first_and_rest([First | Rest]) -> {[First], Rest}.

input_key(Input) ->
    io_lib:format("~s/~s/~s", [element(1, Input), element(2, Input), element(3, Input)]).

%% --- calling the tracer -------------------------------------------------------

%% call(Input, Ctx): the callback's result, {ok, Value} or {raised, Class, Reason}.
call(Input, #{module := Module} = Ctx) ->
    {Callback, Args} = concrete(Input, Ctx),
    try {ok, apply(Module, Callback, Args)}
    catch Class:Reason -> {raised, Class, Reason}
    end.

concrete({Callback, Tag, Kind}, #{state := State} = Ctx) ->
    {Callback, [Tag, State, tracee(Kind, Ctx)]};
concrete({Callback, seq_trace, Label, Opts}, #{state := State} = Ctx) ->
    Info = {send, {0, 1}, maps:get(peer, Ctx), maps:get(peer, Ctx), {hello, seq}},
    {Callback, [seq_trace, State, label(Label), Info, opts(seq_trace, Opts, Ctx)]};
concrete({Callback, Tag, Kind, Opts}, #{state := State} = Ctx) ->
    {Callback, [Tag, State, tracee(Kind, Ctx), trace_term(Tag, Kind, Ctx), opts(Tag, Opts, Ctx)]}.

tracee(pid, Ctx) -> maps:get(tracee_pid, Ctx);
tracee(port, Ctx) -> maps:get(tracee_port, Ctx);
tracee(undefined, _) -> undefined.

label(integer_label) -> 17;
label(term_label) -> {tcs, label}.

%% Trace terms as the runtime builds them (003, the trace messages).
trace_term(send, _, _) -> {hello, [1, 2, 3]};
trace_term(send_to_non_existing_process, _, _) -> {hello, nobody};
trace_term('receive', _, _) -> {hello, <<"bytes">>};
trace_term(call, _, _) -> {tcs_validate_lib, sample, [1, two, "three"]};
trace_term(Tag, _, _) when Tag =:= return_to; Tag =:= return_from; Tag =:= exception_from ->
    {tcs_validate_lib, sample, 3};
trace_term(exit, _, _) -> {shutdown, tcs};
trace_term(closed, _, _) -> normal;
trace_term(Tag, _, _) when Tag =:= register; Tag =:= unregister -> tcs_name;
trace_term(Tag, pid, _) when Tag =:= in; Tag =:= out; Tag =:= in_exiting; Tag =:= out_exiting ->
    {tcs_validate_lib, sample, 3};
trace_term(Tag, port, _) when Tag =:= in; Tag =:= out; Tag =:= in_exiting; Tag =:= out_exiting ->
    command;
trace_term(out_exited, _, _) -> 0;
trace_term(Tag, _, _) when Tag =:= gc_minor_start; Tag =:= gc_minor_end;
                           Tag =:= gc_major_start; Tag =:= gc_major_end ->
    [{wordsize, 0}, {old_heap_block_size, 0}, {heap_block_size, 233}, {mbuf_size, 0},
     {recent_size, 0}, {stack_size, 12}, {old_heap_size, 0}, {heap_size, 98},
     {bin_vheap_size, 0}, {bin_vheap_block_size, 46422}, {bin_old_vheap_size, 0},
     {bin_old_vheap_block_size, 46422}];
%% spawn, spawned, open, link, unlink, getting_linked, getting_unlinked: a process
trace_term(_, _, Ctx) -> maps:get(peer, Ctx).

opts(_Tag, {Extra, MatchSpecResult, SchedulerId, Timestamp}, Ctx) ->
    maps:from_list([{extra, tcs_validate_inputs:value(Extra, Ctx)} || Extra =/= none]
                   ++ [{match_spec_result, {tcs, match_spec_result}} || MatchSpecResult]
                   ++ [{scheduler_id, SchedulerId} || SchedulerId =/= none]
                   ++ [{timestamp, Timestamp} || Timestamp =/= none]).

%% describe(Input, Ctx): the call as the user reads it in a verdict.
describe(Input, Ctx) ->
    {Callback, [Tag, _State, Third | Rest]} = concrete(Input, Ctx),
    Shown = [io_lib:format("~0tP", [A, 10]) || A <- Rest],
    io_lib:format("~s(~tp, State, ~ts~ts)~ts",
                  [Callback, Tag, third(Input, Third), [[", ", S] || S <- Shown], shapes_named(Input)]).

%% What a reader may not see in the terms: which shape an extra is, and that a
%% scheduler id is the highest or a dirty scheduler's.
shapes_named({_, _, _, {Extra, _, SchedulerId, _}}) ->
    Highest = erlang:system_info(schedulers),
    Named = [io_lib:format("extra: ~s", [extra_words(Extra)]) || Extra =/= none]
        ++ [io_lib:format("scheduler_id ~b: the highest scheduler", [Highest]) || SchedulerId =:= Highest]
        ++ ["scheduler_id 0: a dirty scheduler" || SchedulerId =:= 0],
    case Named of
        [] -> "";
        _ -> [" [", lists:join("; ", Named), "]"]
    end;
shapes_named(_) -> "".

extra_words(registered_name) -> "a locally registered name, as Name ! Msg passes it";
extra_words(name_node) -> "{Name, Node}";
extra_words(remote_pid) -> "a pid of another node";
extra_words(mfa) -> "{M, F, Args}";
extra_words(Shape) -> atom_to_list(Shape).

third({_, seq_trace, _, _}, Label) -> io_lib:format("~tp", [Label]);
third(Input, _) -> ["Tracee=", atom_to_list(element(3, Input))].

%% inputs(enabled | trace, Nifs): the whole input space of a callback family.
inputs(enabled, Nifs) -> enabled_inputs(Nifs);
inputs(trace, Nifs) -> trace_inputs(Nifs).

%% each(enabled | trace, Ctx, Fun): runs Fun(Index, Input) for every selected
%% input of that callback family, after its STEP line; returns the results.
%% The job selects with {skip, [Index]}, {skip_keys, [Key]} and, per family,
%% {only_enabled, [Index]} and {only_trace, [Index]} (default: all).
each(Family, #{nifs := Nifs} = Ctx, Fun) ->
    Inputs = inputs(Family, Nifs),
    Prefix = case Family of enabled -> "e"; trace -> "t" end,
    Skip = sets:from_list(option(skip, Ctx, [])),
    SkipKeys = sets:from_list(option(skip_keys, Ctx, [])),
    Only = case option(list_to_atom("only_" ++ atom_to_list(Family)), Ctx, all) of
               all -> all;
               List -> sets:from_list(List)
           end,
    Numbered = lists:zip(lists:seq(0, length(Inputs) - 1), Inputs),
    [begin
         step(Index, Key, describe(Input, Ctx)),
         Fun(Index, Input)
     end
     || {N, Input} <- Numbered,
        Index <- [Prefix ++ integer_to_list(N)],
        Key <- [lists:flatten(input_key(Input))],
        not sets:is_element(Index, Skip),
        not sets:is_element(Key, SkipKeys),
        Only =:= all orelse sets:is_element(Index, Only)].
