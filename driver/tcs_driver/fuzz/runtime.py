"""The runtime's other conditions for the generator (issue 25, cases/README.md "Steps"): a timed wait
(`P wait MS while Q sends T`, RECV-TIMED-WAIT), the harness suspending a blocked process (`suspend P`,
`resume P`, `status P`, SUSPEND-*, RUN-SUSPENDED), spawn_opt options (PROCS-SPAWN-OPTS), NIF functions
as call targets and dirty NIFs (CALL-NIF-TARGET, RUN-DIRTY-NIF), the call paths `direct` and `fun`,
long terms (`lists:duplicate(N,T)`, `binary:copy(<<B>>,N)`), and steps of several processes at once
(`together ... end`, BLOCK-TOGETHER).

Every draw here is made with the scenario's second stream (st.xr), so that a scenario without these
forms is byte for byte the one its seed gave before they were written.
"""
from __future__ import annotations

import random
from collections.abc import Callable
from typing import Final

from .state import FuzzState

#: The NIFs of tcs_nif a call step may name (cases/README.md "NIF targets").
NIF_FUNCTIONS: Final[tuple[str, ...]] = ("id", "check", "dirty_cpu", "dirty_io")
NIF_TARGETS: Final[tuple[str, ...]] = tuple(f"tcs_nif:{fn}/1" for fn in NIF_FUNCTIONS) + ("tcs_nif:'_'/'_'",)
NIF_INFO_FUNCTIONS: Final[tuple[str, ...]] = tuple(f"{{tcs_nif,{fn},1}}" for fn in NIF_FUNCTIONS)
#: The spawn_opt options the language takes (PROCS-SPAWN-OPTS), each with its values.
SPAWN_OPTIONS: Final[dict[str, tuple[str, ...]]] = {
    "message_queue_data": ("off_heap", "on_heap"),
    "priority": ("low", "normal", "high"),
    "min_heap_size": ("0", "233", "1000"),
    "min_bin_vheap_size": ("46422", "100000"),
    "fullsweep_after": ("0", "10"),
}
#: How many elements a long term of the generator has: small (the campaign runs many), and now and then
#: past 1023, where the stream prints it as the constructor (PROTOCOLS.md section 6, "Terms").
LONG_COUNTS: Final[tuple[int, ...]] = (0, 1, 3, 7, 1024, 1100)
#: The chances, at a step or a call, of each form.
CALL_PATH_CHANCE: Final[float] = 0.15
NIF_CALL_CHANCE: Final[float] = 0.12
NIF_PATTERN_CHANCE: Final[float] = 0.1
SPAWN_OPTIONS_CHANCE: Final[float] = 0.3
LONG_TERM_CHANCE: Final[float] = 0.03
WAIT_CHANCE: Final[float] = 0.006
#: The chances that a process that may be traced waits with a timeout, or is suspended on a busy port.
TRACED_TIMEOUT_CHANCE: Final[float] = 0.3
TRACED_SUSPEND_CHANCE: Final[float] = 0.3
SUSPEND_CHANCE: Final[float] = 0.05
#: Within a suspend block: the chances that a process suspends instead of the harness (SUSPEND-BY-PROCESS),
#: that the harness names options (SUSPEND-UNLESS-SUSPENDING) or bad ones (SUSPEND-OPTS-BADARG).
BY_PROCESS_CHANCE: Final[float] = 0.25
OPTIONS_CHANCE: Final[float] = 0.25
SUSPENDER_EXIT_CHANCE: Final[float] = 0.3
#: `P ms_test Args MS` now and then in a call's place (MS-TEST-RESULT, MS-TEST-NO-EFFECT), MS one the
#: model runs in a test: a non-empty list of clauses, no trace flag function (each ends a node of 27 and 29:
#: C-560), no set_seq_token (C-561).
MS_TEST_CHANCE: Final[float] = 0.03
MS_TEST_SPECS: Final[tuple[str, ...]] = (
    "[{'_',[],[{silent,true}]}]",
    "[{'_',[],[{silent,false},{return_trace}]}]",
    "[{'_',[],[{return_trace}]}]",
    "[{'_',[],[{exception_trace}]}]",
    "[{'_',[],[{message,{caller}}]}]",
    "[{['$1'],[{is_integer,'$1'}],[{message,'$1'}]}]",
    "[{'$1',[],[{message,'$$'}]}]",
    "[{'_',[],[{set_tcw,3},{message,{get_tcw}}]}]",
    "[{[ok],[],[]},{'_',[],[{exception_trace}]}]",
)
BAD_OPTIONS: Final[tuple[str, ...]] = ("[bogus]", "unless_suspending", "[unless_suspending|x]")
#: A together block now and then (BLOCK-TOGETHER), of a sender, its receiver and now and then a third
#: process that calls, for up to this many rounds.
TOGETHER_CHANCE: Final[float] = 0.02
TOGETHER_ROUNDS: Final[int] = 4


