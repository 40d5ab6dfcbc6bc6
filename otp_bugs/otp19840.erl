%% OTP-19840 (erlang/otp PR #10349): removing a BIF's pattern in one trace session cleared
%% the export entry's is_bif_traced mark, so another session whose pattern is still on
%% stopped seeing *direct* calls of the BIF (calls through apply/3 were still traced).
%% Present: after S1 removes its pattern, S2's tracer gets no call event for a direct call.
-module(otp19840).
-export([run/0]).

run() -> otp_bugs_lib:with_sessions(fun check/0).

check() ->
    Self = self(),
    T1 = otp_bugs_lib:forwarder(Self, one),
    T2 = otp_bugs_lib:forwarder(Self, two),
    S1 = trace:session_create(one, T1, []),
    S2 = trace:session_create(two, T2, []),
    MFA = {erlang, phash2, 1},
    [1 = trace:process(S, self(), true, [call]) || S <- [S1, S2]],
    [1 = trace:function(S, MFA, true, [global]) || S <- [S1, S2]],
    1 = trace:function(S1, MFA, false, [global]),
    Arg = make_ref(),
    _ = erlang:phash2(Arg),
    Seen = receive {two, {trace, _, call, {erlang, phash2, [Arg]}}} -> true
           after 1000 -> false
           end,
    [trace:session_destroy(S) || S <- [S1, S2]],
    otp_bugs_lib:verdict(Seen).
