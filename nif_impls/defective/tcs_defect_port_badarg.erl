%% The Erlang side of tcs_defect_port_badarg.c (its defect and the check that flags it are there).
-module(tcs_defect_port_badarg).
-include("../good/tcs_tracer_base.hrl").
