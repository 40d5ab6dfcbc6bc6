%% The Erlang side of tcs_defect_uninit_read.c (its defect and the check that flags it are there).
-module(tcs_defect_uninit_read).
-include("../good/tcs_tracer_base.hrl").
