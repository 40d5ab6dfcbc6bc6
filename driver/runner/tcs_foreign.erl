%% Terms a case writes that are no process or port of its node
%% (cases/README.md "Terms"): a pid and a port of another node, and an
%% atomics reference.
%%
%% The external pid and port are made from the external term format
%% (NEW_PID_EXT, NEW_PORT_EXT) of a node that is never started: no peer node,
%% no distribution, the same value on every run.  What the functions of module
%% trace check is node(Term) =/= node() (erl_kernel_errors's format_error/2
%% names not_local_pid / not_local_port so); a pid and a port of a connected
%% peer were seen giving the same answers on OTP 27 and 29 (CONFORMANCE.md C-280).
-module(tcs_foreign).
-export([external_pid/0, external_port/0, atomics_ref/0]).

-define(NODE, <<"tcs_peer@tcs_host">>).

%% <ext:pid>: NEW_PID_EXT with Id 1, Serial 0, Creation 1.
-spec external_pid() -> pid().
external_pid() ->
    binary_to_term(<<131, 88, (node_atom())/binary, 1:32, 0:32, 1:32>>).

%% <ext:port>: NEW_PORT_EXT with Id 1, Creation 1.
-spec external_port() -> port().
external_port() ->
    binary_to_term(<<131, 89, (node_atom())/binary, 1:32, 1:32>>).

%% atomics:new(1,[]): a reference, a magic one.
-spec atomics_ref() -> atomics:atomics_ref().
atomics_ref() -> atomics:new(1, []).

%% SMALL_ATOM_UTF8_EXT of the node's name.
node_atom() -> <<119, (byte_size(?NODE)), ?NODE/binary>>.
