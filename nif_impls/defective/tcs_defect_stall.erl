%% The Erlang side of tcs_defect_stall.c (its defect and the check that flags it are there).
-module(tcs_defect_stall).
-include("../good/tcs_tracer_base.hrl").
