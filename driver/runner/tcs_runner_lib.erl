%% What tcs_runner and its step modules (tcs_sessions, tcs_procflags,
%% tcs_ports, tcs_seq) share: the output protocol's markers, control lines,
%% canonical terms, steps done by a scenario process, the tracer state
%% processes that collect records, and loading a recorder variant.
%%
%% A leaf: it calls none of the runner's modules above it (only tcs_gate,
%% tcs_settle and tcs_canon, which call back into nothing), so the step
%% modules depend on it and never on tcs_runner.
%%
%% The output protocol (PROTOCOLS.md, section 5): out/1,2 writes one
%% marker line "TCS Kind Text" to stdout and, synchronously, to the progress
%% file $TCS_PROGRESS names; stream lines ("TCS LINE Body") go to stdout
%% (tcs_runner), and with the plan's {step_lines, true} to the progress file
%% too, step by step (out_after/2).
-module(tcs_runner_lib).
-export([out/1, out/2, out_after/2, ctl/4, canon/2, collect/0, load_recorder/3, hold/1, node_counts/0, count/3,
         puppet_step/4, after_puppet_step/2, step_result/5, tracer_option/2, tracer/2, recorder_named/2, utf8_output/0,
         literals_released/0, trace_cleaner_idle/1, trace_cleaner_stack/0, recorder_stub/1, stub_source/1, consult/1]).

%% The optional callbacks in the model's bit order (generated: tcsref tags).
-include("tcs_tags.hrl").

%% --- the output protocol ----------------------------------------------------

%% A protocol marker (OTP, STEP, TIMEOUT, END...).  It also goes to the file
%% $TCS_PROGRESS names, written synchronously: standard output is written
%% asynchronously, and what is still buffered is lost when a tracer aborts
%% the node, yet the last step started is the evidence of where it crashed.
out(Text) -> out_after([], Text).
out(Fmt, Args) -> out(io_lib:format(Fmt, Args)).

%% A marker preceded, in the progress file only and in the same write, by
%% stream lines (Bodies): a node that dies after the write has both, before
%% it neither.
out_after(Bodies, Text) ->
    Marker = ["TCS ", Text, "\n"],
    case progress_file() of
        none -> ok;
        File -> ok = file:write(File, unicode:characters_to_binary([[["TCS LINE ", B, "\n"] || B <- Bodies], Marker]))
    end,
    io:put_chars(Marker).

%% The progress file, opened once by each process that writes to it (a job's runner, the batch) and
%% closed when that process ends: opened and closed for each marker, it took 0.16 ms a marker on a
%% loaded machine, twenty markers in a job of ten steps.  Each write is still one write(2), in
%% append mode and unbuffered, so a node that dies after it has left it in the file.
progress_file() ->
    case get(tcs_progress_file) of
        undefined ->
            File = case os:getenv("TCS_PROGRESS") of
                       false -> none;
                       Path -> {ok, Opened} = file:open(Path, [append, raw, binary]), Opened
                   end,
            put(tcs_progress_file, File),
            File;
        File -> File
    end.

%% Standard output in UTF-8, the stream's encoding, on every release (OTP 25 starts it in latin1, which
%% cannot write an atom beyond Latin-1 and writes one within it as one byte).
utf8_output() -> ok = io:setopts(standard_io, [{encoding, unicode}]).

%% consult(Path): what file:consult/1 gives for a job or plan file (UTF-8, PROTOCOLS.md sections 2
%% and 4), read whole and parsed here: file:consult/1 reads it through an I/O server, term by term,
%% 0.3 ms for a plan of ten steps on a quiet machine against 0.08, and a job reads two or three.
consult(Path) ->
    case file:read_file(Path) of
        {ok, Bin} ->
            case erl_scan:string(unicode:characters_to_list(Bin)) of
                {ok, Tokens, _} -> parse_terms(Tokens, []);
                {error, Why, _} -> {error, Why}
            end;
        {error, _} = Failed -> Failed
    end.

parse_terms([], Terms) -> {ok, lists:reverse(Terms)};
parse_terms(Tokens, Terms) ->
    case lists:splitwith(fun(T) -> element(1, T) =/= dot end, Tokens) of
        {Term, [Dot | Rest]} ->
            case erl_parse:parse_term(Term ++ [Dot]) of
                {ok, T} -> parse_terms(Rest, [T | Terms]);
                {error, _} = Failed -> Failed
            end;
        {_, []} -> {error, {no_dot_after, element(2, hd(Tokens))}}
    end.

