%% OTP-19527 (erlang/otp PR #9577; OTP 25.3.2.15, 26.2.5.9, 27.2.4): a 'receive' trace
%% event of a process waiting in a receive with no clause on messages (a timed wait) was
%% delivered only when the wait ended. The process here waits 3 s; the message arrives at
%% once. Present: its 'receive' event has not come 1 s later.
-module(otp19527).
-export([run/0]).

run() ->
    Self = self(),
    P = spawn(fun() -> receive go -> ok end, receive after 3000 -> ok end, Self ! done end),
    1 = erlang:trace(P, true, ['receive']),
    P ! go,
    receive {trace, P, 'receive', go} -> ok end,
    timer:sleep(100),
    P ! hello,
    Seen = receive {trace, P, 'receive', hello} -> true after 1000 -> false end,
    otp_bugs_lib:verdict(Seen).
