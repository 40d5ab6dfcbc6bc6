%% load_path: where is a process that loads a module by its call scheduled out? (CONFORMANCE.md C-366)
%%
%% Each round deletes and purges load_path_target, spawns a process traced for running that burns
%% 3,000 to 4,100 reductions (so that its time slice of 4,000 ends somewhere on the load path) and
%% then calls load_path_target:id/1, which loads the module. It prints, per distinct sequence, how
%% many rounds scheduled the process out and in at what functions after its burn, most common first.
%%
%%   erlc load_path.erl load_path_target.erl && erl -noshell -pa . -run load_path main 3000 none
%%   (on_load instead of none sets erlang:trace_pattern(on_load, [], [global]) first)
-module(load_path).
-export([main/1]).

main([Rounds, Pattern]) ->
    case Pattern of
        "on_load" -> erlang:trace_pattern(on_load, [], [global]);
        "none" -> ok
    end,
    Counts = rounds(list_to_integer(Rounds), #{}),
    Sorted = lists:reverse(lists:keysort(2, maps:to_list(Counts))),
    [io:format("~p ~w~n", [N, Sequence]) || {Sequence, N} <- Sorted],
    halt().

rounds(0, Counts) -> Counts;
rounds(N, Counts) ->
    code:purge(load_path_target), code:delete(load_path_target), code:purge(load_path_target),
    Parent = self(),
    Work = 3000 + rand:uniform(1100),
    P = spawn(fun() -> receive go -> ok end, burn(Work), load_path_target:id(1), Parent ! {done, self()} end),
    erlang:trace(P, true, [running]),
    P ! go,
    receive {done, P} -> ok end,
    Sequence = scheduling(P, false, []),
    rounds(N - 1, maps:update_with(Sequence, fun(C) -> C + 1 end, 1, Counts)).

%% P's in and out messages from its first one at a function of another module than this one.
scheduling(P, Started, Acc) ->
    receive
        {trace, P, What, MFA} when What =:= in; What =:= out ->
            Now = Started orelse element(1, MFA) =/= ?MODULE,
            scheduling(P, Now, if Now -> [{What, MFA} | Acc]; true -> Acc end);
        {trace, P, _, _} ->
            scheduling(P, Started, Acc)
    after 20 ->
        lists:reverse(Acc)
    end.

burn(0) -> ok;
burn(N) -> burn(N - 1).