%% --- control lines and canonical terms -------------------------------------

%% A control line carries a number from the counter the recorder stamps its
%% records with: one order for all of them (print_records).
ctl(Collector, Call, {ok, Value}, Names) ->
    put(tcs_last_answer, Value), % what a named reading keeps (tcs_runner, {reading, ...})
    Collector ! {ctl, erlang:unique_integer([monotonic]), ["ctl ", Call, " -> ", canon(Value, Names)]};
ctl(Collector, Call, {placeholder, Text}, _Names) ->
    Collector ! {ctl, erlang:unique_integer([monotonic]), ["ctl ", Call, " -> ", Text]};
ctl(Collector, Call, {raised, Class, Reason}, Names) ->
    ctl(Collector, Call, {raised, Class, Reason, none}, Names);
ctl(Collector, Call, {raised, Class, Reason, ErrorInfo}, Names) ->
    Collector ! {ctl, erlang:unique_integer([monotonic]),
                 ["ctl ", Call, " raises ", atom_to_list(Class), ":", canon(Reason, Names),
                  error_info_text(ErrorInfo, Names)]}.

%% " error_info #{...} explains [N,...]": the extended error information of a
%% raise (tcs_sessions), printed after its reason (PROTOCOLS.md section 6).
error_info_text(none, _) -> [];
error_info_text({Info, Explained}, Names) ->
    [" error_info ", canon(Info, Names), " explains ", canon(Explained, Names)].

pid_names(Names) -> maps:from_list([{P, N} || {N, P} <- maps:to_list(Names)]).

canon(Term, Names) -> tcs_canon:term(Term, pid_names(Names)).

%% --- steps done by a scenario process ---------------------------------------

after_puppet_step(timeout, _Names) -> timeout;
after_puppet_step({done, _}, Names) -> {ok, Names}.

