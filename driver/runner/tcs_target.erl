%% The fixture module whose calls scenarios trace.  The reference model knows
%% exactly this code (cases/README.md "The traced functions"): keep them in step.
-module(tcs_target).
-export([id/1, twice/1, tail/1]).

id(X) -> X.

twice(X) -> {id(X), id(X)}.

tail(X) -> id(X).
