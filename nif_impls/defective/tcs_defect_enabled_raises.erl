%% The Erlang side of tcs_defect_enabled_raises.c (its defect and the check that flags it are there).
-module(tcs_defect_enabled_raises).
-include("../good/tcs_tracer_base.hrl").
