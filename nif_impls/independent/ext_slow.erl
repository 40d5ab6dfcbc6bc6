%% ext_slow -- forwarding tracer module (erl_tracer behaviour, NIF back end)
%% that sends {trace, Tracee, Tag, TraceTerm, Opts} to the tracer state (a
%% pid), "throttling" itself by busy-waiting.
%% DEFECTIVE (stalls the scheduler): trace/5 spins on clock_gettime for about
%% 50 ms per call and enabled/3 for about 0.1 ms per call, on the scheduler
%% thread of the traced process (these callbacks run inline in the tracee and
%% are meant to be as fast as possible; a NIF should return within ~1 ms).
%% Every event is delivered correctly, but each traced event blocks a whole
%% scheduler for 50 ms, starving every other process on it.
-module(ext_slow).
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
