%% tcs_tracer_base.hrl: the Erlang side of a tracer built on tcs_tracer_base.h.
%% The module loads its NIF library, named like the module, from the working
%% directory when it is loaded (./tcs validate runs its nodes there).  A file
%% that leaves trace/5 out of its NIF table defines TCS_NO_TRACE first.
-on_load(load_library/0).
-export([enabled/3]).
-ifndef(TCS_NO_TRACE).
-export([trace/5]).
-endif.

load_library() -> erlang:load_nif("./" ?MODULE_STRING, 0).

enabled(_, _, _) -> erlang:nif_error(not_loaded).
-ifndef(TCS_NO_TRACE).
trace(_, _, _, _, _) -> erlang:nif_error(not_loaded).
-endif.
