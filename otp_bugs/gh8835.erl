%% erlang/otp#8835 (OTP-19269, fix PR #8897; OTP 25.3.2.11, 26.2.5.4, 27.1.2): resetting the
%% call_time (or call_memory) counters of a function while another process is inside it
%% frees the process's call-time bookkeeping under it: the VM crashes. A race: two
%% processes loop through the traced functions while this one resets their counters for
%% about two seconds. Present: the node dies (no line printed). Up to 3 tries: one was absent on
%% 25.2.3 in 1 of 3 loaded runs of the live test (a load average of about 21).
%% tries: 3
-module(gh8835).
-export([run/0, aaa/0, bbb/0]).

run() ->
    [1 = erlang:trace_pattern({?MODULE, F, 0}, true, [call_time]) || F <- [aaa, bbb]],
    Tracer = spawn(fun Sink() -> receive _ -> Sink() end end),
    Workers = [spawn(fun() -> erlang:trace(self(), true, [call, {tracer, Tracer}]), loop() end)
               || _ <- [1, 2, 3, 4]],
    Deadline = erlang:monotonic_time(millisecond) + 2000,
    reset(Deadline),
    [exit(W, kill) || W <- Workers],
    io:format("absent~n").

reset(Deadline) ->
    [erlang:trace_pattern({?MODULE, F, 0}, restart, [call_time]) || F <- [aaa, bbb]],
    [erlang:trace_pattern({?MODULE, F, 0}, true, [call_time]) || F <- [aaa, bbb]],
    case erlang:monotonic_time(millisecond) < Deadline of
        true -> reset(Deadline);
        false -> ok
    end.

loop() ->
    aaa = ?MODULE:aaa(),
    bbb = ?MODULE:bbb(),
    loop().

aaa() -> bbb(), aaa.
bbb() -> erlang:yield(), bbb.
