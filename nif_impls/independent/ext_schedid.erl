%% ext_schedid -- per-scheduler event counting tracer module (erl_tracer
%% behaviour, NIF back end). It forwards {trace, Tracee, Tag, TraceTerm, Opts}
%% to the tracer state (a pid) and, when the Opts map carries scheduler_id,
%% updates a per-scheduler statistics slot; counts/0 returns the event counts.
%% The slot array is malloc'd at load with exactly as many slots as
%% enif_system_info reports scheduler threads (info.scheduler_threads).
%% DEFECTIVE (misreads scheduler_id): scheduler ids are 1-based, but the slot
%% is indexed with the id itself, WITHOUT subtracting 1 (the bounds check
%% "id > nsched" is right for 1-based ids, the indexing is not). An event on
%% the highest-numbered scheduler writes a whole 32-byte slot, including a
%% 0x5CED... magic pattern, one past the end of the malloc'd array,
%% clobbering the malloc metadata or data of the next heap block: real heap
%% corruption. Events without scheduler_id in Opts, or on lower schedulers,
%% behave correctly (slot 0 is simply never used).
-module(ext_schedid).
-export([enabled/3, trace/5, counts/0]).
-nifs([enabled/3, trace/5, counts/0]).
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
counts() -> erlang:nif_error(nif_not_loaded).
