%% Who holds which scenario process suspended, as the harness saw the calls answer: its own
%% `suspend`/`resume` steps and the `P suspend Q`/`P resume Q` steps of its processes.  When the
%% last suspend of a process is lifted (a resume, or its suspender's exit, which lifts every
%% suspend the suspender held: SUSPEND-SUSPENDER-EXIT), the process handles the resume as a
%% signal of its own; the harness waits here until it has, so that the settle after the step
%% sees it run again (to take a message that came meanwhile) whatever the order in which the
%% suspender's signal and the harness's questions reached it (C-610).
-module(tcs_suspends).
-export([called/4, exited/1]).

-define(KEY, tcs_suspends).

%% called(Bif, By, Pid, Outcome): By called erlang:Bif(Pid), which answered Outcome.
called(suspend_process, By, Pid, {ok, true}) ->
    put(?KEY, [{By, Pid} | holds()]);
called(resume_process, By, Pid, {ok, true}) ->
    put(?KEY, holds() -- [{By, Pid}]),
    lifted(Pid);
called(_, _, _, _) ->
    ok.

%% exited(Dead): the suspends the dead processes held are lifted.
exited(Dead) ->
    {Gone, Kept} = lists:partition(fun({By, _}) -> lists:member(By, Dead) end, holds()),
    put(?KEY, Kept),
    lists:foreach(fun lifted/1, lists:usort([Pid || {_, Pid} <- Gone])).

%% Pid, once no one holds it suspended, has left the suspended state (or is gone): process_info
%% of a suspended process reads its status without scheduling it; asked again after waits
%% twice as long as the last, from 1 ms (tcs_settle's reasons).
lifted(Pid) ->
    case lists:keymember(Pid, 2, holds()) of
        true -> ok;
        false -> until_not_suspended(Pid, 1)
    end.

until_not_suspended(Pid, Ms) ->
    case erlang:process_info(Pid, status) of
        {status, suspended} -> receive after Ms -> until_not_suspended(Pid, 2 * Ms) end;
        _ -> ok
    end.

holds() ->
    case get(?KEY) of
        undefined -> [];
        Holds -> Holds
    end.
