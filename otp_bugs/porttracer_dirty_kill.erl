%% Not reported upstream (found by issue 25, C-502). A process traced for running_procs with a
%% port as its tracer ({tracer, Port}) is killed while it goes in and out of dirty work (here
%% erts_debug:dirty_io/2; in the suite the gate's dirty NIF), in the same burst as the port's
%% owner, so that the port closes too: the node dies of SIGSEGV. Seen: 3 of 3 runs on 25.2.3,
%% 27.3.4.1 and 29.1.2. Not with the owner's process as the tracer, nor with the owner left alive
%% (3 runs each on 25.2.3); with the suite's gate NIF in place of dirty_io, not with send, procs,
%% exiting or 'receive' alone (3 runs each on 25.2.3), with running in 1 of 3. 1000 rounds a try,
%% up to 5 tries: with 300 rounds and 3 tries a verdict was absent now and then under load.
%% tries: 5
-module(porttracer_dirty_kill).
-export([run/0]).

run() ->
    [round() || _ <- lists:seq(1, 1000)],
    io:format("absent~n").

round() ->
    Self = self(),
    Owner = spawn(fun() ->
                          Self ! {port, open_port({spawn, "cat"}, [binary, {packet, 4}])},
                          receive stop -> ok end
                  end),
    Port = receive {port, P} -> P end,
    Tracees = [spawn(fun Dirty() -> erts_debug:dirty_io(wait, 1), Dirty() end) || _ <- [1, 2, 3, 4]],
    [1 = erlang:trace(T, true, [running_procs, {tracer, Port}]) || T <- Tracees],
    timer:sleep(2),
    Refs = [erlang:monitor(process, X) || X <- [Owner | Tracees]],
    [exit(X, kill) || X <- [Owner | Tracees]],
    [receive {'DOWN', R, process, _, _} -> ok end || R <- Refs],
    ok.
