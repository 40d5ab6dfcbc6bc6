%% dirty_queue_wakes: is a process that waits in the dirty I/O run queue scheduled in and out
%% on a normal scheduler when the runtime releases a persistent term's old value, or ends a
%% trace session?  (The CI of the 37th session: run_dirty_nif_io on 29, a second out/in pair
%% at the dirty NIF in a shared node only.)
%%
%% Each of 200 rounds: as many processes as there are dirty I/O schedulers hold them 15 ms
%% (erts_debug:dirty_io(wait, 15)); p, traced for running_procs by a tracer process, then calls
%% erts_debug:dirty_io(wait, 20) and waits in the dirty run queue.  Three ms later mode `none`
%% does nothing, `replace` replaces a persistent term's value (its old literal area goes to the
%% literal area collector, which sends every process a copy request), `session` (OTP 27 and
%% later) creates a trace session and ends it (the trace cleaner sends every process a clean
%% request).  It prints how many rounds had how many `in` messages of p (four without a wake).
%%     erlc dirty_queue_wakes.erl && erl -noshell -run dirty_queue_wakes run replace
%% Session 38, one run of each mode: OTP 25.2.3 none #{4 => 200}, replace #{4 => 1,5 => 199};
%% OTP 27.3.4.1 and 29.1.2 none, replace and session #{4 => 200}.  So on 25 a release reaches a
%% process queued for a dirty scheduler; on 27 and 29 neither wake showed in this form, and the
%% harness stopped making both between jobs anyway (tcs_runner:gate/0, tcs_runner_lib's
%% load_recorder/3 and trace_cleaner_idle/1).
-module(dirty_queue_wakes).
-export([run/1]).

run([Mode]) ->
    Self = self(),
    Ins = [round(Mode, Self) || _ <- lists:seq(1, 200)],
    io:format("~s ~s: ins ~p~n", [erlang:system_info(otp_release), Mode,
                                  lists:foldl(fun(N, M) -> maps:update_with(N, fun(C) -> C + 1 end, 1, M) end,
                                              #{}, Ins)]),
    halt().

round(Mode, Self) ->
    Collector = spawn(fun() -> collect([]) end),
    P = spawn(fun() -> receive go -> ok end, erts_debug:dirty_io(wait, 20), Self ! done end),
    1 = erlang:trace(P, true, [running_procs, {tracer, Collector}]),
    _ = [spawn(fun() -> erts_debug:dirty_io(wait, 15) end)
         || _ <- lists:seq(1, erlang:system_info(dirty_io_schedulers))],
    timer:sleep(2),
    P ! go,
    timer:sleep(3),
    act(Mode),
    receive done -> ok end,
    erlang:trace_delivered(P),
    receive {trace_delivered, _, _} -> ok end,
    Collector ! {get, self()},
    receive {msgs, Ms} -> length([x || {trace, _, in, _} <- Ms]) end.

act("none") -> ok;
act("replace") -> persistent_term:put(dirty_queue_wakes, {make_ref(), lists:seq(1, 10)});
act("session") -> trace:session_destroy(trace:session_create(dirty_queue_wakes, self(), [])).

collect(Ms) ->
    receive
        {get, From} -> From ! {msgs, lists:reverse(Ms)};
        M -> collect([M | Ms])
    end.
