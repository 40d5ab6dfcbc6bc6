%% The ./tcs validate probe of a runtime defect the stress check would
%% otherwise run into: erlang/otp#11624 (fix PR #11623, open; OTP 27.0 and
%% later): two trace sessions tracing garbage_collection on one process, the
%% legacy session counting as one, crash the emulator at the first collection
%% (trace_gc() frees the first session's message heap inside its loop over
%% the sessions; otp_bugs/gh11624_legacy.erl).  Process tracers only: no
%% tracer module is involved, so a crash here is OTP's, never the tracer's.
%%
%% Output: DATA gc_in_sessions ok when the node survives one collection so
%% traced and both tracers got the same events; the node dies otherwise (or
%% prints DATA gc_in_sessions differ).  No trace sessions (OTP 25): DATA
%% gc_in_sessions none.
%% Usage: erl -noshell -pa DIR -run tcs_validate_probe main JOB_FILE
-module(tcs_validate_probe).
-export([main/1]).

main([JobFile]) ->
    _ = tcs_validate_lib:read_job(JobFile),
    case code:ensure_loaded(trace) of
        {module, trace} ->
            tcs_validate_lib:step("gc", "-", "probe: garbage_collection traced in the legacy session and a "
                                  "trace session (erlang/otp#11624)"),
            tcs_validate_lib:out("DATA", "gc_in_sessions ~s", [gc_in_two_sessions()]);
        _ ->
            tcs_validate_lib:out("DATA", "gc_in_sessions none", [])
    end,
    tcs_validate_lib:done().

gc_in_two_sessions() ->
    Self = self(),
    Forward = fun(Tag) -> spawn(fun Loop() -> receive M -> Self ! {Tag, M}, Loop() end end) end,
    1 = erlang:trace(self(), true, [garbage_collection, {tracer, Forward(legacy)}]),
    Session = trace:session_create(tcs_validate_probe, Forward(session), []),
    1 = trace:process(Session, self(), true, [garbage_collection]),
    erlang:garbage_collect(),
    trace:session_destroy(Session),
    erlang:trace(self(), false, [garbage_collection]),
    Events = [[receive {Tracer, {trace, _, Tag, Info}} -> {Tag, Info} after 5000 -> none end
               || Tag <- [gc_major_start, gc_major_end]] || Tracer <- [legacy, session]],
    case hd(Events) =:= lists:last(Events) of
        true -> "ok";
        false -> "differ"
    end.
