"""Steps for rules no scenario of a 5,000-scenario campaign reached (issue 26: the fuzzer reaches the
rules), each written as the corpus case that names the rule writes it:

- `timer`: `start_timer P MS` and `cancel_timer P` of a blocked process, at most `status P` between
  (TIMER-START, TIMER-CANCEL: cases running/run_suspend_timer_cancel; the timer never fires);
- `long_schedule`: at a scenario's start, the legacy system monitor set to the tracer process with a
  long_schedule limit, a process sleeping past it in the fixture's NIF, and the monitor cleared
  (SYSMON-LEGACY-LONG-SCHEDULE, SYSMON-LONG-SCHEDULE, SYSMON-LONG-SCHEDULE-ANY: case
  sysmon/otp_trace_system_monitor_long_schedule);
- `session_long_schedule`: the same with a session's system monitor (`system S long_schedule N`, OTP 28),
  set and cleared around the sleep (SYSMON-LONG-SCHEDULE: case sysmon/otp_sess_system_monitor_long_schedule);
- `ms_test_flags`: a trace flag function in `P ms_test Args MS` by a process that was never traced
  (MS-TEST-TRACE-FLAGS: case matchspec/ms_test_trace_flags_c560), rare: OTP 27 and 29 crash at it
  (C-560, a crash prediction), which ends a shared node;
- `alloc_tuples`: a call of tcs_shapes:alloc_tuples/2 with small counts (CALL-MEMORY-TUPLES: case
  counters/otp_cmem_big_words).

Drawn from a random stream of their own (gen.scenario), so that a scenario without them is byte for
byte the one its seed gave before they were written.
"""
from __future__ import annotations

import random
from typing import Final

from .state import FuzzState

#: The chance, at each step, of a timer block (where a process is blocked in a receive).
TIMER_CHANCE: Final[float] = 0.02
#: The timers' times: from 1000 to 5000 ms, so that none fires before its cancel (the model knows no time).
TIMER_MS: Final[tuple[int, ...]] = (1000, 2000, 5000)
#: The chance that a scenario with a tracer process, no tracer port and no sessions begins with the long
#: schedule block; its limit and the sleep past it (each costs the sleep on every release).
LONG_SCHEDULE_CHANCE: Final[float] = 0.1
LONG_SCHEDULE: Final[tuple[int, int]] = (100, 300)
#: The chance, at each step of a scenario with a session whose tracer is a process, of the session's block.
SESSION_LONG_SCHEDULE_CHANCE: Final[float] = 0.003
#: The chance, at each step, of a trace flag function in ms_test (a crash on OTP 27 and 29: rare).
MS_TEST_FLAGS_CHANCE: Final[float] = 0.0005
#: What the trace flag functions give a process with no tracer and no flags: `true`, `true`, `false`.
MS_TEST_FLAG_SPECS: Final[tuple[str, ...]] = tuple(
    f"[{{'_',[],[{{message,{{{call}}}}}]}}]" for call in ("enable_trace,send", "disable_trace,send", "trace,[],[send]")
) + ("[{'_',[],[{enable_trace,procs}]}]",)
#: The chance, at each step, of a call of tcs_shapes:alloc_tuples/2, and its largest counts.
ALLOC_TUPLES_CHANCE: Final[float] = 0.004
ALLOC_TUPLES_MOST: Final[tuple[int, int]] = (3, 8)


def _actors(st: FuzzState) -> list[str]:
    """Processes that can act: free, outside the seq_trace group, holding no token."""
    return [p for p in st.free() if p not in st.seq_group and p not in st.token]


def long_schedule(st: FuzzState, rng: random.Random, with_sessions: bool) -> list[str]:
    """The legacy long_schedule block at a scenario's start, or none: only with the tracer process as
    the monitor (model v1 refuses a scenario process), so with `tracer process`, no tracer port and no
    sessions; the limit and the sleep of the corpus's case."""
    if not st.legacy_process or st.tracer_port or with_sessions or not st.alive:
        return []
    if rng.random() >= LONG_SCHEDULE_CHANCE:
        return []
    st.features.add("system_monitor")
    limit, sleep = LONG_SCHEDULE
    return [f"system_monitor tracer long_schedule {limit}", f"{rng.choice(st.alive)} call tcs_nif:sleep({sleep})",
            "system_monitor undefined"] + (["system_monitor"] if rng.random() < 0.5 else [])


def session_long_schedule(st: FuzzState, rng: random.Random) -> list[str]:
    """A created session with a tracer process, still in use, monitoring long_schedule around a process's
    sleep past the limit, or none."""
    if rng.random() >= SESSION_LONG_SCHEDULE_CHANCE:
        return []
    sessions = sorted(s for s in st.created if st.sessions.get(s) == "process" and s not in st.dropped
                      and s not in st.destroyed)
    who = _actors(st)
    if not sessions or not who:
        return []
    s = rng.choice(sessions)
    st.system = True     # the case needs trace:system/3 (OTP 28)
    limit, sleep = LONG_SCHEDULE
    return [f"system {s} long_schedule {limit}", f"{rng.choice(who)} call tcs_nif:sleep({sleep})",
            f"system {s} long_schedule false"]


def timer(st: FuzzState, rng: random.Random) -> list[str]:
    """A timer started for a blocked process and cancelled (TIMER-START, TIMER-CANCEL), or none."""
    if rng.random() >= TIMER_CHANCE:
        return []
    blocked = sorted(st.blocked & set(st.alive))
    if not blocked:
        return []
    p = rng.choice(blocked)
    between = [f"status {p}"] if rng.random() < 0.3 else []
    return [f"start_timer {p} {rng.choice(TIMER_MS)}", *between, f"cancel_timer {p}"]


def ms_test_flags(st: FuzzState, rng: random.Random) -> list[str]:
    """`P ms_test Args MS` with a trace flag function, by a process that was never traced nor could have
    been (st.traced, no flags for new processes on a child), or none."""
    if rng.random() >= MS_TEST_FLAGS_CHANCE:
        return []
    untraced = [p for p in _actors(st) if p not in st.traced]
    if not untraced:
        return []
    return [f"{rng.choice(untraced)} ms_test [{rng.choice(['a', 'ok'])}] {rng.choice(MS_TEST_FLAG_SPECS)}"]


def alloc_tuples(st: FuzzState, rng: random.Random) -> list[str]:
    """A call of tcs_shapes:alloc_tuples(N, Size) with small N and Size (CALL-MEMORY-TUPLES), or none."""
    if rng.random() >= ALLOC_TUPLES_CHANCE:
        return []
    who = _actors(st)
    if not who:
        return []
    most_calls, most_size = ALLOC_TUPLES_MOST
    return [f"{rng.choice(who)} call tcs_shapes:alloc_tuples({rng.randint(0, most_calls)},{rng.randint(0, most_size)})"]


def step_steps(st: FuzzState, rng: random.Random) -> list[str]:
    """Before a scenario's step: now and then the steps of one of the forms above (but the start's)."""
    return timer(st, rng) + ms_test_flags(st, rng) + alloc_tuples(st, rng) + session_long_schedule(st, rng)