def call_path(st: FuzzState) -> str:
    """The path a call step takes: apply/3 (no word), a compiled remote call or a fun (Call paths)."""
    r = st.xr.random()
    return "" if r >= CALL_PATH_CHANCE else " direct" if r < CALL_PATH_CHANCE / 2 else " fun"


def nif_call(st: FuzzState, p: str, term: Callable[[], str]) -> str | None:
    """Now and then a call of a NIF of tcs_nif (CALL-NIF-TARGET; the dirty ones RUN-DIRTY-NIF), else None."""
    if st.xr.random() >= NIF_CALL_CHANCE:
        return None
    fn = st.xr.choice(NIF_FUNCTIONS)
    arg = "ok" if fn == "check" and st.xr.random() < 0.5 else term()
    return f"{p} call tcs_nif:{fn}({arg})"


def ms_test(st: FuzzState, p: str, term: Callable[[], str]) -> str | None:
    """Now and then `P ms_test Args MS` (a match spec run on an argument list, tracing nothing), else None."""
    if st.xr.random() >= MS_TEST_CHANCE:
        return None
    args = st.xr.choice(("[]", f"[{term()}]", "[ok]"))
    return f"{p} ms_test {args} {st.xr.choice(MS_TEST_SPECS)}"


def nif_target(st: FuzzState, target: str) -> str:
    """A pattern's target, now and then a NIF's in its place."""
    return st.xr.choice(NIF_TARGETS) if st.xr.random() < NIF_PATTERN_CHANCE else target


def nif_info(st: FuzzState, function: str) -> str:
    """An `info {M,F,A}` step's function, now and then a NIF's in its place."""
    return st.xr.choice(NIF_INFO_FUNCTIONS) if st.xr.random() < NIF_PATTERN_CHANCE else function


def spawn_options(st: FuzzState, child: str) -> str:
    """Now and then ` options [...]` for a spawned scenario process (PROCS-SPAWN-OPTS), else nothing; a
    child with fullsweep_after takes no minor collection (the model refuses it: st.fullsweep)."""
    if st.xr.random() >= SPAWN_OPTIONS_CHANCE:
        return ""
    names = st.xr.sample(sorted(SPAWN_OPTIONS), st.xr.randrange(1, 3))
    if "fullsweep_after" in names:
        st.fullsweep.add(child)
    return " options [" + ",".join(f"{{{n},{st.xr.choice(SPAWN_OPTIONS[n])}}}" for n in names) + "]"


def long_term(st: FuzzState, element: Callable[[], str]) -> str | None:
    """Now and then a long term written by its constructor (lists:duplicate/2 of an element, or
    binary:copy/2 of one byte), else None."""
    if st.xr.random() >= LONG_TERM_CHANCE:
        return None
    n = st.xr.choice(LONG_COUNTS)
    if st.xr.random() < 0.5:
        return f"binary:copy(<<{st.xr.randrange(256)}>>,{n})"
    return f"lists:duplicate({n},{element()})"


