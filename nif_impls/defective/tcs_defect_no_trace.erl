%% The Erlang side of tcs_defect_no_trace.c (its defect and the check that flags it are there).
-module(tcs_defect_no_trace).
-export([trace_send/5]).
-define(TCS_NO_TRACE, true).
-include("../good/tcs_tracer_base.hrl").

trace_send(_, _, _, _, _) -> erlang:nif_error(not_loaded).
