%% OTP-18797 (erlang/otp PR #7712, issue #7683; ERTS 13.2.2.4 = OTP 25.3.2.4, 14.1.1): "If
%% the body of a matchspec would return a map with a variable ('$1', '$_' etc) as one of
%% the keys or values and the variable was not an immediate, the term would not be copied
%% to the receiving process's heap. This would later corrupt the term in the table as the
%% GC could place move markers in it." An ets:select/2 whose body is a map of 41 keys (a
%% hash map: with one key, a flat map, 25.2.3 copies the value) with '$1', a list in the
%% table, as a value, then collections of the selecting process. Present: the table's
%% object, or the selected value, is no longer the list that was inserted, or the node dies
%% (SIGSEGV on 25.2.3, at the first collection).
-module(otp18797).
-export([run/0]).

-define(ROUNDS, 20).

run() ->
    Value = [{element, N, integer_to_list(N)} || N <- lists:seq(1, 100)],
    Results = [select_round(Value) || _ <- lists:seq(1, ?ROUNDS)],
    otp_bugs_lib:verdict(lists:all(fun(R) -> R end, Results)).

%% One table, one select, collections: true if the select's value and the table's object
%% are both still the inserted list.
select_round(Value) ->
    T = ets:new(otp18797, [set, public]),
    true = ets:insert(T, {k, Value}),
    Body = maps:from_list([{v, '$1'} | [{N, N} || N <- lists:seq(1, 40)]]),
    [#{v := Selected}] = ets:select(T, [{{k, '$1'}, [], [Body]}]),
    erlang:garbage_collect(),
    Kept = [{k, Value}] =:= ets:lookup(T, k),
    erlang:garbage_collect(),
    Correct = Kept andalso Selected =:= Value andalso [{k, Value}] =:= ets:lookup(T, k),
    ets:delete(T),
    Correct.
