%% The Erlang side of tcs_good_threaded.c.
-module(tcs_good_threaded).
-include("tcs_tracer_base.hrl").
