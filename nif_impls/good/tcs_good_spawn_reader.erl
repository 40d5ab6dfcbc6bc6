%% The Erlang side of tcs_good_spawn_reader.c.
-module(tcs_good_spawn_reader).
-include("tcs_tracer_base.hrl").
