%% The shapes of the arguments the runtime passes to trace*/5, one table per
%% trace tag: what ./tcs validate synthesizes for its direct calls, and
%% nothing else.  Every shape names the document or OTP source line behind it
%% (spec 000 is erl_tracer's documentation, 003 the trace module's; erl_trace.c
%% and erl_process.h are OTP's erts/emulator/beam/ files).
%%
%% A leaf module: it knows no job and no tracer.  Its protocol:
%%   extra_shapes(Tag, TraceeKind)  -> [Shape]  the Opts `extra` values the
%%                                  runtime passes for Tag ([]: never a key)
%%   has_match_spec_result(Tag)     -> boolean() whether Opts can hold
%%                                  match_spec_result for Tag
%%   scheduler_ids()                -> [Id]     every scheduler_id this node
%%                                  can report, lowest first
%%   timestamp_kinds()              -> [Kind]   none (no key) and the values
%%   value(Shape, Ctx)              -> term()   a concrete term of a shape;
%%                                  Ctx holds peer, dead, tracee_port
%%   shape_of(Term)                 -> Shape    the shape a term has (the
%%                                  inverse of value/2, used to check that
%%                                  recorded runtime streams use no other)
%%   source(Shape | Key)            -> string() the line behind it
%%   table(Categories)              -> map()    all of it, for the driver's test
-module(tcs_validate_inputs).
-export([extra_shapes/2, has_match_spec_result/1, scheduler_ids/0, timestamp_kinds/0,
         value/2, shape_of/1, source/1, table/1]).

%% The registered name validate sends to (it is registered while validate runs).
-define(NAME, tcs_validate_name).

%% {Tag, TraceeKind}: the extra of each tag.  A tag not listed has none: the
%% runtime passes THE_NON_VALUE (no key) for it.
extra_shapes(send, pid) -> [pid, port, registered_name, name_node, remote_pid];
extra_shapes(send, port) -> [pid];
extra_shapes(send_to_non_existing_process, _) -> [dead_pid];
extra_shapes(Tag, pid) when Tag =:= spawn; Tag =:= spawned -> [mfa];
extra_shapes(return_from, pid) -> [return_value];
extra_shapes(exception_from, pid) -> [class_value];
extra_shapes(open, port) -> [driver_name];
extra_shapes(_, _) -> [].

%% match_spec_result is set when a match specification's result is not true
%% (erl_trace.c send_to_tracer_nif_raw: `if (pam_result != am_true)`); only
%% call, send and receive trace run match specifications, and a send to a
%% process that does not exist runs the send pattern too (erl_trace.c
%% trace_send(): the same pam_result for send_to_non_existing_process; live:
%% the case msgpat_nonexist).
has_match_spec_result(Tag) -> lists:member(Tag, [call, send, send_to_non_existing_process, 'receive']).

%% erl_process.h erts_get_scheduler_id(): esdp->no on a normal scheduler,
%% 0 on a dirty scheduler and on a thread that is no scheduler.
scheduler_ids() ->
    lists:usort([0, 1, erlang:system_info(schedulers)]).

timestamp_kinds() -> [none, timestamp, cpu_timestamp, monotonic, strict_monotonic].

value(pid, Ctx) -> maps:get(peer, Ctx);
value(port, Ctx) -> maps:get(tracee_port, Ctx);
value(registered_name, _) -> ?NAME;
value(name_node, _) -> {?NAME, node()};
value(remote_pid, _) -> remote_pid();
value(dead_pid, Ctx) -> maps:get(dead, Ctx);
value(mfa, _) -> {tcs_validate_lib, sample, [1, two, "three"]};
value(return_value, _) -> {ok, 42};
value(class_value, _) -> {error, badarg};
value(driver_name, _) -> 'cat >/dev/null'.

%% A pid of node 'tcs_remote@nowhere' (an external pid: NEW_PID_EXT).
remote_pid() ->
    Node = <<"tcs_remote@nowhere">>,
    binary_to_term(<<131, 88, 119, (byte_size(Node)), Node/binary, 0:32, 7:32, 0:32, 1:32>>).

shape_of(T) when is_pid(T), node(T) =/= node() -> remote_pid;
shape_of(T) when is_pid(T) -> pid;
shape_of(T) when is_port(T) -> port;
shape_of(T) when is_atom(T) -> registered_name;
shape_of({N, Node}) when is_atom(N), is_atom(Node) -> name_node;
shape_of({M, F, A}) when is_atom(M), is_atom(F), is_list(A) -> mfa;
shape_of({Class, _}) when Class =:= error; Class =:= exit; Class =:= throw -> class_value;
shape_of(_) -> term.

source(pid) -> "003 process_trace_messages_send: {trace, Pid, send, Msg, To}; erl_trace.c trace_send() passes To";
source(port) -> "erl_trace.c trace_send(): extra is the recipient as given to send, Port ! Msg a port";
source(registered_name) -> "erl_trace.c trace_send(): extra is the recipient as given, Name ! Msg an atom";
source(name_node) -> "erl_trace.c trace_send(): extra is the recipient as given, {Name, Node} ! Msg";
source(remote_pid) -> "erl_trace.c trace_send(): is_external_pid(to) is a recipient of its own";
source(dead_pid) -> "003 process_trace_messages_send_to_non_existing_process; erl_trace.c trace_send()";
source(mfa) -> "003 process_trace_messages_spawn/spawned: {trace, Pid, spawn, Pid2, {M, F, Args}}";
source(return_value) -> "003 process_trace_messages_return_from: {trace, Pid, return_from, {M, F, Arity}, ReturnValue}";
source(class_value) -> "003 process_trace_messages_exception_from: {trace, Pid, exception_from, {M, F, Arity}, {Class, Value}}";
source(driver_name) -> "003 port_trace_messages_open: {trace, Port, open, Pid, Driver}";
source(scheduler_id) -> "erl_trace.c send_to_tracer_nif_raw(): make_small(erts_get_scheduler_id()); "
                           "erl_process.h: 0 on a dirty scheduler";
source(timestamp) -> "000 trace_opts(): timestamp | cpu_timestamp | monotonic | strict_monotonic";
source(match_spec_result) -> "erl_trace.c send_to_tracer_nif_raw(): set when pam_result != am_true".

%% The whole table, for the driver's test of it: [{Tag, Kind, ExtraShapes,
%% MatchSpecResult}] for every tag of Categories ([{Category, Tags, Kinds}],
%% tcs_validate_lib:categories/0), the scheduler ids and timestamp kinds.
table(Categories) ->
    #{tags => lists:usort([{Tag, Kind, extra_shapes(Tag, Kind), has_match_spec_result(Tag)}
                           || {_, Tags, Kinds} <- Categories, Tag <- Tags, Kind <- Kinds]),
      scheduler_ids => scheduler_ids(),
      timestamp_kinds => timestamp_kinds()}.
