%% OTP-19122 (ERTS 15.1, OTP 27.1): "Bugs related to return_to trace have been fixed. It
%% did not work for more than one trace session [...]". A process traced with call and
%% return_to in two sessions calls a traced function from caller/0. Present: a session's
%% tracer misses the return_to event to caller/0.
-module(otp19122).
-export([run/0, caller/0, callee/0]).

run() ->
    case code:ensure_loaded(trace) of
        {module, trace} -> check();
        _ -> io:format("not_applicable: no trace sessions before OTP 27~n")
    end.

check() ->
    Self = self(),
    P = spawn(fun() -> receive go -> ?MODULE:caller(), Self ! done end end),
    Sessions = [begin
                    T = spawn(fun Fwd() -> receive M -> Self ! {N, M}, Fwd() end end),
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
    io:format("~s~n", [case Seen of [true, true] -> "absent"; _ -> "present" end]).

caller() ->
    ok = ?MODULE:callee(),
    ok.

callee() -> ok.
