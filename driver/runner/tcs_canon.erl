%% Canonical term printing for live streams (PROTOCOLS.md §6 "Terms").
%% The reference model prints the same way in ref/terms/term_print.c; the two are
%% kept apart on purpose, one per engine, and the corpus checks they agree.
-module(tcs_canon).
-export([term/2, constant_fun/1]).

%% The last run of this many equal elements of a proper list prints as
%% lists:duplicate(N,T), and a binary this long of one byte as binary:copy(<<B>>,N)
%% (ref/terms/term.h, TERM_LONG).
-define(LONG, 1024).

%% constant_fun(Body): the fun a case writes as `fun() -> Body end` (the
%% plan's {'$tcs_fun', Body}).  Made here, so that term/2 knows it again in
%% whatever the tracer got: two funs of this expression with the same Body
%% are equal (=:=), and no other fun is.
-spec constant_fun(term()) -> fun(() -> term()).
constant_fun(Body) -> fun() -> Body end.

%% term(Term, Names): Term as canonical text; Names maps pids and ports to
%% scenario names.  References differ on every run: they print as _Ref.
-spec term(term(), #{pid() | port() => atom()}) -> iolist().
term(T, _) when is_port(T), node(T) =/= node() -> "<ext:port>";
term(T, Names) when is_pid(T) ->
    %% a process of the case's peer node is named like a local one (DIST-PEER)
    case Names of
        #{T := Name} -> ["<", atom_to_list(Name), ">"];
        #{} when node(T) =/= node() -> "<ext:pid>";
        #{} -> "<?>"
    end;
term({'$tcs_placeholder', Text}, _) -> Text;   % a value printed as a name: _Id
term(T, Names) when is_port(T) ->
    case Names of
        #{T := Name} -> ["<port:", atom_to_list(Name), ">"];
        #{} -> "<port:?>"
    end;
term(T, _) when is_reference(T) -> "_Ref";
term(T, Names) when is_function(T) ->
    %% a fun the case wrote prints as written; any other as #Fun<?> (like <?>)
    case erlang:fun_info(T, env) of
        {env, [Body]} -> written_fun(T =:= ?MODULE:constant_fun(Body), Body, Names);
        _ -> "#Fun<?>"
    end;
term(T, _) when is_integer(T) -> integer_to_list(T);
term(T, _) when is_atom(T) -> atom(T);
term(T, Names) when is_tuple(T) -> ["{", seq(tuple_to_list(T), Names), "}"];
term([], _) -> "[]";
term([H | T] = L, Names) ->
    case run(T, 1, 0, H, 1) of
        {0, N, E} -> duplicate(N, E, Names);
        {Before, N, E} -> ["[", seq(lists:sublist(L, Before), Names), "|", duplicate(N, E, Names), "]"];
        none -> ["[", list(L, Names), "]"]
    end;
term(T, Names) when is_map(T) ->
    Pairs = [[term(K, Names), "=>", term(V, Names)] || {K, V} <- lists:sort(maps:to_list(T))],
    ["#{", lists:join(",", Pairs), "}"];
term(T, _) when is_binary(T) -> binary(T);
term(T, _) -> io_lib:format("~w", [T]).

%% A binary is read by BIFs only, never matched with the bit syntax: on OTP 27 and 29 the
%% argument a call trace event makes of a match context (a function tail-called with the rest
%% of the binary it matches) changes when the process that holds it matches it (C-540), and
%% the stream is to show what the runtime handed over.
binary(T) when byte_size(T) >= ?LONG ->
    N = byte_size(T),
    %% every byte equals the first iff the bytes equal themselves shifted by one
    case binary:part(T, 1, N - 1) =:= binary:part(T, 0, N - 1) of
        true -> ["binary:copy(<<", integer_to_list(binary:first(T)), ">>,", integer_to_list(N), ")"];
        false -> bytes(T)
    end;
binary(T) -> bytes(T).

bytes(T) -> ["<<", lists:join(",", [integer_to_list(B) || B <- binary_to_list(T)]), ">>"].

written_fun(true, Body, Names) -> ["fun()->", term(Body, Names), " end"];
written_fun(false, _, _) -> "#Fun<?>".

%% run(Tail, I, Start, E, N): the last run of equal elements of a proper list,
%% {Start, N, E} (N elements E from the one at 0-based index Start), when it is
%% ?LONG long or longer; else none.  I is the index of Tail's first element,
%% and the run so far is N elements E from Start.
run([E | T], I, Start, E, N) -> run(T, I + 1, Start, E, N + 1);
run([H | T], I, _, _, _) -> run(T, I + 1, I, H, 1);
run([], _, Start, E, N) when N >= ?LONG -> {Start, N, E};
run(_, _, _, _, _) -> none.

duplicate(N, E, Names) -> ["lists:duplicate(", integer_to_list(N), ",", term(E, Names), ")"].

seq(Items, Names) -> lists:join(",", [term(I, Names) || I <- Items]).

list([H | T], Names) when is_list(T) -> [term(H, Names) | tail(T, Names)];
list([H | T], Names) -> [term(H, Names), "|", term(T, Names)].

tail([], _) -> [];
tail([H | T], Names) when is_list(T) -> [",", term(H, Names) | tail(T, Names)];
tail([H | T], Names) -> [",", term(H, Names), "|", term(T, Names)].

atom(A) ->
    S = atom_to_list(A),
    case bare(S) andalso not lists:member(S, reserved()) of
        true -> S;
        false -> [$', escape(S), $']
    end.

bare([C | Rest]) when C >= $a, C =< $z ->
    lists:all(fun(X) -> (X >= $a andalso X =< $z) orelse (X >= $A andalso X =< $Z)
                            orelse (X >= $0 andalso X =< $9) orelse X =:= $_ orelse X =:= $@
              end, Rest);
bare(_) -> false.

escape(S) -> [case C of $' -> "\\'"; $\\ -> "\\\\"; _ -> C end || C <- S].

reserved() ->
    ["after", "and", "andalso", "band", "begin", "bnot", "bor", "bsl", "bsr", "bxor",
     "case", "catch", "cond", "div", "else", "end", "fun", "if", "let", "maybe", "not",
     "of", "or", "orelse", "receive", "rem", "try", "when", "xor"].