def wait_steps(st: FuzzState, term: Callable[[], str], deliver: Callable[[str, str], None]) -> list[str]:
    """Now and then `P wait MS while Q sends T` (RECV-TIMED-WAIT): P a process at its gate not traced
    for running (the model refuses that: `trace P off running running_procs` first where P may be traced, in a case
    without sessions), Q another that can act and holds no token; T stays in P's mailbox. Else none.
    MS is 250 or 300: Q's send takes a few milliseconds (16 at most seen at a load of 12), and one too
    late for MS ends the scenario as a timeout that says so (`TCS LATE`), not as a difference; a second
    a wait took half of a campaign's node time."""
    if st.xr.random() >= WAIT_CHANCE:
        return []
    free = st.free()
    p = st.draw([p for p in free if p not in st.token
                  and (p not in st.traced or (not st.sessions and p not in st.seq_group))])
    senders = [q for q in free if q != p and q not in st.token]
    if p is None or not senders:
        return []
    lines = [f"trace {p} off running running_procs"] if p in st.traced else []
    msg = term()
    deliver(p, msg)
    return lines + [f"{p} wait {st.xr.choice([250, 250, 300])} while {st.xr.choice(senders)} sends {msg}"]


def suspend_steps(st: FuzzState, term: Callable[[], str], deliver: Callable[[str, str], None],
                  die: Callable[[str], None]) -> list[str]:
    """Now and then the harness suspends a process blocked in a receive and resumes it (SUSPEND-PROCESS,
    SUSPEND-RESUME), once or nested (SUSPEND-NESTED), asking its status between (SUSPEND-STATUS), with
    a message sent to it meanwhile (RUN-SUSPENDED: taken at the last resume); or asks about a dead
    process (SUSPEND-DEAD) or resumes one never suspended (SUSPEND-RESUME-NOT-SUSPENDED). The steps of
    a block come together: the model refuses trace, session, info and tracer steps, links and monitors
    while a process is suspended. Else none."""
    if st.xr.random() >= SUSPEND_CHANCE:
        return []
    blocked = sorted(st.blocked & set(st.alive))
    if not blocked:
        dead = sorted(st.dead)
        if dead and st.xr.random() < 0.5:
            return [f"{st.xr.choice(['suspend', 'resume', 'status'])} {st.xr.choice(dead)}"]
        if st.blocked:
            return []
        # SUSPEND-RESUME-NOT-SUSPENDED: a process at its gate, never suspended
        return [f"resume {st.xr.choice(st.alive)}"] if st.alive and st.xr.random() < 0.3 else []
    p = st.xr.choice(blocked)
    if st.xr.random() < BY_PROCESS_CHANCE:
        return _suspend_by_process(st, p, term, deliver, die)
    depth = st.xr.choice([1, 1, 2])
    lines = [f"suspend {p}"] * depth
    if st.xr.random() < OPTIONS_CHANCE:
        lines[0] = f"suspend {p} [unless_suspending]"           # true: not suspended yet
        if st.xr.random() < 0.5:
            lines.append(f"suspend {p} [unless_suspending]")    # false: the harness suspends it already
        if st.xr.random() < 0.3:
            lines.insert(0, f"suspend {p} {st.xr.choice(BAD_OPTIONS)}")   # badarg, nothing suspended
    if st.xr.random() < 0.5:
        lines.append(f"status {p}")
    senders = [q for q in st.free() if q != p and q not in st.token]
    sent = senders and st.xr.random() < 0.6
    if sent:
        msg = term()
        lines.append(f"{st.xr.choice(senders)} send {p} {msg}")
    lines += [f"resume {p}"] * depth
    if st.xr.random() < 0.3:
        lines.append(f"status {p}" if not sent else f"resume {p}")
    if sent:
        deliver(p, msg)
    return lines


