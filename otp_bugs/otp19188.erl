%% OTP-19188 (erlang/otp PR #8692; Runtime_Tools 2.1.1, an OTP 27 patch): "dbg sessions on
%% remote nodes were terminated prematurely". PR #8692: dbg's relay process on the remote
%% node did not hold the trace session (a reference-counted NIF resource), so the
%% session was destroyed at the relay's first collection and tracing silently stopped.
%% This node goes distributed, starts a peer, adds it with dbg:n/1, traces a process there
%% for send, collects every process of the peer, and makes the process send. Present: no
%% send event reaches the tracer after the collections (one did before them).
-module(otp19188).
-export([run/0, sender/0]).

run() -> otp_bugs_lib:with_sessions(fun check/0).

check() ->
    Name = list_to_atom("otp19188_" ++ os:getpid()),
    {ok, _} = net_kernel:start([Name, shortnames]),
    {ok, Peer, Node} = peer:start_link(#{name => list_to_atom(atom_to_list(Name) ++ "_peer"),
                                          args => ["-pa" | code:get_path()]}),
    Self = self(),
    {ok, _} = dbg:tracer(process, {fun(Msg, ok) -> Self ! {traced, Msg}, ok end, ok}),
    {ok, Node} = dbg:n(Node),
    Sender = erlang:spawn(Node, ?MODULE, sender, []),
    {ok, _} = dbg:p(Sender, [send]),
    Before = sent_traced(Sender, before),
    ok = erpc:call(Node, fun() -> [erlang:garbage_collect(P) || P <- erlang:processes()], ok end),
    After = sent_traced(Sender, 'after'),
    dbg:stop(),
    peer:stop(Peer),
    io:format("~s~n", [case {Before, After} of
                           {true, true} -> "absent";
                           {true, false} -> "present";
                           Other -> io_lib:format("not_applicable: no send event before the collections ~p", [Other])
                       end]).

%% Asks the remote process to send Tag to this process; true if its send event came.
sent_traced(Sender, Tag) ->
    Sender ! {send, self(), Tag},
    receive Tag -> ok after 5000 -> ok end,
    receive {traced, {trace, Sender, send, Tag, _}} -> true after 3000 -> false end.

sender() ->
    receive {send, To, Tag} -> To ! Tag, sender() end.
