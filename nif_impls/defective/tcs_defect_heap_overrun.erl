%% The Erlang side of tcs_defect_heap_overrun.c (its defect and the check that flags it are there).
-module(tcs_defect_heap_overrun).
-include("../good/tcs_tracer_base.hrl").
