%% session_end_wakes: does the end of a trace session wake a process that waits in a receive
%% and is traced for running by another tracer? (fuzz seed 2026112936 group 3, S2)
%%
%% Each of 200 rounds: p, traced for running by the legacy session's tracer process, waits
%% 20 ms in `receive never -> ok after 20 -> ok end`.  Two ms into its wait, mode `none` does
%% nothing; mode `destroy` creates a session and ends it with trace:session_destroy/1; mode
%% `drop` has a helper create a session and exit, so that its only strong handle is garbage
%% collected (SESSION-GC).  Neither session traces p.  It prints how many rounds had how many
%% `out` messages of p: one is the wait itself.  Run it on OTP 27 or later:
%%     erlc session_end_wakes.erl && erl -noshell -run session_end_wakes run drop
%% Session 36, one run of each mode of this file: OTP 27.3.4.1 none #{1 => 200}, destroy
%% #{1 => 8,2 => 192}, drop #{2 => 200}; OTP 29.1.2 none #{1 => 200}, destroy #{1 => 3,2 => 197},
%% drop #{1 => 3,2 => 195,3 => 2} (an earlier draft, the same rounds: 27 destroy 199 of 200 and
%% drop 197 of 200 woken, 29 destroy 198 and drop 192).
-module(session_end_wakes).
-export([run/1]).

run([Mode]) ->
    Self = self(),
    Outs = [round(Mode, Self) || _ <- lists:seq(1, 200)],
    io:format("~s: outs ~p~n", [Mode, lists:foldl(fun(N, M) -> maps:update_with(N, fun(C) -> C + 1 end, 1, M) end,
                                                   #{}, Outs)]),
    halt().

round(Mode, Self) ->
    Collector = spawn(fun() -> collect([]) end),
    P = spawn(fun() -> receive go -> ok end, receive never -> ok after 20 -> ok end, Self ! done end),
    1 = erlang:trace(P, true, [running, {tracer, Collector}]),
    P ! go,
    timer:sleep(2),
    end_session(Mode),
    receive done -> ok end,
    erlang:trace_delivered(P),
    receive {trace_delivered, _, _} -> ok end,
    Collector ! {get, self()},
    receive {msgs, Ms} -> length([x || {trace, _, out, _} <- Ms]) end.

end_session("none") -> ok;
end_session("destroy") ->
    S = trace:session_create(destroyed, self(), []),
    timer:sleep(1),
    true = trace:session_destroy(S);
end_session("drop") ->
    Holder = spawn(fun() ->
                           S = trace:session_create(dropped, spawn(fun() -> receive _ -> ok end end), []),
                           _ = S,
                           receive drop -> ok end
                   end),
    timer:sleep(1),
    Holder ! drop.

collect(Acc) ->
    receive
        {get, From} -> From ! {msgs, lists:reverse(Acc)};
        M -> collect([M | Acc])
    end.
