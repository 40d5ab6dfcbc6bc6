%% OTP-19122 (ERTS 15.1, OTP 27.1): "Bugs related to return_to trace have been fixed. It
%% did not work for more than one trace session [...]". A process traced with call and
%% return_to in two sessions calls a traced function from caller/0. Present: a session's
%% tracer misses the return_to event to caller/0.
-module(otp19122).
-export([run/0, caller/0, callee/0]).

run() -> otp_bugs_lib:with_sessions(fun check/0).

check() ->
    Self = self(),
    P = spawn(fun() -> receive go -> ?MODULE:caller(), Self ! done end end),
    Sessions = [begin
                    T = otp_bugs_lib:forwarder(Self, N),
                    S = trace:session_create(otp19122, T, []),
                    1 = trace:process(S, P, true, [call, return_to]),
                    1 = trace:function(S, {?MODULE, callee, 0}, true, [local]),
                    S
                end || N <- [1, 2]],
    P ! go,
    receive done -> ok end,
    Seen = [receive {N, {trace, P, return_to, {?MODULE, caller, 0}}} -> true after 1000 -> false end
            || N <- [1, 2]],
    [trace:session_destroy(S) || S <- Sessions],
    otp_bugs_lib:verdict(Seen =:= [true, true]).

caller() ->
    ok = ?MODULE:callee(),
    ok.

callee() -> ok.
