%% The relations a case states between two named call_time or call_memory
%% readings (CALL-COUNTERS-RELATION): each reading measured as the sum over its
%% entries of the time in microseconds ({Pid, Count, S, Us}) or of the words
%% ({Pid, Count, Words}), the two measures compared with the operator.
-module(tcs_readings).
-export([relation/3, measure/1]).

%% relation(X, Op, Y): true or false; {not_a_counter_list, R} for a reading R
%% that is no such list (the model predicts true or false only: it differs).
relation(X, Op, Y) ->
    case {measure(X), measure(Y)} of
        {{ok, A}, {ok, B}} -> compare(A, Op, B);
        {{ok, _}, _} -> {not_a_counter_list, Y};
        _ -> {not_a_counter_list, X}
    end.

compare(A, '>=', B) -> A >= B;
compare(A, '>', B) -> A > B;
compare(A, '=<', B) -> A =< B;
compare(A, '<', B) -> A < B;
compare(A, '=:=', B) -> A =:= B.

measure({call_time, L}) when is_list(L) ->
    sum([S * 1000000 + Us || {_, _, S, Us} <- L], L);
measure({call_memory, L}) when is_list(L) ->
    sum([W || {_, _, W} <- L], L);
measure(_) -> error.

sum(Values, L) when length(Values) =:= length(L) -> {ok, lists:sum(Values)};
sum(_, _) -> error.
