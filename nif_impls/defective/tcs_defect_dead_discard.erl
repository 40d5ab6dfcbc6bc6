%% The Erlang side of tcs_defect_dead_discard.c (its defect and the check that flags it are there).
-module(tcs_defect_dead_discard).
-include("../good/tcs_tracer_base.hrl").
