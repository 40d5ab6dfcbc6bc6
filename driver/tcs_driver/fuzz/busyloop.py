"""`A loop tcs_target:id(X)` ... `A idle` for the generator: a process busy in a loop of traced calls
while the harness changes the function's pattern and others call it (cases/README.md "Steps"; the
model is ref/harness/busyloop.c, CALL-BUSY-LOOP, C-447); one loop in four of a dirty NIF,
`tcs_nif:dirty_cpu/1` or `dirty_io/1`, each call a trip to a dirty scheduler (C-590), and one in four
of the rest of `tcs_shapes:yielding/1`, each call scheduled out inside the function (RUN-YIELD: the
loop of erlang/otp#8835's test).

The model states a loop only where its windows can bound it, and refuses the rest
(conformance/refusals.md): A an idle process of the case traced by the legacy recorder for `call`
and nothing else, looping on tcs_target:id/1 (a dirty NIF, yielding/1) with a pattern of `true` or `[]` (no match spec, no
meta pattern, no counters to read), the tracer module loaded with no old code, no step of A before
its `idle`, and the case not ending inside the loop. The generator writes the block with the steps
that make it so: A's flags cleared and set to `call`, the pattern set, then one to three steps of
the harness or of other processes, then A's `idle`.
"""
from __future__ import annotations

import random
from collections.abc import Callable
from typing import Final

from .state import FuzzState

#: The patterns of id/1 a step under the loop sets: each a way the loop's call is traced or not.
LOOP_PATTERNS: Final[tuple[str, ...]] = ("[]", "true", "false", "[] local", "true global", "false local")
LOOP_ARGS: Final[tuple[str, ...]] = ("1", "ok", "{x,2}", "[]")
#: The dirty NIFs a loop calls one time in four (else tcs_target:id/1).
LOOP_NIFS: Final[tuple[str, ...]] = ("dirty_cpu", "dirty_io")
#: The chance that a loop that is not a dirty NIF's runs tcs_shapes:yielding/1 (else tcs_target:id/1).
YIELDING_CHANCE: Final[float] = 0.25
#: The chance that a loop runs tcs_nif:dirty_wait/1 and another process suspends the looper, then exits
#: (busy_dirty_suspend_otp19799's shape: SUSPEND-DIRTY, SUSPEND-SUSPENDER-EXIT).
DIRTY_SUSPEND_CHANCE: Final[float] = 0.2


def _tied(st: FuzzState, p: str) -> bool:
    """Whether p has a link or a monitor (the model refuses a process suspending such a one: C-610)."""
    return any(p in link for link in st.links) or any(p in pair for pair in st.monitors)


def _dirty_suspend(st: FuzzState, a: str, q: str, die: Callable[[str], None]) -> list[str]:
    """A loops through a dirty NIF, Q suspends it (true, or internal_error on OTP 25 and 27: C-611) and
    exits normal, which lifts its suspend; A then stops looping. A's trace flags go first: the model
    refuses a busy process traced for more than call."""
    st.looped = True
    die(q)
    untrace = [f"trace {a} off all"] if a in st.traced else []   # a busy process traced for more than call
    return untrace + [f"{a} loop tcs_nif:dirty_wait(5)", f"{q} suspend {a}", f"status {a}", f"{q} exit normal", f"{a} idle"]


def possible(st: FuzzState) -> bool:
    """Whether the scenario so far allows a loop (the model's conditions that steps cannot undo), one
    per case: each loop's calls are thousands of records, which a loaded machine takes long to print
    (fuzz seed 9063, OTP 29: two loops, a timeout in the shared node); never with a tracer state of
    the case's own, copied into every record (seed 29112026, fuzz_29112026_291 on OTP 29: a 1024-bit
    binary and a fun in each of the loop's records, their collection past the step limit at load 14);
    never where every legacy trace step names a tracer state of its own (st.step_state): the
    block's `trace A on call` names none."""
    return (st.recorder and not st.looped and not st.own_state and not st.step_state and not st.tracer_gone
            and not st.sessions and not st.meta and st.tracer_module == "loaded" and not st.flag_functions
            and not ({"id", "dirty_cpu", "dirty_io", "yielding", "*"} & st.counted))


def block_steps(st: FuzzState, xr: random.Random, die: Callable[[str], None]) -> list[str]:
    """The steps of one loop, drawn with xr, or none when no process can take it."""
    who = [p for p in st.free() if p not in st.seq_group and p not in st.token]
    if not possible(st) or not who:
        return []
    a = xr.choice(who)
    callers = [q for q in who if q != a]
    # the suspender untraced: its call waits for a reply from a dirty NIF's process, which its running
    # and 'receive' events show and the model does not predict (fuzz seed 2026112952, scenario 85)
    suspenders = [q for q in callers if q not in st.traced]
    if xr.random() < DIRTY_SUSPEND_CHANCE and suspenders and not _tied(st, a):
        return _dirty_suspend(st, a, xr.choice(suspenders), die)
    if xr.random() < 0.25:
        fn = f"tcs_nif:{xr.choice(LOOP_NIFS)}"
    else:
        fn = "tcs_shapes:yielding" if xr.random() < YIELDING_CHANCE else "tcs_target:id"
    lines = [f"trace {a} off all"] if a in st.traced else []
    lines.append(f"trace {a} on call")
    lines.append(f"pattern {fn}/1 {xr.choice(LOOP_PATTERNS[:2])}")
    lines.append(f"{a} loop {fn}({xr.choice(LOOP_ARGS)})")
    for _ in range(xr.randrange(1, 4)):
        if callers and xr.random() < 0.4:
            lines.append(f"{xr.choice(callers)} call {fn}({xr.randrange(2, 10)})")
        else:
            lines.append(f"pattern {fn}/1 {xr.choice(LOOP_PATTERNS)}")
    lines.append(f"{a} idle")
    st.traced.add(a)
    st.looped = True
    return lines
