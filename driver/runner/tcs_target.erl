%% The fixture module whose calls scenarios trace.  The reference model knows
%% exactly this code (ref/vocab/fixture.c, ref/events/calls.c; cases/README.md "The traced
%% functions"): keep them in step.  trace_pattern/3 counts every function,
%% module_info/0,1 included; relay/1 must stay a non-tail call (check/1 can
%% return), so that an exception passes its frame.
-module(tcs_target).
-export([id/1, twice/1, tail/1, deep/1, check/1, relay/1, catcher/1, top/1, middle/1, bottom/1]).
-file("tcs_target.erl", 8). % the file and line numbers of {caller_line}, however erlc is called
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

%% The chain of trace_session_SUITE's return_to/1: top/1 catches what middle/1
%% raises; middle/1 calls bottom/1 in its body, in a try, or as a tail call;
%% each call is local, or through the export entry (extern), as the script
%% in the argument says; bottom/1 returns the rest of the script, or raises.
top([{'catch', local} | Script]) -> try middle(Script) catch error:R -> {caught, R} end;
top([{'catch', extern} | Script]) -> try ?MODULE:middle(Script) catch error:R -> {caught, R} end.

middle([{body, local} | Script]) -> {bottom(Script)};
middle([{body, extern} | Script]) -> {?MODULE:bottom(Script)};
middle([{'catch', local} | Script]) -> try bottom(Script) catch error:R -> {caught, R} end;
middle([{'catch', extern} | Script]) -> try ?MODULE:bottom(Script) catch error:R -> {caught, R} end;
middle([{tail, local} | Script]) -> bottom(Script);
middle([{tail, extern} | Script]) -> ?MODULE:bottom(Script).

bottom([return | Rest]) -> Rest;
bottom([exception]) -> erlang:error(exception).
