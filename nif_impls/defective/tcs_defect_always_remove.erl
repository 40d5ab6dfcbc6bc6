%% The Erlang side of tcs_defect_always_remove.c (its defect and the check that flags it are there).
-module(tcs_defect_always_remove).
-include("../good/tcs_tracer_base.hrl").
