%% C-660 (found by this suite, not reported to OTP): on OTP 29 erlang:suspend_process/1 pauses
%% the BIF timers aimed at the suspendee's pid (documented as of OTP 29.0, erlang/otp PR #10619),
%% but a paused timer is no longer reached by its reference: erlang:read_timer/1 answers false,
%% erlang:cancel_timer/1,2 answers false (or ok, asynchronously) and cancels nothing, and after
%% erlang:resume_process/1 the timer fires with the time it had left. The suite's harness met it
%% through its step watchdog (tcs_watchdog: a timer per step to the batch process, which
%% tcs_runner_lib:hold/1 suspends around `trace all|existing on ...`): on 29.1.2 every timer of
%% such a step fired after its asynchronous cancel. Here a receiver traced for 'receive' gets
%% Rounds timers, each suspended, resumed and then cancelled as the watchdog does; a tracer sees
%% the 'receive' of each timer that fires. Present: a cancelled timer's message is received.
-module(c660).
-export([run/0]).

-define(ROUNDS, 20).
-define(TIMEOUT_MS, 300).

run() ->
    Self = self(),
    Receiver = spawn(fun Sink() -> receive _ -> Sink() end end),
    Tracer = otp_bugs_lib:forwarder(Self, event),
    1 = erlang:trace(Receiver, true, ['receive', {tracer, Tracer}]),
    Timers = [arm_pause_cancel(Receiver, N) || N <- lists:seq(1, ?ROUNDS)],
    timer:sleep(3 * ?TIMEOUT_MS),
    Fired = [T || T <- Timers, fired(Receiver, T)],
    io:format("~s: read_timer/1 of a timer after its receiver's resume: ~w; "
              "fired after cancel: ~b of ~b~n",
              [erlang:system_info(otp_release), read_after_resume(Receiver), length(Fired), ?ROUNDS]),
    exit(Receiver, kill),
    otp_bugs_lib:verdict(Fired =:= []).

%% A timer to Receiver, its receiver suspended and resumed, then the timer cancelled as
%% tcs_watchdog:disarm/1 does.
arm_pause_cancel(Receiver, N) ->
    Timer = erlang:start_timer(?TIMEOUT_MS, Receiver, {round, N}),
    true = erlang:suspend_process(Receiver),
    true = erlang:resume_process(Receiver),
    ok = erlang:cancel_timer(Timer, [{async, true}, {info, false}]),
    Timer.

fired(Receiver, Timer) ->
    receive {event, {trace, Receiver, 'receive', {timeout, Timer, _}}} -> true
    after 0 -> false
    end.

%% What read_timer/1 says of a live timer once its receiver was suspended and resumed (an
%% integer, the time left, on a release without the bug); the timer is cancelled after.
read_after_resume(Receiver) ->
    Timer = erlang:start_timer(10 * ?TIMEOUT_MS, Receiver, read),
    true = erlang:suspend_process(Receiver),
    true = erlang:resume_process(Receiver),
    Left = erlang:read_timer(Timer),
    _ = erlang:cancel_timer(Timer),
    Left.
