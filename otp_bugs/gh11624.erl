%% erlang/otp#11624 (fix PR #11623, open): two trace sessions tracing garbage_collection
%% on one process; trace_gc() frees the first session's message heap inside the session
%% loop and the second session's message is built from freed memory. Present: the node
%% dies at the collection (no line printed), or the two tracers get different events.
-module(gh11624).
-export([run/0]).

run() -> otp_bugs_lib:with_sessions(fun two_sessions/0).

two_sessions() ->
    Self = self(),
    Sessions = [begin
                    T = otp_bugs_lib:forwarder(Self, N),
                    S = trace:session_create(gh11624, T, []),
                    1 = trace:process(S, self(), true, [garbage_collection]),
                    S
                end || N <- [1, 2]],
    erlang:garbage_collect(),
    [trace:session_destroy(S) || S <- Sessions],
    Events = [[receive {N, {trace, _, Tag, Info}} -> {Tag, Info} end || Tag <- [gc_major_start, gc_major_end]]
              || N <- [1, 2]],
    otp_bugs_lib:verdict(hd(Events) =:= lists:last(Events)).
