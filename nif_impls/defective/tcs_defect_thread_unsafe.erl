%% The Erlang side of tcs_defect_thread_unsafe.c (its defect and the check that flags it are there).
-module(tcs_defect_thread_unsafe).
-include("../good/tcs_tracer_base.hrl").
