%% OTP-18797 (erlang/otp PR #7712, issue #7683; ERTS 13.2.2.4 = OTP 25.3.2.4, 14.1.1): "If
%% the body of a matchspec would return a map with a variable ('$1', '$_' etc) as one of
%% the keys or values and the variable was not an immediate, the term would not be copied
%% to the receiving process's heap. This would later corrupt the term in the table as the
%% GC could place move markers in it." An ets:select/2 whose body is a map of 41 keys (a
%% hash map: with one key, a flat map, 25.2.3 copies the value) with '$1', a list in the
%% table, as a value, then collections of the selecting process. Present: the table's
%% object, or the selected value, is no longer the list that was inserted, or the node dies
%% (SIGSEGV on 25.2.3, at the first collection). Printed, not the verdict: the same body as a
%% call trace match spec's and a send message pattern's {message, Map} ('$1' the argument, the
%% message sent), collections in the traced process and the tracer after each event; trace match
%% specs run with a temporary result, not the copy out of a table the fix changed (OTP_BUGS.md).
-module(otp18797).
-export([run/0, target/1]).

-define(ROUNDS, 20).

run() ->
    Value = [{element, N, integer_to_list(N)} || N <- lists:seq(1, 100)],
    io:format("tracing form, call and send events right: ~p~n", [lists:usort(tracing_form(Value))]),
    Results = [select_round(Value) || _ <- lists:seq(1, ?ROUNDS)],
    otp_bugs_lib:verdict(lists:all(fun(R) -> R end, Results)).

%% ?ROUNDS processes each call target/1 with Value and send it, traced for call and send with
%% the body of select_round/1 as {message, Body}: {CallRight, SendRight} of each.
tracing_form(Value) ->
    Self = self(),
    Tracer = spawn(fun Fwd() -> receive M -> erlang:garbage_collect(), Self ! {event, M}, Fwd() end end),
    Body = body(),
    1 = erlang:trace_pattern({?MODULE, target, 1}, [{['$1'], [], [{message, Body}]}], [local]),
    erlang:trace_pattern(send, [{['_', '$1'], [], [{message, Body}]}], []),
    Sink = otp_bugs_lib:sink(),
    [begin
         P = spawn(fun() ->
                           receive go -> ok end,
                           ?MODULE:target(Value),
                           erlang:garbage_collect(),
                           Sink ! Value,
                           erlang:garbage_collect(),
                           receive stop -> ok end
                   end),
         1 = erlang:trace(P, true, [call, send, {tracer, Tracer}]),
         P ! go,
         Call = receive {event, {trace, P, call, _, #{v := C}}} -> C =:= Value after 2000 -> timeout end,
         Send = receive {event, {trace, P, send, _, Sink, #{v := S}}} -> S =:= Value after 2000 -> timeout end,
         exit(P, kill),
         {Call, Send}
     end || _ <- lists:seq(1, ?ROUNDS)].

target(X) -> X.

%% A hash map (41 keys) with '$1' as the value of v.
body() ->
    maps:from_list([{v, '$1'} | [{N, N} || N <- lists:seq(1, 40)]]).

%% One table, one select, collections: true if the select's value and the table's object
%% are both still the inserted list.
select_round(Value) ->
    T = ets:new(otp18797, [set, public]),
    true = ets:insert(T, {k, Value}),
    [#{v := Selected}] = ets:select(T, [{{k, '$1'}, [], [body()]}]),
    erlang:garbage_collect(),
    Kept = [{k, Value}] =:= ets:lookup(T, k),
    erlang:garbage_collect(),
    Correct = Kept andalso Selected =:= Value andalso [{k, Value}] =:= ets:lookup(T, k),
    ets:delete(T),
    Correct.
