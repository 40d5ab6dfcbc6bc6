%% The Erlang side of tcs_defect_sched_off_by_one.c (its defect and the check that flags it are there).
-module(tcs_defect_sched_off_by_one).
-include("../good/tcs_tracer_base.hrl").
