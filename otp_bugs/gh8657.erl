%% erlang/otp#8657 (OTP-19211, fix PR #8754, OTP 27.1): the match spec function trace
%% (and enable_trace), run for a call traced in a session, must give an untraced process
%% its flags with that session's tracer. Present: the untraced process does not end up
%% traced by the session's tracer, or its send event does not reach that tracer.
-module(gh8657).
-export([run/0, f/0]).

run() -> otp_bugs_lib:with_sessions(fun check/0).

check() ->
    Self = self(),
    T = otp_bugs_lib:forwarder(Self, tracer),
    S = trace:session_create(gh8657, T, []),
    Other = spawn(fun() -> receive go -> Self ! hello end, receive stop -> ok end end),
    1 = trace:function(S, {?MODULE, f, 0}, [{'_', [], [{trace, Other, [], [send]}]}], [global]),
    Caller = spawn(fun() -> receive go -> ?MODULE:f() end, receive stop -> ok end end),
    1 = trace:process(S, Caller, true, [call]),
    Caller ! go,
    receive {tracer, {trace, Caller, call, {?MODULE, f, []}}} -> ok end,
    Tracer = trace:info(S, Other, tracer),
    Other ! go,
    Seen = receive {tracer, {trace, Other, send, hello, Self}} -> true after 1000 -> false end,
    trace:session_destroy(S),
    otp_bugs_lib:verdict(Tracer =:= {tracer, T} andalso Seen).

f() -> ok.
