%% open_port_waits: how often is a process traced for running scheduled out and in at
%% {erlang,open_port,2}, and garbage collected, within one open_port/2 of `cat`?
%% (CONFORMANCE.md C-420)
%%
%% Each round spawns a process traced for [running, garbage_collection] that burns 0 to
%% Burn reductions (so that its time slice may end anywhere before or in the call), opens a
%% port to `cat` with [binary, {packet, 2}] as the harness does (driver/runner/tcs_ports.erl),
%% closes it and exits.  Load burner processes spin beside it the whole run.  Mode `quiet'
%% sends the process nothing; mode `poke' has a helper send it a message it does not wait
%% for (a term, not {Ref, Res}) while it waits for the port; mode `purge' loads a module with
%% a literal and deletes and purges it while the process opens the port, as tcs_batch does
%% with a job's tracer module after the job; mode `before' does that just before it spawns
%% the process, as tcs_batch does between two jobs (the release of the literals goes on
%% after code:purge/1 has returned); mode `before_idle' then waits, as tcs_batch now does,
%% until the literal area collector says it is idle.  It prints, per distinct
%% sequence of the process's events from its first out/in or gc after the burn to the return
%% of open_port/2, how many rounds showed it, most common first.
%%
%%   erlc open_port_waits.erl && erl -noshell -run open_port_waits main 2000 4 quiet 4000
-module(open_port_waits).
-export([main/1]).

main([Rounds, Load, Mode, Burn]) ->
    {ok, lit, Beam} = compile:forms(literal_module(), []),
    persistent_term:put(?MODULE, Beam),
    Burners = [spawn(fun spin/0) || _ <- lists:seq(1, list_to_integer(Load))],
    Counts = rounds(list_to_integer(Rounds), list_to_atom(Mode), list_to_integer(Burn), #{}),
    [exit(B, kill) || B <- Burners],
    Sorted = lists:reverse(lists:keysort(2, maps:to_list(Counts))),
    [io:format("~p ~w~n", [N, Sequence]) || {Sequence, N} <- Sorted],
    halt().

spin() -> spin().

rounds(0, _Mode, _Burn, Counts) -> Counts;
rounds(N, Mode, Burn, Counts) ->
    (Mode =:= before orelse Mode =:= before_idle) andalso purge_literals(),
    Mode =:= before_idle andalso literals_released(),
    Parent = self(),
    Work = case Burn of 0 -> 0; _ -> rand:uniform(Burn) end,
    P = spawn(fun() ->
                      receive go -> ok end,
                      burn(Work),
                      Parent ! {opening, self()},
                      Port = erlang:open_port({spawn, "cat"}, [binary, {packet, 2}]),
                      erlang:trace(self(), false, [running, garbage_collection]),
                      port_close(Port),
                      Parent ! {done, self()}
              end),
    erlang:trace(P, true, [running, garbage_collection]),
    P ! go,
    receive {opening, P} -> ok end,
    case Mode of
        poke -> P ! poke;
        purge -> purge_literals();
        before -> ok;
        before_idle -> ok;
        quiet -> ok
    end,
    receive {done, P} -> ok end,
    Sequence = events(P, []),
    rounds(N - 1, Mode, Burn, maps:update_with(Sequence, fun(C) -> C + 1 end, 1, Counts)).

%% P's trace messages, from the first at a function other than this module's.
events(P, Acc) ->
    receive
        {trace, P, What, MFA} when (What =:= in orelse What =:= out),
                                   element(1, MFA) =:= ?MODULE, Acc =:= [] ->
            events(P, Acc);
        {trace, P, What, MFA} when What =:= in; What =:= out ->
            events(P, [{What, MFA} | Acc]);
        {trace, P, Gc, _Info} when Gc =:= gc_minor_start; Gc =:= gc_major_start ->
            events(P, [Gc | Acc]);
        {trace, P, _, _} ->
            events(P, Acc)
    after 20 ->
        lists:reverse(Acc)
    end.

%% A module whose code holds a literal, loaded and then deleted and purged as tcs_batch
%% does with a job's tracer module: its literal area is released by the literal area
%% collector, which sends a copy request to every process there is (erts_literal_area_collector).
literal_module() ->
    [{attribute, 1, module, lit}, {attribute, 2, export, [{get, 0}]},
     {function, 3, get, 0, [{clause, 3, [], [], [erl_parse:abstract(lists:seq(1, 100))]}]}].

purge_literals() ->
    {module, lit} = code:load_binary(lit, "lit.beam", persistent_term:get(?MODULE)),
    code:purge(lit), code:delete(lit), code:purge(lit).

%% Until the literal area collector has no request out: the same wait as tcs_batch's.
literals_released() ->
    [Collector] = [P || P <- processes(),
                        process_info(P, initial_call) =:= {initial_call, {erts_literal_area_collector, start, 0}}],
    Ref = make_ref(),
    Collector ! {get_status, Ref, self()},
    receive
        {Ref, idle} -> ok;
        {Ref, working} -> receive after 1 -> literals_released() end
    end.

burn(0) -> ok;
burn(N) -> burn(N - 1).
