%% The Erlang side of tcs_defect_no_caller.c (its defect and the check that flags it are there).
-module(tcs_defect_no_caller).
-include("../good/tcs_tracer_base.hrl").
