%% ext_good_mt -- CORRECT multi-threaded tracer module (erl_tracer behaviour,
%% NIF back end). It forwards every event as {trace, Tracee, Tag, TraceTerm,
%% Opts} to the tracer state (a pid) and keeps statistics that are safe to
%% update from all schedulers at once: one counter per scheduler, in an array
%% sized at load from enif_system_info (scheduler_threads) plus the dirty CPU
%% and dirty IO scheduler counts handed over in load_info, indexed by the
%% 1-based Opts scheduler_id minus 1 after a bounds check (out-of-range ids,
%% including 0, go to an "other" counter), updated with C11 atomics; and a
%% mutex-protected ring of the last 64 events (sequence number, tag,
%% scheduler id). Terms are only built in the env of the current call or in a
%% fresh message env allocated per send and freed right after enif_send; the
%% caller env is passed to enif_send because the callbacks run on ERTS
%% scheduler threads (NULL is only for non-ERTS threads). The per-category
%% callbacks enabled_send/trace_send, enabled_receive/trace_receive,
%% enabled_procs/trace_procs and enabled_call/trace_call share the generic
%% code. counts/0 and recent/0 read the statistics.
-module(ext_good_mt).
-export([enabled/3, trace/5,
         enabled_send/3, trace_send/5, enabled_receive/3, trace_receive/5,
         enabled_procs/3, trace_procs/5, enabled_call/3, trace_call/5,
         counts/0, recent/0]).
-nifs([enabled/3, trace/5,
       enabled_send/3, trace_send/5, enabled_receive/3, trace_receive/5,
       enabled_procs/3, trace_procs/5, enabled_call/3, trace_call/5,
       counts/0, recent/0]).
-on_load(init/0).

init() ->
    erlang:load_nif(so_path(), {erlang:system_info(schedulers), erlang:system_info(dirty_cpu_schedulers), erlang:system_info(dirty_io_schedulers)}).

%% The .so sits next to the .beam.
so_path() ->
    case code:which(?MODULE) of
        Beam when is_list(Beam) ->
            filename:join(filename:dirname(Beam), ?MODULE_STRING);
        _ ->
            case code:where_is_file(?MODULE_STRING ".so") of
                non_existing -> ?MODULE_STRING;
                So -> filename:rootname(So)
            end
    end.

enabled(_Tag, _State, _Tracee) -> erlang:nif_error(nif_not_loaded).
trace(_Tag, _State, _Tracee, _Term, _Opts) -> erlang:nif_error(nif_not_loaded).
enabled_send(_Tag, _State, _Tracee) -> erlang:nif_error(nif_not_loaded).
trace_send(_Tag, _State, _Tracee, _Term, _Opts) -> erlang:nif_error(nif_not_loaded).
enabled_receive(_Tag, _State, _Tracee) -> erlang:nif_error(nif_not_loaded).
trace_receive(_Tag, _State, _Tracee, _Term, _Opts) -> erlang:nif_error(nif_not_loaded).
enabled_procs(_Tag, _State, _Tracee) -> erlang:nif_error(nif_not_loaded).
trace_procs(_Tag, _State, _Tracee, _Term, _Opts) -> erlang:nif_error(nif_not_loaded).
enabled_call(_Tag, _State, _Tracee) -> erlang:nif_error(nif_not_loaded).
trace_call(_Tag, _State, _Tracee, _Term, _Opts) -> erlang:nif_error(nif_not_loaded).

%% counts() -> {[EventsOnSchedulerId1, ...], EventsWithOtherIds}
counts() -> erlang:nif_error(nif_not_loaded).
%% recent() -> [{Seq, Tag, SchedulerIdOrMinus1}] (last 64 events, oldest first)
recent() -> erlang:nif_error(nif_not_loaded).
