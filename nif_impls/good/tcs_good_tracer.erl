%% The bundled good tracer (tcs_good_tracer.c): every optional callback is a NIF.
-module(tcs_good_tracer).
-export([enabled_call/3, enabled_garbage_collection/3, enabled_ports/3, enabled_procs/3,
         enabled_receive/3, enabled_running_ports/3, enabled_running_procs/3, enabled_send/3,
         trace_call/5, trace_garbage_collection/5, trace_ports/5, trace_procs/5,
         trace_receive/5, trace_running_ports/5, trace_running_procs/5, trace_send/5]).
-include("tcs_tracer_base.hrl").

enabled_call(_, _, _) -> erlang:nif_error(not_loaded).
enabled_garbage_collection(_, _, _) -> erlang:nif_error(not_loaded).
enabled_ports(_, _, _) -> erlang:nif_error(not_loaded).
enabled_procs(_, _, _) -> erlang:nif_error(not_loaded).
enabled_receive(_, _, _) -> erlang:nif_error(not_loaded).
enabled_running_ports(_, _, _) -> erlang:nif_error(not_loaded).
enabled_running_procs(_, _, _) -> erlang:nif_error(not_loaded).
enabled_send(_, _, _) -> erlang:nif_error(not_loaded).
trace_call(_, _, _, _, _) -> erlang:nif_error(not_loaded).
trace_garbage_collection(_, _, _, _, _) -> erlang:nif_error(not_loaded).
trace_ports(_, _, _, _, _) -> erlang:nif_error(not_loaded).
trace_procs(_, _, _, _, _) -> erlang:nif_error(not_loaded).
trace_receive(_, _, _, _, _) -> erlang:nif_error(not_loaded).
trace_running_ports(_, _, _, _, _) -> erlang:nif_error(not_loaded).
trace_running_procs(_, _, _, _, _) -> erlang:nif_error(not_loaded).
trace_send(_, _, _, _, _) -> erlang:nif_error(not_loaded).
