%% OTP-19043 (erlang/otp PR #8342; ERTS 13.2.2.8 = OTP 25.3.2.8, 14.2.4): "When a traced
%% process executing on a dirty scheduler received an exit signal, the dirty scheduler
%% could use the wrong thread specific data which could lead to a crash." Rounds of four
%% processes going in and out of dirty work (erts_debug:dirty_io/2 and dirty_cpu/2, two
%% each), trapping exits and traced by a process for 'receive', procs, running and
%% garbage_collection, each sent three shutdown exit signals and then killed. Present: the
%% node dies. Without trap_exit, with kill alone, or with procs alone (1000 rounds each on
%% 25.2.3): no crash either.
%% tries: 2
-module(otp19043).
-export([run/0]).

-define(ROUNDS, 1000).

run() ->
    Tracer = otp_bugs_lib:sink(),
    [exit_round(Tracer) || _ <- lists:seq(1, ?ROUNDS)],
    io:format("absent~n").

exit_round(Tracer) ->
    Tracees = [spawn(fun() -> process_flag(trap_exit, true), dirty_loop(Kind) end)
               || Kind <- [dirty_io, dirty_cpu, dirty_io, dirty_cpu]],
    [1 = erlang:trace(T, true, ['receive', procs, running, garbage_collection, {tracer, Tracer}])
     || T <- Tracees],
    timer:sleep(2),
    Refs = [erlang:monitor(process, T) || T <- Tracees],
    [begin [exit(T, shutdown) || _ <- [1, 2, 3]], exit(T, kill) end || T <- Tracees],
    [receive {'DOWN', R, process, _, _} -> ok end || R <- Refs],
    ok.

dirty_loop(Kind) ->
    erts_debug:Kind(wait, 1),
    dirty_loop(Kind).
