%% ext_names -- "who talks to whom" tracer module (erl_tracer behaviour, NIF
%% back end), in the spirit of the erl_msg_tracer example: for send events
%% (TraceTag send) it sends {send, Sender, Recipient, Msg} to the tracer state
%% (a pid), taking the recipient from the `extra` entry of Opts; every other
%% event is forwarded as {trace, Tracee, Tag, TraceTerm, Opts}.
%% DEFECTIVE (misreads a send's recipient): it assumes `extra` of a send is
%% either a local pid (enif_get_local_pid) or a {Name, Node} tuple. For any
%% other recipient -- notably a send to a locally registered name, where
%% `extra` is the name atom (also a port, or a remote pid) -- the recipient
%% parser returns NULL and the caller dereferences that NULL pointer, crashing
%% the emulator.
-module(ext_names).
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
