%% A second node (`peer R`, DIST-*): the runner's node becomes distributed, on loopback only,
%% when a case first needs it, a peer node starts (module peer, OTP 25+), and R is a process
%% there that does the steps the harness hands it (remote/1).  Names are of long form on
%% 127.0.0.1: the Debian roots of OTP 27 and 29 have no /etc/hosts, so no host name resolves
%% there, and an address needs no resolution.  The peer node ends with the job (its control
%% process is one of the job's) and the distribution after it (stop/0, and tcs_batch for a job that
%% did not finish).
-module(tcs_peer).
-export([start/1, seq_tracer/2, peer_node/0, step/3, sync/2, stop/0, remote/1, seq_tracer_loop/2]).

-define(EPMD_TRIES, 50).

%% start(Name): {ok, Pid} of a new process on the case's peer node (started at the first call),
%% or {error, Why} in plain words.
start(Name) ->
    case peer_node() of
        {ok, Node} ->
            %% watched: its death is a step's end (exit) or found by sync/2
            Pid = spawn(Node, ?MODULE, remote, [Name]),
            erlang:monitor(process, Pid),
            {ok, Pid};
        {error, _} = Failed -> Failed
    end.

%% seq_tracer(Name, Collector): {ok, Pid, Answer} of a new process on the case's peer node that has
%% made itself that node's system seq tracer (DIST-SEQ-TRACER), Answer what
%% seq_trace:set_system_tracer/1 answered; it hands each message it gets to Collector as Name's
%% ({'$tcs_via', Name, Msg}: printed msg(<Name>, Msg)).  Or {error, Why} as start/1.
seq_tracer(Name, Collector) ->
    case peer_node() of
        {ok, Node} ->
            Pid = spawn(Node, ?MODULE, seq_tracer_loop, [Name, {self(), Collector}]),
            erlang:monitor(process, Pid),
            receive {Pid, set, Answer} -> {ok, Pid, Answer} end;
        {error, _} = Failed -> Failed
    end.

seq_tracer_loop(Name, {Harness, Collector}) ->
    Harness ! {self(), set, seq_trace:set_system_tracer(self())},
    seq_tracer_loop(Name, Collector);
seq_tracer_loop(Name, Collector) ->
    %% a ping is answered after every message that came before it has been handed on
    receive
        {tcs_peer_ping, From, Ref} -> From ! {Ref, pong};
        Msg -> Collector ! {'$tcs_via', Name, Msg}
    end,
    seq_tracer_loop(Name, Collector).

%% peer_node(): {ok, Node} of the case's peer node, started at the first call, or {error, Why}.
peer_node() ->
    case get(tcs_peer_node) of
        undefined ->
            case distributed() of
                ok -> start_peer();
                {error, _} = Failed -> Failed
            end;
        Node -> {ok, Node}
    end.

distributed() ->
    case node() of
        nonode@nohost ->
            ok = epmd(?EPMD_TRIES),
            ok = application:set_env(kernel, inet_dist_use_interface, {127, 0, 0, 1}),
            Name = list_to_atom("tcs_" ++ os:getpid() ++ "@127.0.0.1"),
            case net_kernel:start(Name, #{name_domain => longnames}) of
                {ok, _} -> erlang:set_cookie(cookie()), ok;
                {error, Why} ->
                    {error, io_lib:format("no peer node: this node could not become distributed on 127.0.0.1 "
                                          "(epmd, or a port to listen on, unavailable): ~0p", [Why])}
            end;
        _ -> ok
    end.

%% epmd answering on loopback, started if it is not (it daemonizes: asked until it answers).
epmd(0) -> ok;
epmd(Tries) ->
    case erl_epmd:names({127, 0, 0, 1}) of
        {ok, _} -> ok;
        _ ->
            Tries =:= ?EPMD_TRIES andalso os:cmd("epmd -address 127.0.0.1 -daemon"),
            receive after 100 -> epmd(Tries - 1) end
    end.

cookie() -> list_to_atom("tcs_" ++ os:getpid()).

start_peer() ->
    Args = ["-setcookie", atom_to_list(cookie()), "-kernel", "inet_dist_use_interface", "{127,0,0,1}"],
    case peer:start(#{name => peer:random_name("tcs_peer"), host => "127.0.0.1", longnames => true,
                      args => Args}) of
        {ok, Peer, Node} ->
            {Mod, Bin, File} = code:get_object_code(?MODULE),
            {module, Mod} = erpc:call(Node, code, load_binary, [Mod, File, Bin]),
            %% loaded before a process there holds a token: its call to the code server would
            %% carry it (remote/1 sets and reads tokens)
            {module, seq_trace} = erpc:call(Node, code, ensure_loaded, [seq_trace]),
            put(tcs_peer_node, Node),
            put(tcs_peer, Peer),
            {ok, Node};
        {error, Why} -> {error, io_lib:format("no peer node: peer:start/1 failed: ~0p", [Why])}
    end.

