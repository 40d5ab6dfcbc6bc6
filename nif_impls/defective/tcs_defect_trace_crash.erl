%% The Erlang side of tcs_defect_trace_crash.c (its defect and the check that flags it are there).
-module(tcs_defect_trace_crash).
-include("../good/tcs_tracer_base.hrl").
