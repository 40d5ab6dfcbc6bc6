"""Confinement after a trace call on every process (PROCS-SPEC-CONFINED; fuzz/FINDINGS.md, V11): while the flags
are on every process of the node, no process but the scenario's runs, so none is traced doing
anything. Found as fuzz_20261201_2389 (seed 20261201, OTP 29): in a shared node the case got the
gc lines of a process it does not name; a process of priority max was left running while it
was traced, and collected."""
from __future__ import annotations

import pytest

from conftest import TEST_RELEASES

#: A process of priority max that collects all the time, a scenario process <a>, and 20 steps
#: `trace processes on garbage_collection` with this process as the tracer; then how many trace
#: messages came from another process than <a>.
PROBE = """
Busy = spawn_opt(fun() -> (fun Loop() -> erlang:garbage_collect(), Loop() end)() end, [{priority, max}]),
A = spawn(fun() -> receive stop -> ok end end),
timer:sleep(50),
Ctx = #{collector => self(), tracer => process, tracer_state => self(), sessions => #{states => []}},
[tcs_procflags:run_step({trace_spec, processes, true, [garbage_collection]}, #{a => A}, Ctx)
 || _ <- lists:seq(1, 20)],
timer:sleep(200),
exit(Busy, kill),
{messages, Got} = process_info(self(), messages),
Others = lists:usort([element(2, M) || M <- Got, element(1, M) =:= trace, element(2, M) =/= A]),
io:format("others ~p~n", [length(Others)]),
halt().
"""


@pytest.mark.parametrize("release", TEST_RELEASES)
def test_no_other_process_is_traced_doing_anything(release: str, run_probe) -> None:  # type: ignore[no-untyped-def]
    done = run_probe(release, PROBE, 120)
    assert "others 0" in done.stdout.split("\n"), done.stdout + done.stderr