%% stop(): the case's peer node stopped and the distribution with it, by the job itself, after
%% its last step: what the distribution started is gone before the job's processes are killed
%% (tcs_batch), a kill that once took the distribution's supervisor, and the kernel, with it on
%% OTP 29 (3 of 8 runs of dist_send_remote).
stop() ->
    case erase(tcs_peer) of
        undefined -> ok;
        Peer ->
            erase(tcs_peer_node),
            ok = peer:stop(Peer),
            ok = net_kernel:stop()
    end.

%% step(Pid, Action, Timeout): the remote process Pid does Action; ok once it has (for its
%% exit: once it is gone), or timeout.  Its answer comes over the connection that carried the
%% signals it sent, after them.
step(Pid, {exit, _} = Action, Timeout) ->
    Pid ! {tcs_peer_step, self(), make_ref(), Action},
    receive {'DOWN', _, process, Pid, _} -> gone(Pid), ok after Timeout -> timeout end;
step(Pid, Action, Timeout) ->
    Ref = make_ref(),
    Pid ! {tcs_peer_step, self(), Ref, Action},
    receive {Ref, done} -> ok after Timeout -> timeout end.

%% sync(Remotes, Locals): true iff a process of Remotes has died since the last call; then each
%% of the local processes Locals has handled the exit signal the dead one sent it (DIST-EXIT).
%% A remote process answers a ping after the signals that reached it before (one connection
%% carries them in order: the exit signal of a local process that died in the step, exit/2 of
%% a local step), or its 'DOWN' comes instead.  A local process linked to a dead one has handled
%% its exit signal once the link is gone from its links (or it is gone): asked, not timed.
sync(Remotes, Locals) ->
    [ping(R) || R <- Remotes, not lists:member(R, dead() ++ get_list(tcs_peer_gone))],
    Gone = get_list(tcs_peer_gone),
    put(tcs_peer_gone, []),
    put(tcs_peer_dead, Gone ++ dead()),
    [unlinked(P, R, 1) || R <- Gone, P <- Locals],
    Gone =/= [].

ping(Pid) ->
    Ref = make_ref(),
    Pid ! {tcs_peer_ping, self(), Ref},
    receive
        {Ref, pong} -> ok;
        {'DOWN', _, process, Pid, _} -> gone(Pid)
    end.

gone(Pid) -> put(tcs_peer_gone, [Pid | get_list(tcs_peer_gone)]).

dead() -> get_list(tcs_peer_dead).

get_list(Key) ->
    case get(Key) of
        undefined -> [];
        List -> List
    end.

%% Waits, twice as long each time (from 1 ms), until Local is no longer linked to Remote.
unlinked(Local, Remote, Ms) ->
    case erlang:process_info(Local, links) of
        {links, Links} ->
            case lists:member(Remote, Links) of
                true -> receive after Ms -> unlinked(Local, Remote, 2 * Ms) end;
                false -> ok
            end;
        undefined -> ok
    end.

%% The body of a process on the peer node: it does exactly what a step says, and answers the
%% harness's ping.  It never traps exits: a message sent to it stays in its mailbox until a
%% `recv` step takes it.  A seq_trace token it took with a message (DIST-SEQ-RECEIVE) is its own
%% from one step to the next: put away after each step, before its answer, and set again once it
%% has the next step; the harness's messages, which carry none, would clear it (SEQ-RECEIVE).
remote(Name) -> remote(Name, []).

remote(Name, Token) ->
    receive
        {tcs_peer_step, From, Ref, Action} ->
            [seq_trace:set_token(Key, Value) || {Key, Value} <- Token],
            act(Action),
            Kept = put_away_token(),
            From ! {Ref, done},
            remote(Name, Kept);
        {tcs_peer_ping, From, Ref} ->
            From ! {Ref, pong},
            remote(Name, Token)
    end.

%% The process's token unset, and its label and flags, [] without one.  Set again one by one,
%% they make the token it was: its serial is the process's own counters, which unsetting leaves
%% (seq_trace:set_token/1 of the whole token would set them to the token's fields).
put_away_token() ->
    case seq_trace:get_token() of
        [] -> [];
        _ ->
            Parts = [seq_trace:get_token(Key) || Key <- [label, send, 'receive', print, timestamp,
                                                         monotonic_timestamp, strict_monotonic_timestamp]],
            seq_trace:set_token([]),
            Parts
    end.

act({recv, _}) -> receive M -> M end;
act({send, To, Msg}) -> To ! Msg;
act({link, Pid}) -> link(Pid);
act({unlink, Pid}) -> unlink(Pid);
act({kill, Pid, Reason}) -> exit(Pid, Reason);
act({exit, Reason}) -> exit(Reason).
