%% The Erlang side of tcs_defect_sends_to_tracee.c (its defect and the check that flags it are there).
-module(tcs_defect_sends_to_tracee).
-include("../good/tcs_tracer_base.hrl").
