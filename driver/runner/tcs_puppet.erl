%% A scenario process.  It waits for its steps in tcs_gate (not in receive, so
%% that waiting produces no trace events) and does exactly what a step says.
-module(tcs_puppet).
-export([run/1]).

%% run(Name): the body of the process the scenario calls Name.  The name is
%% the only argument so that the spawn trace term is the one the model predicts.
run(_Name) ->
    loop(persistent_term:get(tcs_gate)).

loop(Gate) ->
    case tcs_gate:await_turn(Gate) of
        poke -> loop(Gate);
        {exit, Reason} -> tcs_gate:finish(Gate, {ok, exiting}), exit(Reason);
        {recv, infinity} = Step ->
            case erlang:process_info(self(), message_queue_len) of
                {message_queue_len, 0} -> tcs_gate:finish(Gate, blocked), block();
                _ -> tcs_gate:finish(Gate, perform(Step))
            end,
            loop(Gate);
        {suspending, Step} ->
            %% port_command/2 or ! to a busy port suspends the caller until the port is not
            %% busy (tcs_ports): the step ends there, so the puppet says so before the call,
            %% and goes back to the gate once a later step has resumed it
            tcs_gate:finish(Gate, suspending),
            _ = perform(Step),
            loop(Gate);
        {wait, Ms} ->
            %% `A wait MS while B sends T`: the step is answered before the wait, so that the
            %% harness has B send while A waits in a receive with no clause on messages
            tcs_gate:finish(Gate, waiting),
            receive after Ms -> ok end,
            loop(Gate);
        {spin, M, F, Args, Calls} ->
            %% `A loop M:F(Args)`: the step is answered at once, the loop runs
            %% until the harness's `A idle` (tcs_busy:stop/2)
            tcs_gate:finish(Gate, {ok, spinning}),
            tcs_busy:spin(M, F, Args, Calls),
            loop(Gate);
        {together, Actions} ->
            %% its chain of a together block (tcs_together): answered at once; the chain starts when
            %% the harness pokes the gate, once every process of the block has its own; the results
            %% wait here until the harness asks for them
            tcs_gate:finish(Gate, started),
            poke = tcs_gate:await_turn(Gate),
            put(tcs_together, chain(Actions)),
            loop(Gate);
        together_results -> tcs_gate:finish(Gate, erase(tcs_together)), loop(Gate);
        Step -> tcs_gate:finish(Gate, perform(Step)), loop(Gate)
    end.

%% A chain of a together block, each step's result: after each step the process yields, so that
%% the block's processes interleave step by step also when they share a scheduler (each chain
%% otherwise ran to its end within one time slice, the others after it: measured on 25, 27, 29,
%% two chains of 300 traced calls, one switch between them).  No trace flag the model lets a block's
%% process have shows the yield (it refuses running: BLOCK-TOGETHER).
chain([]) -> [];
chain([Action | Rest]) ->
    Result = perform(Action),
    erlang:yield(),
    [Result | chain(Rest)].

%% A receive on an empty mailbox: the puppet really blocks here (the runner
%% sees it waiting) until a later step sends it a message.  Being scheduled
%% out here and back in is what the running flag traces (ref/events/running.c).
block() ->
    receive Msg -> Msg end.

perform(Step) ->
    try {ok, act(Step)}
    catch Class:Reason -> {raised, Class, Reason}
    end.

act({send, To, Msg}) -> To ! Msg;
act({recv, infinity}) -> receive Msg -> Msg end;
act({recv, {match, T}}) -> receive Msg when Msg =:= T -> Msg end;
act({recv, Ms}) -> receive Msg -> Msg after Ms -> timeout end;
act({call, M, F, Args}) -> erlang:apply(M, F, Args);
act({call_direct, M, F, Args}) -> tcs_direct:call(M, F, Args);
act({call_fun, M, F, Args}) -> tcs_direct:call_fun(M, F, Args);
act({spawn, F}) when is_function(F) -> spawn(F);
act({spawn_link, F}) when is_function(F) -> spawn_link(F);
act({spawn, Name}) -> spawn(tcs_puppet, run, [Name]);
act({spawn_link, Name}) -> spawn_link(tcs_puppet, run, [Name]);
act({spawn, Name, Opts}) -> spawn_opt(tcs_puppet, run, [Name], Opts);
act({spawn_link, Name, Opts}) -> spawn_opt(tcs_puppet, run, [Name], [link | Opts]);
act({spawn, Node, M, F, Args}) when is_list(Args) -> spawn(Node, M, F, Args);   % on the peer node
act({spawn_link, Node, M, F, Args}) when is_list(Args) -> spawn_link(Node, M, F, Args);
act({spawn, M, F, Args}) -> spawn(M, F, Args);
act({spawn_link, M, F, Args}) -> spawn_link(M, F, Args);
act({spawn, M, F, Args, MaxHeap}) -> spawn_opt(M, F, Args, [max_heap(MaxHeap)]);
act({spawn_link, M, F, Args, MaxHeap}) -> spawn_opt(M, F, Args, [link, max_heap(MaxHeap)]);
act({link, Pid}) -> link(Pid);
act({unlink, Pid}) -> unlink(Pid);
act({register, Name}) -> register(Name, self());
act({unregister, Name}) -> unregister(Name);
act({kill, Pid, Reason}) -> exit(Pid, Reason);
act({monitor, Pid}) -> erlang:monitor(process, Pid);
act({trap_exit, Bool}) -> process_flag(trap_exit, Bool);
act({match_spec_test, Args, MS, Type}) -> erlang:match_spec_test(Args, MS, Type);
act({pattern, Target, MS, Opts}) ->
    %% `P pattern M:F/A MS OPTS`: the answer or the raise, either the step's control line
    try {ok, erlang:trace_pattern(Target, MS, Opts)}
    catch Class:Reason -> {raised, Class, Reason}
    end;
act({suspend_call, Bif, Pid}) ->
    %% `P suspend Q`, `P resume Q`: the answer or the raise, either the step's control line
    try {ok, erlang:Bif(Pid)}
    catch Class:Reason -> {raised, Class, Reason}
    end;
act({busy, M, F, Args, Calls}) -> tcs_busy:loop(M, F, Args, Calls).

%% Killed when its heap passes Words; the runtime's error report goes to the logger.
max_heap(Words) -> {max_heap_size, #{size => Words, kill => true, error_logger => true}}.
