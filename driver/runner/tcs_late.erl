%% A fixture module nobody loads before a scenario calls it: the first call
%% loads it, so patterns set with trace_pattern(on_load, ...) apply to it
%% (ref/vocab/fixture.c; cases/README.md "The traced functions").
-module(tcs_late).
-export([id/1]).

id(X) -> X.
