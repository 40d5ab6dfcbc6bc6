%% The Erlang side of tcs_defect_flaky_answer.c (its defect and the check that flags it are there).
-module(tcs_defect_flaky_answer).
-include("../good/tcs_tracer_base.hrl").
