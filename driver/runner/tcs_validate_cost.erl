%% The ./tcs validate check cost, a benchmark: what the tracer costs, as
%% medians over samples taken in this one run.
%%   enabled_ns        one call of the enabled callback the runtime uses for
%%                     send (enabled_send/3 or enabled/3), from Erlang
%%   trace_ns          one call of trace_send/5 or trace/5, from Erlang
%%   event_untraced_ns one send by an untraced process
%%   event_module_ns   one send by a process traced with [send] and this tracer
%%   event_builtin_ns  one send by a process traced with [send] and the
%%                     built-in process tracer {tracer, Pid}
%% Call times have the cost of the empty loop taken out; event times are the
%% sender's, from its first send to its last.  Each sample is preceded by an
%% unmeasured warm-up sample.  The job sets {samples, N}, {calls, N}, {events, N}.
%%
%% Usage: erl -noshell -pa DIR -run tcs_validate_cost main JOB_FILE
-module(tcs_validate_cost).
-export([main/1, noop/3, noop/5]).

-import(tcs_validate_lib, [out/3, step/3]).

%% The longest a sample may take.
-define(SAMPLE_NS, 300000000).

main([JobFile]) ->
    #{module := Module, nifs := Nifs} = Ctx = tcs_validate_lib:start(JobFile),
    Samples = tcs_validate_lib:option(samples, Ctx, 7),
    Calls = tcs_validate_lib:option(calls, Ctx, 20000),
    Events = tcs_validate_lib:option(events, Ctx, 20000),
    %% The benchmark's state drops what the tracer sends it, as a real
    %% consumer would; '$harness' in --state stands for it.
    Drain = tcs_validate_lib:drain(),
    {ok, State} = tcs_validate_lib:parse_state(tcs_validate_lib:option(state, Ctx, default), Drain),
    Receiver = tcs_validate_lib:drain(),
    Enabled = tcs_validate_lib:callback_for(enabled, send, Nifs),
    Trace = tcs_validate_lib:callback_for(trace, send, Nifs),
    out("DATA", "samples ~b", [Samples]),
    out("DATA", "calls_per_sample ~b", [Calls]),
    out("DATA", "events_per_sample ~b", [Events]),
    EnabledArgs = [send, State, self()],
    TraceArgs = [send, State, self(), {hello, [1, 2, 3]}, #{extra => Receiver}],
    step("enabled", "-", io_lib:format("~s(send, State, Tracee) ~b times", [Enabled, Calls])),
    data("enabled_ns", median(Samples, fun() -> per_call(Module, Enabled, EnabledArgs, calls(Module, Enabled, EnabledArgs, Calls)) end)),
    step("trace", "-", io_lib:format("~s(send, State, Tracee, Msg, Opts) ~b times", [Trace, Calls])),
    data("trace_ns", median(Samples, fun() -> per_call(Module, Trace, TraceArgs, calls(Module, Trace, TraceArgs, Calls)) end)),
    step("untraced", "-", io_lib:format("~b sends by an untraced process", [Events])),
    data("event_untraced_ns", median(Samples, fun() -> per_send([], Receiver, Events) end)),
    %% Whether the traced sends below reach trace*/5 at all: the tracer must
    %% be attached (enabled(trace_status, ...) did not answer remove) and
    %% answer trace for send.
    step("attached", "-", "a process traced with [send] and this tracer"),
    data("module_attached", attaches(Module, State)),
    out("NOTE", "send answer: ~0tP", [catch Module:Enabled(send, State, self()), 8]),
    step("module", "-", io_lib:format("~b sends traced with {tracer, ~s, State}", [Events, Module])),
    Traced = [send, {tracer, Module, State}],
    data("event_module_ns",
         median(Samples, fun() -> per_send(Traced, Receiver, sends(Traced, Receiver, Events)) end)),
    step("builtin", "-", io_lib:format("~b sends traced with the built-in {tracer, Pid}", [Events])),
    BuiltIn = tcs_validate_lib:drain(),
    data("event_builtin_ns",
         median(Samples, fun() -> per_send([send, {tracer, BuiltIn}], Receiver, Events) end)),
    tcs_validate_lib:finish(Module).

attaches(Module, State) ->
    Probe = spawn(fun() -> receive stop -> ok end end),
    erlang:trace(Probe, true, [send, {tracer, Module, State}]),
    {tracer, Tracer} = erlang:trace_info(Probe, tracer),
    Probe ! stop,
    case Tracer of [] -> 0.0; _ -> 1.0 end.

noop(_, _, _) -> ok.
noop(_, _, _, _, _) -> ok.

data(Key, Value) -> out("DATA", "~s ~.1f", [Key, Value]).

median(Samples, Measure) ->
    _ = Measure(),
    Sorted = lists:sort([Measure() || _ <- lists:seq(1, Samples)]),
    lists:nth((Samples + 1) div 2, Sorted).

%% How many of Wanted calls or sends make a sample of at most ?SAMPLE_NS,
%% from the time Measure(N) takes for 10: a slow callback is measured on
%% fewer (said in a NOTE), so that slowness is a figure, not a hang.
fit(What, Measure, Wanted) ->
    PerOne = max(1, Measure(10) div 10),
    case max(10, min(Wanted, ?SAMPLE_NS div PerOne)) of
        Wanted -> Wanted;
        Fewer ->
            out("NOTE", "~s: ~b per sample instead of ~b: one takes about ~b us", [What, Fewer, Wanted, PerOne div 1000]),
            Fewer
    end.

%% The calls and sends per sample, fitted once (memoized in the process dictionary).
calls(Module, Function, Args, Wanted) ->
    memo({calls, Function}, fun() -> fit(Function, fun(N) -> loop_ns(Module, Function, Args, N) end, Wanted) end).

sends(Flags, Receiver, Wanted) ->
    memo({sends, Flags}, fun() -> fit("sends", fun(N) -> round(per_send(Flags, Receiver, N) * N) end, Wanted) end).

memo(Key, Compute) ->
    case get(Key) of
        undefined -> Value = Compute(), put(Key, Value), Value;
        Value -> Value
    end.

%% Nanoseconds per call of Module:Function(Args...), the empty loop taken out.
per_call(Module, Function, Args, Calls) ->
    Loop = loop_ns(?MODULE, noop, Args, Calls),
    max(0.0, loop_ns(Module, Function, Args, Calls) - Loop) / Calls.

loop_ns(Module, Function, Args, Calls) ->
    Start = erlang:monotonic_time(nanosecond),
    call_loop(Module, Function, Args, Calls),
    erlang:monotonic_time(nanosecond) - Start.

call_loop(_, _, _, 0) -> ok;
call_loop(M, F, [A, B, C] = Args, N) -> M:F(A, B, C), call_loop(M, F, Args, N - 1);
call_loop(M, F, [A, B, C, D, E] = Args, N) -> M:F(A, B, C, D, E), call_loop(M, F, Args, N - 1).

%% Nanoseconds per send by a fresh process traced with Flags ([]: untraced).
per_send(Flags, Receiver, Events) ->
    Parent = self(),
    Sender = spawn(fun() -> receive go -> ok end, Parent ! {self(), send_loop(Receiver, Events)} end),
    [erlang:trace(Sender, true, Flags) || Flags =/= []],
    Sender ! go,
    receive {Sender, Ns} -> Ns / Events end.

send_loop(Receiver, Events) ->
    Start = erlang:monotonic_time(nanosecond),
    send_n(Receiver, Events),
    erlang:monotonic_time(nanosecond) - Start.

send_n(_, 0) -> ok;
send_n(Receiver, N) -> Receiver ! {event, N}, send_n(Receiver, N - 1).
