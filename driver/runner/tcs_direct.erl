%% The direct call path (cases/README.md "Call paths"): each function a `call ... direct`
%% step may name, called by a remote call compiled here, as code calls it, not through
%% erlang:apply/3. OTP-19840 (erlang/otp PR #10349) lost only calls of this kind of a BIF.
%% Every call is a tail call, as tcs_puppet's apply/3 is, so the caller and the return_to
%% of the traced function are tcs_puppet:perform/1 on both paths (the model prints the
%% same lines for both). Keep the clauses in step with ref/vocab/fixture.c's exported
%% functions (module_info/0,1 aside, which no call step names).
-module(tcs_direct).
-export([call/3, call_fun/3]).

call(tcs_target, id, [X]) -> tcs_target:id(X);
call(tcs_target, twice, [X]) -> tcs_target:twice(X);
call(tcs_target, tail, [X]) -> tcs_target:tail(X);
call(tcs_target, deep, [X]) -> tcs_target:deep(X);
call(tcs_target, check, [X]) -> tcs_target:check(X);
call(tcs_target, relay, [X]) -> tcs_target:relay(X);
call(tcs_target, catcher, [X]) -> tcs_target:catcher(X);
call(tcs_target, top, [X]) -> tcs_target:top(X);
call(tcs_target, middle, [X]) -> tcs_target:middle(X);
call(tcs_target, bottom, [X]) -> tcs_target:bottom(X);
call(tcs_late, id, [X]) -> tcs_late:id(X);
call(tcs_nif, id, [X]) -> tcs_nif:id(X);
call(tcs_nif, check, [X]) -> tcs_nif:check(X);
call(tcs_nif, dirty_cpu, [X]) -> tcs_nif:dirty_cpu(X);
call(tcs_nif, dirty_io, [X]) -> tcs_nif:dirty_io(X);
call(tcs_shapes, loop, [N]) -> tcs_shapes:loop(N);
call(tcs_shapes, bs_sum_a, [Bin, Acc]) -> tcs_shapes:bs_sum_a(Bin, Acc);
call(tcs_shapes, bs_sum_b, [Acc, Bin]) -> tcs_shapes:bs_sum_b(Acc, Bin);
call(tcs_shapes, bs_sum_c, [Bits, Acc]) -> tcs_shapes:bs_sum_c(Bits, Acc);
call(tcs_shapes, receive_message, []) -> tcs_shapes:receive_message();
call(tcs_shapes, alloc_tuples, [N, Size]) -> tcs_shapes:alloc_tuples(N, Size);
call(tcs_shapes, yielding, [X]) -> tcs_shapes:yielding(X);
call(erlang, phash2, [X]) -> erlang:phash2(X);
call(lists, seq, [From, To]) -> lists:seq(From, To).

%% The fun call path (`call ... fun`): a fun of the function made at run time, an external fun
%% as `fun M:F/A` is, called in a tail call; one clause per arity the fixture has.
call_fun(M, F, []) -> (erlang:make_fun(M, F, 0))();
call_fun(M, F, [X]) -> (erlang:make_fun(M, F, 1))(X);
call_fun(M, F, [X, Y]) -> (erlang:make_fun(M, F, 2))(X, Y).
