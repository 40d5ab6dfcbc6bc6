"""The watchdog trusts a step timer's message only while that step runs (tcs_watchdog): on OTP
29.1.2, timers the runner had cancelled asynchronously fired anyway, 10 s later, and their
messages piled up in tcs_batch's mailbox until a later case's `long_message_queue` monitoring
reported it (an extra line in a shared node). The probe arms with a 1 ms limit: a timer that fires
while its step runs is an overrun; one that fires before its step is disarmed but is read after
(as a lost cancellation's is), and one of an earlier job's watcher, are stale, even when the
numbers of the two jobs' armings are the same. And the timers go to the watcher's registered
name: one sent to a pid is paused while its receiver is suspended on OTP 29 and cannot be
cancelled then (C-660); the probe suspends the watcher between an arming and its disarming and
checks that no timer comes."""
from __future__ import annotations

import pytest

from conftest import TEST_RELEASES

PROBE = """
Self = self(),
true = register(tcs_watchdog_probe, Self),
Watcher = tcs_watchdog:watcher(tcs_watchdog_probe),
Ctx = #{watch => tcs_watchdog:watch(Watcher, 1), collector => Self},
Fired = fun() -> receive {timeout, _, M} -> M after 5000 -> none end end,
T1 = tcs_watchdog:arm(Ctx, 7, #{}),
{Self, 7, _, 1} = tcs_watchdog:overrun(Watcher, Fired()),
tcs_watchdog:disarm(Ctx, T1),
T2 = tcs_watchdog:arm(Ctx, 8, #{}),
timer:sleep(20),
tcs_watchdog:disarm(Ctx, T2),
stale = tcs_watchdog:overrun(Watcher, Fired()),
Next = tcs_watchdog:watcher(tcs_watchdog_probe),
T3 = tcs_watchdog:arm(Ctx, 9, #{}),
M3 = receive {timeout, T3, M} -> M after 5000 -> none end,
T4 = tcs_watchdog:arm(#{watch => tcs_watchdog:watch(Next, 60000), collector => Self}, 1, #{}),
{Self, 9, _, 1} = tcs_watchdog:overrun(Watcher, M3),
stale = tcs_watchdog:overrun(Next, M3),
{Self, 9, _, 1} = tcs_watchdog:overrun(Next, setelement(6, M3, {element(2, Next), 1})),
erlang:cancel_timer(T4),
{Helper, HRef} = spawn_monitor(fun() ->
    T5 = tcs_watchdog:arm(Ctx#{watch := tcs_watchdog:watch(Watcher, 300)}, 11, #{}),
    true = erlang:suspend_process(Self), true = erlang:resume_process(Self),
    tcs_watchdog:disarm(Ctx, T5) end),
receive {'DOWN', HRef, process, Helper, normal} -> ok end,
none = receive {timeout, _, Late} -> Late after 600 -> none end,
io:format("~nwatchdog ok~n"),
halt().
"""


@pytest.mark.parametrize("release", TEST_RELEASES)
def test_only_the_running_steps_timer_is_an_overrun(release: str, run_probe) -> None:  # type: ignore[no-untyped-def]
    done = run_probe(release, PROBE, 60)
    assert "watchdog ok" in done.stdout.split("\n"), done.stdout + done.stderr