%% A step done by a scenario process: hand it over, wait for its result.
%% A raise is reported as the control line "<P> Step(Arg,...) raises C:R"
%% (e.g. "<a> call(tcs_target,check,[x]) raises error:x"); the model predicts
%% it where the documents say the step raises, so elsewhere it is a difference.
puppet_step(Who, Action, Names, #{gate := Gate, collector := C, timeout := Timeout}) ->
    ok = tcs_gate:give(Gate, maps:get(Who, Names), Action),
    case tcs_gate:await_result(Gate, Timeout) of
        timeout -> timeout;
        {ok, blocked} ->
            tcs_settle:until_blocked(maps:get(Who, Names)),
            {done, blocked};
        {ok, Result} when element(1, Result) =:= ok; element(1, Result) =:= raised ->
            step_result(C, Who, Action, Result, Names),
            {done, Result};
        {ok, Result} -> {done, Result}
    end.

%% The control line of a step's result, if it has one: a raise, the answer of
%% erlang:match_spec_test/3 (MS-TEST-RESULT), or that of erlang:trace_pattern/3 by a process, or
%% what it raised (PATTERN-BY-PROCESS); also of the steps of a together block, whose
%% results the harness gets once every process is done (tcs_together).
step_result(C, Who, Action, {raised, Class, Reason}, Names) ->
    [Step | Args] = tuple_to_list(Action),
    ctl(C, ["<", atom_to_list(Who), "> ", atom_to_list(Step), "(",
            lists:join(",", [canon(A, Names) || A <- Args]), ")"],
        {raised, Class, Reason}, Names);
step_result(C, Who, {match_spec_test, Args, MS, trace}, {ok, Answer}, Names) ->
    ctl(C, ["<", atom_to_list(Who), "> erlang:match_spec_test(", canon(Args, Names), ",", canon(MS, Names),
            ",trace)"], {ok, Answer}, Names);
step_result(C, Who, {pattern, Target, MS, Opts}, {ok, Outcome}, Names) ->
    ctl(C, ["<", atom_to_list(Who), "> erlang:trace_pattern(", canon(Target, Names), ",", canon(MS, Names), ",",
            canon(Opts, Names), ")"], Outcome, Names);
step_result(_C, _Who, _Action, {ok, _}, _Names) -> ok.

%% --- tracer state processes and the recorder ---------------------------------

%% A tracer state process: it keeps what it receives, each item with a number
%% from the runtime's monotonic counter taken when it arrives.  {collected, From}
%% hands them all over and ends it; {'$tcs_peek', From} hands over those that
%% came since the last peek and goes on (each step of a case that may crash its
%% node writes them: handing over all of them each time made an 800-step case's
%% cost grow with the square of its steps).
%% The items are kept in a table, off the process's heap: every process of the node is
%% watched by a large_heap system monitor a case sets (C-640), and a list of them on the heap
%% grew with the case (75113 words after a collection in a 355-line case, about 3 million
%% with a 10 MB term, 1.8 million in a busy loop: measured on 25, 27, 29).
collect() ->
    Table = ets:new(tcs_records, [ordered_set, private]),
    collect(Table, erlang:unique_integer([monotonic])).

collect(Table, Handed) ->
    receive
        {collected, From} -> From ! {records, ets:tab2list(Table)};
        {'$tcs_peek', From} ->
            New = ets:select(Table, [{{'$1', '_'}, [{'>', '$1', Handed}], ['$_']}]),
            From ! {records, New},
            collect(Table, case New of [] -> Handed; _ -> element(1, lists:last(New)) end);
        Record ->
            ets:insert(Table, {erlang:unique_integer([monotonic]), Record}),
            collect(Table, Handed)
    end.

%% The {tracer, ...} option of erlang:trace/3 for the legacy tracer: a tracer
%% process (`tracer process`) or a tracer module with its state.
tracer_option(process, State) -> {tracer, State};
tracer_option(Mod, State) -> {tracer, Mod, State}.

%% The legacy tracer's state as it stands: the port of a `tracer port` step once
%% it has run (PORT-TRACER), else the state the case began with.
tracer(State, Names) -> maps:get(tracer_port, Names, State).

%% recorder_named(Option, Module): a tracer the case names, {tracer | meta, recorder,
%% State}, is the case's tracer module (TRACER-OPTION); any other option stays as written.
recorder_named({Key, recorder, State}, Mod) when Key =:= tracer; Key =:= meta -> {Key, Mod, State};
recorder_named(Option, _) -> Option.

%% One recorder variant with its answer tables (nif_impls/recorder).  Its
%% module loads its NIF library in its on_load function, with the library and
%% answers kept in the public table ?RECORDERS, and its beam is also written to a
%% directory on the code path (beside the progress file, in the node's scratch
%% directory): so after a `tracer unload` step the runtime can load it again
%% on demand, as erlang:trace/3 does for a tracer module that is not loaded
%% (TRACER-LOAD-ON-DEMAND).  A table, not a persistent term: each job's answers
%% would replace the last job's, and a replaced value's literal area is released
%% when the runtime gets to it, with a copy request to every process (tcs_runner's
%% gate/0 says what a scenario process in a dirty NIF makes of one).  The table
%% belongs to the job's process and goes with it.
-define(RECORDERS, tcs_recorders).
load_recorder(Mod, Path, Answers) ->
    case ets:info(?RECORDERS, id) of
        undefined -> ?RECORDERS = ets:new(?RECORDERS, [named_table, public]);
        _ -> ok
    end,
    true = ets:insert(?RECORDERS, {Mod, Path, Answers}),
    {module, Mod} = code:load_binary(Mod, "tcs_recorder_stub", recorder_stub_beam(Mod)),
    ok.

save_beam(Mod, Bin) ->
    case os:getenv("TCS_PROGRESS") of
        false -> ok;  % run by hand: no on-demand loading
        Progress ->
            Dir = filename:join(filename:dirname(Progress), "recorders"),
            ok = filelib:ensure_dir(filename:join(Dir, "x")),
            ok = file:write_file(filename:join(Dir, atom_to_list(Mod) ++ ".beam"), Bin),
            true = code:add_patha(Dir),
            ok
    end.

%% The recorder's Erlang module (its beam): a stub for every callback the
%% behaviour declares; the NIF library replaces exactly those in its function
%% table.  Made and saved once per variant and node (it depends on the module
%% name only): writing the beam and putting its directory first on the code path
%% again took 0.4 to 0.9 ms per job on OTP 25 and 27, 4 to 5 ms on 29.
recorder_stub_beam(Mod) ->
    case persistent_term:get({tcs_recorder_stub, Mod}, none) of
        none ->
            Made = recorder_stub(Mod),
            ok = save_beam(Mod, Made),
            persistent_term:put({tcs_recorder_stub, Mod}, Made),
            Made;
        Known -> Known
    end.

%% recorder_stub(Mod): the stub named Mod, the release's compiler's own code for it.  Variants
%% differ in their name only, so the compiler makes one stub's assembly, named ?STUB_TEMPLATE,
%% once per node, and each variant's is that assembly with the name replaced, assembled
%% (from_asm): every chunk of the beam but the compiler's options (CInf) is the one compiling
%% the variant's source gives (test_recorder_stub.py).  Compiling each variant took 3 to 9 ms
%% (a fuzz job's whole steps took about 15), assembling takes 0.1 to 0.2.
-define(STUB_TEMPLATE, tcs_recorder_template).
recorder_stub(Mod) ->
    Assembly = case persistent_term:get(tcs_recorder_template, none) of
                   none ->
                       {ok, ?STUB_TEMPLATE, Asm} = compile:forms(parse_forms(stub_source(?STUB_TEMPLATE)),
                                                                 [to_asm, binary, return_errors]),
                       persistent_term:put(tcs_recorder_template, Asm),
                       Asm;
                   Asm -> Asm
               end,
    {ok, Mod, Bin} = compile:forms(renamed(Assembly, Mod), [from_asm, binary, return_errors]),
    Bin.

renamed(?STUB_TEMPLATE, Mod) -> Mod;
renamed(T, Mod) when is_tuple(T) -> list_to_tuple(renamed(tuple_to_list(T), Mod));
renamed([H | T], Mod) -> [renamed(H, Mod) | renamed(T, Mod)];
renamed(M, Mod) when is_map(M) -> maps:from_list(renamed(maps:to_list(M), Mod));
renamed(T, _) -> T.

stub_source(Mod) ->
    Callbacks = [{enabled, 3}, {trace, 5}] ++
        [{F, case atom_to_list(F) of "enabled_" ++ _ -> 3; "trace_" ++ _ -> 5 end}
         || F <- ?TCS_OPTIONAL_CALLBACKS],
    Stubs = [io_lib:format("~p(~s) -> erlang:nif_error(not_loaded).~n",
                           [F, lists:join(",", lists:duplicate(A, "_"))]) || {F, A} <- Callbacks],
    Exports = [io_lib:format("~p/~p,", [F, A]) || {F, A} <- Callbacks],
    lists:flatten(["-module(", atom_to_list(Mod), ").\n-export([", lists:droplast(lists:flatten(Exports)),
                   "]).\n-on_load(init/0).\n",
                   "init() -> [{_, Path, Answers}] = ets:lookup(", atom_to_list(?RECORDERS), ", ", atom_to_list(Mod), "),\n",
                   "          erlang:load_nif(Path, Answers).\n", Stubs]).

parse_forms(Src) ->
    {ok, Tokens, _} = erl_scan:string(Src),
    split_forms(Tokens, []).

split_forms([], Acc) -> lists:reverse(Acc);
split_forms(Tokens, Acc) ->
    {Form, [Dot | Rest]} = lists:splitwith(fun(T) -> element(1, T) =/= dot end, Tokens),
    {ok, F} = erl_parse:parse_form(Form ++ [Dot]),
    split_forms(Rest, [F | Acc]).

%% --- erlang:trace(all | existing, ...) and trace:process(S, all | existing, ...)

%% hold(Keep): suspends every process but the caller and those in Keep (the
%% scenario's, and the sessions' handle holder that makes a session's call);
%% returns them, to be resumed once the flags the call gave them are cleared.
%% Those of priority max are held too (the handler of signals to processes in
%% dirty NIFs, global_group): left running, one collected while it was traced,
%% before the flags were taken back, and the case got its gc lines (seed
%% 20261201, fuzz_20261201_2389, in a shared node only; fuzz/FINDINGS.md, V11).
hold(Keep) ->
    Others = erlang:processes() -- [self() | Keep],
    [P || P <- Others, (catch erlang:suspend_process(P)) =:= true].

node_counts() ->
    {erlang:system_info(process_count), erlang:system_info(port_count)}.

%% What erlang:trace/3 (trace:process/4) returned.  For all and existing that
%% is how many processes (and ports) of the node matched: the runner checks it
%% against the node's own counts, unchanged across the call, and prints which
%% count it was as the placeholder the model predicts (PROCS-SPEC-COUNT); any
%% other number is printed as is.
count({ok, N}, {Procs, Ports}, {Procs, Ports}) when N > 0 ->
    {placeholder, count_name(N, Procs, Ports)};
count(Outcome, _, _) ->
    Outcome.

count_name(N, N, _) -> "_Processes";
count_name(N, _, N) -> "_Ports";
count_name(N, Procs, Ports) when N =:= Procs + Ports -> "_ProcessesAndPorts";
count_name(N, _, _) -> integer_to_list(N).

%% --- purges --------------------------------------------------------------------

%% Waits until the literal area collector has no copy request out.  Purging a module
%% (the tracer modules in clean/2, tcs_late) hands its literal area to that process,
%% which goes on after code:purge/1 has returned: it takes erlang:processes() and sends
%% every process a copy request (erts_literal_area_collector.erl, switch_area/0).  A
%% scenario process of the next job that gets one while it waits in a receive is
%% scheduled in and out again: seed 20261211 (fuzz group P3, OTP 25), a second out/in
%% pair at {erlang,open_port,2} in a shared node only (CONFORMANCE.md C-420; probe
%% fuzz/probes/open_port_waits.erl, modes before and before_idle).  The collector answers
%% {get_status, Ref, From} with idle or working (OTP 25 and later); it handles its
%% messages in order, so the copy_literals of a purge that returned comes first.  The
%% wait between polls lets this process answer its own copy request.  Bounded (5 s): a
%% collector that stays busy leaves the run as before, and the driver's replay of a
%% disagreeing case in a fresh node still stands.  A scenario's own purge (`unload`,
%% `tracer unload`: tcs_runner) waits too, so that its copy requests come during that
%% step, not in a later one (fuzz seed 777001: an `unload tcs_late`, then a second
%% out/in pair at {erlang,open_port,2} and a gc on OTP 29 in 3 runs of 15).
%%
%% The harness replaces no persistent term's value while the node runs jobs: the
%% runtime releases a replaced value's area after thread progress, when it gets to it,
%% which no wait here bounds (tcs_runner:gate/0; the wait for thread progress that this
%% function began with did not suffice on 29 in the CI of the 37th session).
literals_released() ->
    literals_released(system_process(erts_literal_area_collector), 5000).

%% Waits until the trace cleaner is idle.  The end of a trace session (clean/2 in
%% tcs_batch destroys each job's) reaches every process after trace:session_destroy/1
%% has returned: the runtime notifies erts_trace_cleaner (OTP 27 and later), which takes
%% erlang:processes() and sends each a trace clean request, one by one, waiting for their
%% acknowledgements (erts_trace_cleaner.erl, call_check/0 and loop/4).  A process that
%% gets one is scheduled out and in where it waits (RUN-WAKE-SESSION-END, C-820); on a
%% loaded machine the cleaner can run late enough to take the next job's processes.  It
%% has no status question; idle is where it waits for notify with nothing to do: waiting,
%% an empty queue, and no more stack than it had when the batch began (IdleStack; on 27
%% and 29 one word, five while it waits for acknowledgements, none once it hibernates).
%% Bounded (5 s), as literals_released/0.
trace_cleaner_idle(IdleStack) ->
    trace_cleaner_idle(system_process(erts_trace_cleaner), IdleStack, 5000).

%% trace_cleaner_stack(): the cleaner's stack size now (none: no cleaner, OTP 25).
trace_cleaner_stack() ->
    case system_process(erts_trace_cleaner) of
        none -> none;
        Cleaner -> element(2, erlang:process_info(Cleaner, stack_size))
    end.

trace_cleaner_idle(none, _, _) -> ok;
trace_cleaner_idle(_, _, Left) when Left =< 0 -> ok;
trace_cleaner_idle(Cleaner, IdleStack, Left) ->
    case erlang:process_info(Cleaner, [status, message_queue_len, stack_size]) of
        [{status, waiting}, {message_queue_len, 0}, {stack_size, S}] when S =< IdleStack -> ok;
        _ -> receive after 1 -> trace_cleaner_idle(Cleaner, IdleStack, Left - 1) end
    end.

%% The runtime's own process started with Module:start/0 (none if this runtime has none),
%% looked up once per process that asks.
system_process(Module) ->
    case get({tcs_system_process, Module}) of
        undefined ->
            Found = [P || P <- processes(),
                          erlang:process_info(P, initial_call) =:= {initial_call, {Module, start, 0}}],
            Pid = case Found of [One] -> One; _ -> none end,
            put({tcs_system_process, Module}, Pid),
            Pid;
        Pid -> Pid
    end.

%% A runtime without that collector (another build of OTP): nothing to wait for.
literals_released(none, _Left) -> ok;
literals_released(_Collector, Left) when Left =< 0 -> ok;
literals_released(Collector, Left) ->
    Ref = make_ref(),
    Collector ! {get_status, Ref, self()},
    receive
        {Ref, idle} -> ok;
        {Ref, working} -> receive after 1 -> literals_released(Collector, Left - 1) end
    after 1000 -> ok
    end.
