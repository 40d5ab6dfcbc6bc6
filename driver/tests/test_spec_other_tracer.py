"""Live evidence of Clarification C-315 (CONFORMANCE.md): what erlang:trace/3 with a process
spec does to a process that another tracer traces, and to defaults for new processes that
already have a tracer.  Process tracers named through OTP's own erl_tracer module take the
same path in erl_bif_trace.c (start_trace, erts_change_new_p_tracing) as the suite's
recorder, and need no NIF library built for the release."""
from __future__ import annotations

import subprocess

import pytest

from conftest import TEST_RELEASES

#: P traced for send by T1; existing_processes with T2, twice; then the defaults set twice.
PROBE = """
P = spawn(fun() -> receive stop -> ok end end),
T1 = spawn(fun Loop() -> receive _ -> Loop() end end),
T2 = spawn(fun Loop() -> receive _ -> Loop() end end),
1 = erlang:trace(P, true, [send, {tracer, erl_tracer, T1}]),
Count = erlang:system_info(process_count),
First = erlang:trace(existing_processes, true, ['receive', {tracer, erl_tracer, T2}]),
Again = erlang:trace(existing_processes, true, ['receive', {tracer, erl_tracer, T2}]),
{tracer, PTracer} = erlang:trace_info(P, tracer),
{flags, PFlags} = erlang:trace_info(P, flags),
Pid = try erlang:trace(P, true, ['receive', {tracer, erl_tracer, T2}]) catch error:R -> R end,
0 = erlang:trace(new, true, [send, {tracer, erl_tracer, T1}]),
0 = erlang:trace(new, true, ['receive', {tracer, erl_tracer, T2}]),
{tracer, NewTracer} = erlang:trace_info(new, tracer),
{flags, NewFlags} = erlang:trace_info(new, flags),
io:format("~w~n", [{Count - First, Count - Again, PTracer =:= T1, lists:sort(PFlags), Pid,
                    NewTracer =:= T2, lists:sort(NewFlags)}]),
halt().
"""


@pytest.mark.parametrize("release", TEST_RELEASES)
def test_a_spec_leaves_out_a_process_another_tracer_traces(release: str, otp_for) -> None:
    otp = otp_for(release)
    done = subprocess.run([*otp.erl, "-noshell", "-noinput", "-eval", PROBE.replace("\n", " ")],
                          capture_output=True, text=True, timeout=120)
    # the result, without the logger's "** can only have one tracer per process" of the pid step
    said = [line for line in done.stdout.splitlines() if line.startswith("{")]
    assert said, done.stdout + done.stderr
    # one process left out, each time; it keeps its tracer and flags; a pid step raises badarg;
    # the defaults' tracer is the last one named, their flags add up
    assert said[-1] == "{1,1,true,[send],badarg,true,['receive',send]}", done.stdout + done.stderr
