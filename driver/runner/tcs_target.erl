%% The fixture module whose calls scenarios trace.  The reference model knows
%% exactly this code (ref/vocab/fixture.c, ref/events/calls.c; cases/README.md "The traced
%% functions"): keep them in step.  trace_pattern/3 counts every function,
%% module_info/0,1 included; relay/1 must stay a non-tail call (check/1 can
%% return), so that an exception passes its frame.
-module(tcs_target).
-export([id/1, twice/1, tail/1, deep/1, check/1, relay/1, catcher/1]).

id(X) -> X.

twice(X) -> {id(X), id(X)}.

tail(X) -> id(X).

deep(X) -> {inner(X)}.

%% Not exported: only local patterns see it.
inner(X) -> id(X).

check(ok) -> ok;
check(X) -> erlang:error(X).

relay(X) -> [check(X)].

catcher(X) ->
    try relay(X)
    catch error:R -> {caught, R}
    end.
