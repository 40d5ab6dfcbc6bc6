%% ext_good_spawn -- CORRECT tracer module (erl_tracer behaviour, NIF back end)
%% that relies on the documented shape of spawn events. For TraceTag spawn and
%% spawned the `extra` entry of Opts is documented to be {M, F, Args} (the
%% fifth element of the trace tuple); this tracer checks that it is a 3-tuple
%% of atom, atom and proper list and sends the compact form
%% {trace, Tracee, Tag, TraceTerm, {M, F, Arity}} to the tracer state (a pid);
%% if `extra` is missing or has another shape it raises badarg
%% (enif_make_badarg). Every other event is forwarded unchanged as
%% {trace, Tracee, Tag, TraceTerm, Opts}. No shared mutable state.
-module(ext_good_spawn).
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
