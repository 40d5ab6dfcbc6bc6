%% The Erlang side of tcs_defect_trace_hang.c (its defect and the check that flags it are there).
-module(tcs_defect_trace_hang).
-include("../good/tcs_tracer_base.hrl").
