%% erlang/otp#11624 (fix PR #11623, open) with the legacy session as one of the two: a
%% process traced for garbage_collection by erlang:trace/3 (the legacy session) and by one
%% trace session. trace_gc() loops over the sessions, the legacy one included, and frees the
%% first one's message heap inside the loop. Present: the node dies at the collection (no
%% line printed), or the two tracers get different events.
-module(gh11624_legacy).
-export([run/0]).

run() -> otp_bugs_lib:with_sessions(fun legacy_and_session/0).

legacy_and_session() ->
    Self = self(),
    Legacy = otp_bugs_lib:forwarder(Self, 1),
    1 = erlang:trace(self(), true, [garbage_collection, {tracer, Legacy}]),
    S = trace:session_create(gh11624_legacy, otp_bugs_lib:forwarder(Self, 2), []),
    1 = trace:process(S, self(), true, [garbage_collection]),
    erlang:garbage_collect(),
    trace:session_destroy(S),
    erlang:trace(self(), false, [garbage_collection]),
    Events = [[receive {N, {trace, _, Tag, Info}} -> {Tag, Info} end || Tag <- [gc_major_start, gc_major_end]]
              || N <- [1, 2]],
    otp_bugs_lib:verdict(hd(Events) =:= lists:last(Events)).
