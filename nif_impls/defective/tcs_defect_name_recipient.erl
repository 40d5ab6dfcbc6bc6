%% The Erlang side of tcs_defect_name_recipient.c (its defect and the check that flags it are there).
-module(tcs_defect_name_recipient).
-include("../good/tcs_tracer_base.hrl").
