%% Steps for scenario processes, handed over without messages (see tcs_gate.c).
-module(tcs_gate).
-export([load/1, new/0, give/3, await_turn/1, finish/2, await_result/2, poke/1, waiting/2, await_waiting/3, state/1]).
-nifs([new/0, give/3, await_turn/1, finish/2, await_result/2, poke/1, waiting/2, await_waiting/3, state/1]).

load(SoPath) -> erlang:load_nif(SoPath, 0).

new() -> erlang:nif_error(not_loaded).
give(_Gate, _Pid, _Step) -> erlang:nif_error(not_loaded).
await_turn(_Gate) -> erlang:nif_error(not_loaded).
finish(_Gate, _Result) -> erlang:nif_error(not_loaded).
await_result(_Gate, _TimeoutMs) -> erlang:nif_error(not_loaded).
poke(_Gate) -> erlang:nif_error(not_loaded).
waiting(_Gate, _Pid) -> erlang:nif_error(not_loaded).
await_waiting(_Gate, _Pid, _TimeoutUs) -> erlang:nif_error(not_loaded).
state(_Gate) -> erlang:nif_error(not_loaded).
