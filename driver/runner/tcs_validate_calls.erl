%% The ./tcs validate checks that call the tracer's callbacks directly with
%% synthesized arguments (the functions of a NIF tracer module are callable
%% from Erlang), over the whole input space of tcs_validate_lib:
%%   enabled_answers   enabled*/3 answers trace, discard or remove; never raises
%%   enabled_pure      enabled*/3 sends nothing anywhere the harness can see,
%%                     and answers the same when asked twice
%%   trace_accepts     trace*/5 returns without raising
%%   tracee_untouched  no callback sends to the tracee or issues a port
%%                     command to it (spec 000, the Warning)
%%   latency           every input timed: one that takes longer than
%%                     {latency_ms, L} in each of 3 calls in a row holds its
%%                     scheduler too long (after ?SLOW_SHOWN such inputs the
%%                     rest are not called: each costs that long)
%%   memory            every input of both families, with an ASan+UBSan build
%%                     of the tracer loaded, or on a node under valgrind
%%                     memcheck (validate --sanitize): the driver judges the
%%                     errors they found in the tracer's library
%%
%% Usage: erl -noshell -pa DIR -run tcs_validate_calls main JOB_FILE
%% The job names the check ({check, Name}) and selects the inputs (see
%% tcs_validate_lib:each/3).  A crash or a hang in a callback ends the node
%% after the callback's STEP line: the driver names the callback from it.
-module(tcs_validate_calls).
-export([main/1]).

-import(tcs_validate_lib, [call/2, each/3, effects/1, finding/3, out/3]).

%% How long a message sent from outside the calling process may take to show.
-define(LATE_MS, 100).
%% Inputs found slow before latency stops calling.
-define(SLOW_SHOWN, 3).

main([JobFile]) ->
    #{nifs := Nifs} = Ctx = tcs_validate_lib:start(JobFile),
    Check = tcs_validate_lib:option(check, Ctx, undefined),
    %% The inputs the check would call with none left out, for its verdict.
    out("DATA", "planned ~b", [lists:sum([length(tcs_validate_lib:inputs(F, Nifs)) || F <- families(Check)])]),
    check(Check, Ctx),
    tcs_validate_lib:finish(maps:get(module, Ctx)).

families(tracee_untouched) -> [enabled, trace];
families(memory) -> [enabled, trace];
families(latency) -> [enabled, trace];
families(trace_accepts) -> [trace];
families(_) -> [enabled].

check(enabled_answers, Ctx) ->
    Answers = each(enabled, Ctx, fun(Index, Input) -> answer(Index, Input, Ctx) end),
    out("NOTE", "~b enabled calls; answers: ~ts", [length(Answers), tally(Answers)]);
check(enabled_pure, Ctx) ->
    _ = effects(Ctx),
    Pairs = each(enabled, Ctx, fun(Index, Input) -> pure(Index, Input, Ctx) end),
    late(fun tcs_validate_lib:effects/1, Ctx),
    out("NOTE", "~b enabled inputs, each asked twice", [length(Pairs)]);
check(trace_accepts, Ctx) ->
    Results = each(trace, Ctx, fun(Index, Input) -> accepts(Index, Input, Ctx) end),
    out("NOTE", "~b trace calls; results: ~ts", [length(Results), tally(Results)]);
check(tracee_untouched, Ctx) ->
    _ = effects(Ctx),
    Calls = each(enabled, Ctx, fun(Index, Input) -> untouched(Index, Input, Ctx) end)
        ++ each(trace, Ctx, fun(Index, Input) -> untouched(Index, Input, Ctx) end),
    late(fun tcs_validate_lib:tracee_effects/1, Ctx),
    out("NOTE", "~b calls with a tracee watched", [length(Calls)]);
check(latency, Ctx) ->
    LimitUs = round(tcs_validate_lib:option(latency_ms, Ctx, 10) * 1000),
    Time = fun(Index, Input) -> timed(Index, Input, Ctx, LimitUs) end,
    Times = [T || {_, _} = T <- each(enabled, Ctx, Time) ++ each(trace, Ctx, Time)],
    {Slowest, Which} = lists:max([{0, "none"} | Times]),
    out("NOTE", "~b inputs timed; the slowest took ~b us (~ts)", [length(Times), Slowest, Which]);
check(memory, Ctx) ->
    %% As little Erlang code as possible between the calls: under memcheck
    %% every instruction of it costs (what trace*/5 sends is judged elsewhere).
    Call = fun(_Index, Input) -> _ = call(Input, Ctx), called end,
    Calls = each(enabled, Ctx, Call) ++ each(trace, Ctx, Call),
    _ = effects(Ctx),
    out("NOTE", "~b calls", [length(Calls)]).

