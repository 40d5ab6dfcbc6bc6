%% erlang/otp#8614 (OTP-19151, fix PR #8616, OTP 27.0.1): trace:function(S, MFA, MS, [meta])
%% made the calling process the meta tracer instead of the session's tracer.
%% Present: trace:info(S, MFA, meta) names the caller.
-module(gh8614).
-export([run/0, f/0]).

run() -> otp_bugs_lib:with_sessions(fun check/0).

check() ->
    T = spawn(fun() -> receive stop -> ok end end),
    S = trace:session_create(gh8614, T, []),
    1 = trace:function(S, {?MODULE, f, 0}, [], [meta]),
    {meta, Meta} = trace:info(S, {?MODULE, f, 0}, meta),
    trace:session_destroy(S),
    otp_bugs_lib:verdict(Meta =:= T).

f() -> ok.
