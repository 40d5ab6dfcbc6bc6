%% The port steps of a scenario (cases/README.md "Ports"): open_port,
%% port_command, port_send, port_close, port_control, links to ports and port
%% names.
%%
%% A port runs `cat` with [binary, {packet, 2}], or the suite's linked-in
%% driver tcs_drv (drivers/tcs_drv.c, loaded with erl_ddll from the directory
%% of the gate's library) with [binary]: either way each command comes back
%% whole as one message to the port's owner.  A port_command to a busy driver
%% port suspends its caller: that step ends once the caller is suspended, and
%% the port_control step that clears the busy state waits for the resumed
%% command's echo.  A step ends when its
%% consequences have happened: the echo is in the owner's mailbox, a closed
%% port is gone.  The runner remembers each port's owner and links, so that
%% after a process dies it can wait for exactly the ports that close with it.
-module(tcs_ports).
-export([run_step/3, deaths/2]).

-define(OPTIONS, [binary, {packet, 2}]).

%% run_step(Step, Names, Ctx) -> {ok, Names} | timeout
run_step({open_port, Who, Name}, Names, Ctx) ->
    open(Who, Name, {spawn, "cat"}, ?OPTIONS, Names, Ctx);
run_step({open_port, Who, Name, driver}, Names, #{drivers := Dir} = Ctx) ->
    %% loaded by the job's process, so it stays loaded while the job runs
    case erl_ddll:load_driver(Dir, tcs_drv) of
        ok -> open(Who, Name, {spawn_driver, "tcs_drv"}, [binary], Names, Ctx);
        {error, Why} -> error({tcs_drv, Dir, erl_ddll:format_error(Why)})
    end;
run_step({port_command, Who, Name, Data}, Names, Ctx) ->
    Port = maps:get(Name, Names),
    case get({tcs_port, Port}) of
        #{busy := true} = Info ->
            suspend(Who, Port, Data, {call, erlang, port_command, [Port, Data]}, Info, Names, Ctx);
        _ ->
            Before = echoes(Port, Data),
            echoed(Port, Data, Before,
                   tcs_runner_lib:puppet_step(Who, {call, erlang, port_command, [Port, Data]}, Names, Ctx),
                   Names, Ctx)
    end;
run_step({port_control, Who, Name, Op}, Names, Ctx) ->
    Port = maps:get(Name, Names),
    Info = get({tcs_port, Port}),
    {Number, Arg, Output} = control(Op, Info),
    put({tcs_port, Port}, controlled(Op, Info)),
    Call = {call, erlang, port_control, [Port, Number, Arg]},
    case Output of
        none -> tcs_runner_lib:after_puppet_step(tcs_runner_lib:puppet_step(Who, Call, Names, Ctx), Names);
        {data, Data} ->
            Before = echoes(Port, Data),
            echoed(Port, Data, Before, tcs_runner_lib:puppet_step(Who, Call, Names, Ctx), Names, Ctx)
    end;
run_step({port_send, Who, Name, Data}, Names, Ctx) ->
    Port = maps:get(Name, Names),
    Send = {send, Port, {maps:get(Who, Names), {command, Data}}},
    case get({tcs_port, Port}) of
        #{busy := true} = Info -> suspend(Who, Port, Data, Send, Info, Names, Ctx);
        _ ->
            Before = echoes(Port, Data),
            echoed(Port, Data, Before, tcs_runner_lib:puppet_step(Who, Send, Names, Ctx), Names, Ctx)
    end;
run_step({port_close, Who, Name}, Names, Ctx) ->
    Port = maps:get(Name, Names),
    case tcs_runner_lib:puppet_step(Who, {call, erlang, port_close, [Port]}, Names, Ctx) of
        {done, _} -> closed([Port], Names, Ctx);
        timeout -> timeout
    end;
run_step({Op, Who, Name}, Names, Ctx) when Op =:= link; Op =:= unlink ->
    Port = maps:get(Name, Names),
    Pid = maps:get(Who, Names),
    #{links := Links} = Info = get({tcs_port, Port}),
    put({tcs_port, Port}, Info#{links := case Op of link -> [Pid | Links]; unlink -> Links -- [Pid] end}),
    tcs_runner_lib:after_puppet_step(tcs_runner_lib:puppet_step(Who, {Op, Port}, Names, Ctx), Names);
run_step({register, Who, RegName, Name}, Names, Ctx) ->
    Register = {call, erlang, register, [RegName, maps:get(Name, Names)]},
    tcs_runner_lib:after_puppet_step(tcs_runner_lib:puppet_step(Who, Register, Names, Ctx), Names).

open(Who, Name, What, Options, Names, Ctx) ->
    case tcs_runner_lib:puppet_step(Who, {call, erlang, open_port, [What, Options]}, Names, Ctx) of
        {done, {ok, Port}} ->
            Owner = maps:get(Who, Names),
            put({tcs_port, Port}, #{owner => Owner, links => [Owner]}),
            {ok, Names#{Name => Port}};
        Other -> tcs_runner_lib:after_puppet_step(Other, Names)
    end.

%% tcs_drv's control operations (drivers/tcs_drv.c): {Operation, Data, the
%% output it brings to the owner}.  Clearing the busy state resumes the
%% suspended command, whose echo comes; the timer's timeout sends "timeout".
control(busy, _Info) -> {1, <<>>, none};
control(not_busy, #{suspended := Data}) -> {2, <<>>, {data, Data}};
control(not_busy, _Info) -> {2, <<>>, none};
control({timer, Ms}, _Info) -> {3, integer_to_binary(Ms), {data, <<"timeout">>}}.

%% What the runner knows of the port after a control call: only busy and not_busy
%% change its busy state, and only not_busy resumes the suspended command.  The
%% timer leaves both as they were: its timeout fires while the port is busy and
%% a process stays suspended (seed 20261204, fuzz group X2: a `timer` step here
%% forgot the busy state, and the next command to the busy port then waited for
%% an echo that cannot come while its caller is suspended).
controlled(busy, Info) -> Info#{busy => true};
controlled(not_busy, Info) -> maps:remove(suspended, Info#{busy => false});
controlled({timer, _Ms}, Info) -> Info.

%% A port_command or ! (Step) to a busy driver port: the puppet is suspended in it;
%% the step ends once the runtime has suspended it.
suspend(Who, Port, Data, Step, Info, Names, #{timeout := Timeout} = Ctx) ->
    Pid = maps:get(Who, Names),
    case tcs_runner_lib:puppet_step(Who, {suspending, Step}, Names, Ctx) of
        {done, suspending} ->
            put({tcs_port, Port}, Info#{suspended => Data}),
            await(fun() -> erlang:process_info(Pid, status) =:= {status, suspended} end, Timeout, Names);
        Other -> tcs_runner_lib:after_puppet_step(Other, Names)
    end.

%% How many echoes {Port, {data, Data}} the port's owner has in its mailbox.
%% Counted before a command, so that the step waits for its own echo: the
%% same data sent twice finds the first echo there already (seen: the second
%% and third echo of three port_command steps with the same data came after
%% the scenario had gone on, their port `send` events missing).
echoes(Port, Data) ->
    #{owner := Owner} = get({tcs_port, Port}),
    case erlang:process_info(Owner, messages) of
        {messages, Messages} -> length([M || M <- Messages, M =:= {Port, {data, Data}}]);
        undefined -> 0
    end.

%% After a command: wait until the port's owner has one echo {Port, {data,
%% Data}} more than it had before.
echoed(Port, Data, Before, {done, _}, Names, #{timeout := Timeout}) ->
    await(fun() -> echoes(Port, Data) > Before end, Timeout, Names);
echoed(_Port, _Data, _Before, timeout, _Names, _Ctx) ->
    timeout.

%% deaths([{Pid, Reason}], Timeout): waits until the ports these deaths close
%% are gone: the ports linked to one of the dead that was their owner or died
%% with a reason other than normal.  Returns ok, or timeout when one stays.
deaths(Deaths, Timeout) ->
    Closing = [Port || {{tcs_port, Port}, #{owner := Owner, links := Links}} <- get(),
                       {Pid, Reason} <- Deaths, lists:member(Pid, Links),
                       Pid =:= Owner orelse Reason =/= normal],
    Dead = [Pid || {Pid, _} <- Deaths],
    [put({tcs_port, P}, I#{links := Ls -- Dead})
     || {{tcs_port, P}, #{links := Ls} = I} <- get()],
    case closed(lists:usort(Closing), #{}, #{timeout => Timeout}) of
        {ok, _} -> ok;
        timeout -> timeout
    end.

%% Waits until the ports are gone.  erlang:ports/0 reads the port table: a
%% monitor or port_info/2 would be a signal the port is scheduled to handle,
%% which running_ports traces (a `monitor` or `info` task).
closed(Ports, Names, #{timeout := Timeout}) ->
    [erase({tcs_port, Port}) || Port <- Ports],
    await(fun() -> [P || P <- erlang:ports(), lists:member(P, Ports)] =:= [] end, Timeout, Names).

%% Polls Done every millisecond until it holds ({ok, Names}) or Timeout
%% milliseconds have passed (timeout).
await(Done, Timeout, Names) ->
    await_until(Done, erlang:monotonic_time(millisecond) + Timeout, Names).

await_until(Done, Deadline, Names) ->
    case Done() of
        true -> {ok, Names};
        false ->
            case erlang:monotonic_time(millisecond) > Deadline of
                true -> timeout;
                false -> timer:sleep(1), await_until(Done, Deadline, Names)
            end
    end.
