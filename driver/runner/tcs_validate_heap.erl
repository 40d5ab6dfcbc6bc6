%% The bytes malloc has in use, for validate's leak check (see tcs_validate_heap.c).
%% load(SoPath) once per node; malloc_in_use() is a byte count, or undefined where
%% the C library cannot tell.
-module(tcs_validate_heap).
-export([load/1, malloc_in_use/0]).
-nifs([malloc_in_use/0]).

load(SoPath) -> erlang:load_nif(SoPath, 0).

malloc_in_use() -> erlang:nif_error(not_loaded).
