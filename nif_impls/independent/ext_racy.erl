%% ext_racy -- batching tracer module (erl_tracer behaviour, NIF back end).
%% DEFECTIVE (not thread-safe): one static ring buffer of 64 entries with a
%% plain, non-atomic index, and one static ErlNifEnv allocated once at load
%% (enif_alloc_env) and reused by every call. trace/5 copies the event
%% {trace, Tracee, Tag, TraceTerm, Opts} into ring[idx] in that shared env and
%% increments idx; every 64 events the batch (enif_make_list of the copied
%% terms) is sent to the tracer state (a pid) and the env is cleared with
%% enif_clear_env. Correct when called sequentially; when two schedulers call
%% trace/5 at once they allocate in the same env concurrently, race on idx
%% (lost updates, idx running past 63 so that ring[64..] is written) and
%% corrupt memory.
-module(ext_racy).
-export([enabled/3, trace/5]).
-nifs([enabled/3, trace/5]).
-on_load(init/0).

init() ->
    erlang:load_nif(so_path(), 0).

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