timed(Index, Input, Ctx, LimitUs) ->
    case get(tcs_slow) of
        ?SLOW_SHOWN -> not_called;
        _ ->
            Us = call_us(Input, Ctx),
            case Us > LimitUs of
                false -> {Us, tcs_validate_lib:input_key(Input)};
                true ->
                    Min = lists:min([Us, call_us(Input, Ctx), call_us(Input, Ctx)]),
                    [slow(Index, Min, LimitUs) || Min > LimitUs],
                    {Min, tcs_validate_lib:input_key(Input)}
            end
    end.

call_us(Input, Ctx) ->
    Start = erlang:monotonic_time(microsecond),
    _ = call(Input, Ctx),
    erlang:monotonic_time(microsecond) - Start.

slow(Index, Us, LimitUs) ->
    put(tcs_slow, case get(tcs_slow) of undefined -> 1; N -> N + 1 end),
    finding(Index, "held its scheduler ~.1f ms in each of 3 calls in a row (the limit is ~.1f ms)~ts",
            [Us / 1000, LimitUs / 1000,
             case get(tcs_slow) of
                 ?SLOW_SHOWN -> "; the inputs after it are not called";
                 _ -> ""
             end]).

answer(Index, Input, Ctx) ->
    case call(Input, Ctx) of
        {ok, Answer} when Answer =:= trace; Answer =:= discard; Answer =:= remove ->
            note_unusual(Index, element(2, Input), Answer),
            Answer;
        {ok, Other} ->
            finding(Index, "answered ~0tP, which is none of trace, discard and remove", [Other, 10]),
            bad_answer;
        {raised, Class, Reason} ->
            finding(Index, "raised ~p:~0tP", [Class, Reason, 10]),
            raised
    end.

%% Answers the documents allow but the runtime reads in its own way (notes,
%% not findings): the -spec of enabled/3 gives trace | remove for trace_status
%% and trace | discard for the other tags.
note_unusual(Index, trace_status, discard) ->
    out("NOTE", "~s answers discard for trace_status, which the runtime takes as trace", [Index]);
note_unusual(Index, Tag, remove) when Tag =/= trace_status ->
    out("NOTE", "~s answers remove for ~p: the runtime then detaches the tracer from the tracee "
        "(CONFORMANCE.md, Clarification C-5)", [Index, Tag]);
note_unusual(_, _, _) -> ok.

pure(Index, Input, Ctx) ->
    First = call(Input, Ctx),
    Effects = effects(Ctx),
    Second = call(Input, Ctx),
    Again = effects(Ctx),
    [finding(Index, "answered ~ts, then ~ts when asked again", [show(First), show(Second)])
     || First =/= Second],
    [finding(Index, "sent to ~ts: ~ts", [Where, show_effect(What)]) || {Where, What} <- Effects ++ Again],
    First.

accepts(Index, Input, Ctx) ->
    Result = call(Input, Ctx),
    _ = effects(Ctx),   % what trace*/5 sends is its business here; keep the sinks small
    case Result of
        {ok, ok} -> ok;
        {ok, _} -> returned_other_than_ok;   % the runtime ignores it; the -callback says ok
        {raised, Class, Reason} ->
            finding(Index, "raised ~p:~0tP", [Class, Reason, 10]),
            raised
    end.

untouched(Index, Input, Ctx) ->
    _ = call(Input, Ctx),
    [finding(Index, "sent to ~ts: ~ts", [Where, show_effect(What)])
     || {Where, What} <- tcs_validate_lib:tracee_effects(Ctx)],
    _ = effects(Ctx),
    called.

%% Messages sent by a callback from another thread or process arrive later.
late(Look, Ctx) ->
    timer:sleep(?LATE_MS),
    [finding("-", "sent to ~ts, noticed only after all calls: ~ts", [Where, show_effect(What)])
     || {Where, What} <- Look(Ctx)].

show({ok, Value}) -> io_lib:format("~0tP", [Value, 10]);
show({raised, Class, Reason}) -> io_lib:format("a raise of ~p:~0tP", [Class, Reason, 10]).

show_effect({messages, Messages}) -> io_lib:format("~0tP", [Messages, 12]);
show_effect({port_command_bytes, Bytes}) -> io_lib:format("a port command of ~b bytes", [Bytes]).

tally(Items) ->
    Counts = lists:foldl(fun(I, Acc) -> maps:update_with(I, fun(N) -> N + 1 end, 1, Acc) end,
                         #{}, Items),
    lists:join(", ", [io_lib:format("~p ~b", [K, N]) || {K, N} <- lists:sort(maps:to_list(Counts))]).