def _suspend_by_process(st: FuzzState, p: str, term: Callable[[], str], deliver: Callable[[str, str], None],
                        die: Callable[[str], None]) -> list[str]:
    """`Q suspend P` ... `Q resume P` by another process that can act (SUSPEND-BY-PROCESS), P blocked
    with no link or monitor (the model refuses one: C-610), a message sent to P meanwhile now and then;
    now and then Q suspending itself (badarg: SUSPEND-SELF), or Q exiting normal in place of its resume,
    which lifts its suspend (SUSPEND-SUSPENDER-EXIT: `die`). None when no process can."""
    tied = any(p in link for link in st.links) or any(p in pair for pair in st.monitors)
    suspenders = [q for q in st.free() if q != p and q not in st.token]
    if tied or not suspenders:
        return []
    q = st.xr.choice(suspenders)
    lines = [f"{q} suspend {p}", f"status {p}"]
    if st.xr.random() < 0.3:
        lines.append(f"{q} suspend {q}")
    if st.xr.random() < 0.5:
        msg = term()
        lines.append(f"{q} send {p} {msg}")
        deliver(p, msg)
    if st.xr.random() < SUSPENDER_EXIT_CHANCE:
        die(q)
        return lines + [f"{q} exit normal"]
    return lines + [f"{q} resume {p}"]


def together_steps(st: FuzzState, rng: random.Random, steps: list[str], term: Callable[[], str],
                   deliver: Callable[[str, str], None]) -> list[str]:
    """Now and then a together block (BLOCK-TOGETHER): P sends Q a few messages, which Q takes (a receive,
    or a call of tcs_shapes:receive_message/0 that may wait in the function: CALL-RECEIVE-IN-TRACED),
    each followed by a call of Q's; P links and unlinks Q around them when neither may be traced and they are
    not linked (no flags to inherit); a third process R calls, tests a match spec or, when no process may
    be traced, turns a local pattern on (and off at the end) beside them (PATTERN-BY-PROCESS). Only
    where model v1 states a block: no seq_trace token ever given, the tracer module loaded, no busy loop,
    no pattern whose match spec changes its callers' flags;
    without sessions a process that may be traced is first untraced for running (the model refuses a
    block's step of a process traced for scheduling); with sessions such a process takes no part.
    Else none. Drawn from a stream of its own (rng), so that a scenario without a block is the one its
    seed gave before blocks were written."""
    if (rng.random() >= TOGETHER_CHANCE or st.looped or st.tracer_module == "unloaded" or st.token
            or st.flag_functions or any(" seq_token " in s for s in steps)):
        return []
    free = [p for p in st.free() if not (st.sessions and p in st.traced)]
    if len(free) < 2:
        return []
    p, q = rng.sample(free, 2)
    others = [r for r in free if r not in (p, q)]
    third = rng.choice(others) if others and rng.random() < 0.5 else None
    chains = [x for x in (p, q, third) if x is not None]
    lines = [f"trace {x} off running running_procs" for x in chains if x in st.traced]
    link = not ({p, q} & st.traced) and frozenset((p, q)) not in st.links and rng.random() < 0.5
    block = [f"{p} link {q}"] if link else []
    for n in range(rng.randrange(1, TOGETHER_ROUNDS + 1)):
        msg = term()
        deliver(q, msg)
        take = f"{q} call tcs_shapes:receive_message()" if rng.random() < 0.3 else f"{q} recv"
        block += [f"{p} send {q} {msg}", take, f"{q} call tcs_target:id({n})"]
        st.mailbox[q].pop(0)
        if third is not None:
            r = rng.random()
            block.append(f"{third} call tcs_target:id({n})" if r < 0.5
                         else f"{third} ms_test [{n}] {rng.choice(MS_TEST_SPECS)}" if r < 0.75 or st.traced
                         else f"{third} pattern tcs_target:id/1 true local")
    if link:
        block.append(f"{p} unlink {q}")
    if any(" pattern " in line for line in block):   # PATTERN-BY-PROCESS: left as it was found, off
        block.append(f"{third} pattern tcs_target:id/1 false local")
    return lines + ["together"] + block + ["end"]
