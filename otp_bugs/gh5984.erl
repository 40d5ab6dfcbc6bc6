%% erlang/otp#5984 (open in the stored thread; its stack is #6448's, whose fix PR #6495, OTP-18398,
%% OTP 25.3, makes lookup_tracer_nif/call_enabled_tracer take the nil tracer): SIGSEGV in
%% lookup_tracer_nif(tracer = []) from trace_schedule_in, a process traced for scheduling being
%% scheduled in on a dirty I/O scheduler with no tracer left. The thread gives no trigger. Tried
%% here, each must leave the node alive: (1) #6448's state, a meta match spec's {silent,true} run
%% by an untraced process (the silent flag with the nil tracer on 25.2.3), then that process
%% scheduled in on a dirty I/O and a dirty CPU scheduler (erts_debug:dirty_io/2, dirty_cpu/2);
%% (2) 300 rounds of four processes looping through erts_debug:dirty_io(wait, 1), traced for
%% running and 'receive' by a tracer process that is killed while another process sends them
%% messages. Present: the node dies (no line printed).
-module(gh5984).
-export([run/0, target/1]).

run() ->
    stray_silent_dirty(),
    [tracer_dies_under_dirty() || _ <- lists:seq(1, 300)],
    io:format("absent~n").

stray_silent_dirty() ->
    Self = self(),
    erlang:trace_pattern({?MODULE, target, 1}, [{'_', [], [{silent, true}]}], [meta]),
    D = spawn(fun() ->
                      ?MODULE:target(1),
                      erts_debug:dirty_io(wait, 1),
                      erts_debug:dirty_cpu(wait, 1),
                      Self ! {done, self()}
              end),
    receive {done, D} -> ok end,
    erlang:trace_pattern({?MODULE, target, 1}, false, [meta]).

tracer_dies_under_dirty() ->
    Tracer = otp_bugs_lib:sink(),
    Loopers = [spawn(fun Loop() -> erts_debug:dirty_io(wait, 1), Loop() end) || _ <- [1, 2, 3, 4]],
    [1 = erlang:trace(L, true, [running, 'receive', {tracer, Tracer}]) || L <- Loopers],
    Sender = spawn(fun Send() -> [L ! hi || L <- Loopers], Send() end),
    timer:sleep(2),
    exit(Tracer, kill),
    timer:sleep(3),
    Refs = [monitor(process, X) || X <- [Sender | Loopers]],
    [exit(X, kill) || X <- [Sender | Loopers]],
    [receive {'DOWN', R, process, _, _} -> ok end || R <- Refs].

target(X) -> X.
