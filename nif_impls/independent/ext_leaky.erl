%% ext_leaky -- forwarding tracer module (erl_tracer behaviour, NIF back end).
%% Every trace/5 call formats the trace tag into a 256-byte scratch buffer and
%% sends {trace, Tracee, Tag, TraceTerm, Opts} to the tracer state (a pid),
%% building the message in its own message environment.
%% DEFECTIVE (leaks): for EVERY trace call it allocates a new ErlNifEnv with
%% enif_alloc_env and a 256-byte malloc buffer and never frees either
%% (enif_send only clears the message env, it does not free it). Each event
%% is delivered correctly, but the emulator's memory grows without bound for
%% as long as tracing runs.
-module(ext_leaky).
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
