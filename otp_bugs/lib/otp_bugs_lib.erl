%% What the reproducers share; otp_bugs/check.sh loads it before each reproducer.
-module(otp_bugs_lib).
-export([with_sessions/1, verdict/1, forwarder/2, sink/0]).

%% Runs Check when the release has trace sessions (OTP 27 and later), else says why not.
with_sessions(Check) ->
    case code:ensure_loaded(trace) of
        {module, trace} -> Check();
        _ -> io:format("not_applicable: no trace sessions before OTP 27~n")
    end.

%% Prints the reproducer's one verdict line: absent when the release behaved correctly.
verdict(Correct) ->
    io:format("~s~n", [case Correct of true -> "absent"; false -> "present" end]).

%% A tracer process that hands every message it gets to To, tagged with Tag.
forwarder(To, Tag) ->
    spawn(fun Forward() -> receive M -> To ! {Tag, M}, Forward() end end).

%% A tracer process that drops every message, for reproducers that need trace events
%% generated but not read.
sink() ->
    spawn(fun Drop() -> receive _ -> Drop() end end).
