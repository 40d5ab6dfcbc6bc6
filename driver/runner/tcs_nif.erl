%% The fixture module whose functions are NIFs (driver/runner/tcs_nif.c): trace_nif_SUITE's
%% targets, dirty work in a traced process, and a process that holds its scheduler (sleep/1).  The reference model knows exactly these
%% functions (ref/vocab/fixture.c, ref/events/calls.c; cases/README.md "The traced
%% functions"): keep them in step.  trace_pattern/3 counts every function, load/1 and
%% module_info/0,1 included.  The runner loads the library before the first step.
-module(tcs_nif).
-export([load/1, id/1, check/1, dirty_cpu/1, dirty_io/1, dirty_wait/1, sleep/1]).
-nifs([id/1, check/1, dirty_cpu/1, dirty_io/1, dirty_wait/1, sleep/1]).

load(SoPath) -> erlang:load_nif(SoPath, 0).

id(_X) -> erlang:nif_error(not_loaded).
check(_X) -> erlang:nif_error(not_loaded).
dirty_cpu(_X) -> erlang:nif_error(not_loaded).
dirty_io(_X) -> erlang:nif_error(not_loaded).
dirty_wait(_Ms) -> erlang:nif_error(not_loaded).
sleep(_Ms) -> erlang:nif_error(not_loaded).
