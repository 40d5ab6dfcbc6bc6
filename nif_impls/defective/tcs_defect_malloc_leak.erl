%% The Erlang side of tcs_defect_malloc_leak.c (its defect and the check that flags it are there).
-module(tcs_defect_malloc_leak).
-include("../good/tcs_tracer_base.hrl").
