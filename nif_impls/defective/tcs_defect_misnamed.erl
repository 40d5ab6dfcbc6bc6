%% The Erlang side of tcs_defect_misnamed.c (its defect and the check that flags it are there).
-module(tcs_defect_misnamed).
-export([enabled_sends/3]).
-include("../good/tcs_tracer_base.hrl").

enabled_sends(_, _, _) -> erlang:nif_error(not_loaded).
