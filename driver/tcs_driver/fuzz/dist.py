"""Steps across two nodes (`peer R`, or `P spawn R peer`: DIST-SPAWN; DIST-*: issues 25 and 26), written at
the end of a scenario from a random stream of their own: a process on a peer node sends to local processes and is sent to, links
and unlinks them and is linked and unlinked by them, sends them exit signals and gets theirs, and exits
or is killed, its exit signal reaching its local links (DIST-LINK, DIST-EXIT, DIST-SEND-DEAD,
DIST-SEQ-SEND). Half the blocks make a process on the peer node that node's seq tracer (DIST-SEQ-TRACER),
unless a token has time stamps; the remote process takes the messages sent to it (`r recv`), a token
holder's token with one (DIST-SEQ-RECEIVE), and while it holds one it only takes messages, or exits
when it has no links.

At the end, so that no step after the block needs to know the remote process. Only in a scenario with
no session, no process spec and no meta pattern on a library target (the model refuses them with a peer
node: a distributed node runs processes of its own, which call erlang:phash2/1), and never with a process of the seq_trace group or a token holder on the other
side of a link or an exit signal (the token would cross: DIST-SEQ-SEND). A token holder's sends to
the remote process are written: they are its send events here.
"""
from __future__ import annotations

import random
import re
from collections.abc import Callable
from typing import Final

from .state import FuzzState

#: The chance that a scenario ends with steps across nodes: each starts a peer node, a second or two live.
DIST_CHANCE: Final[float] = 0.03
#: The remote process's name: no declared, spawned or port name (state.SPAWN_NAMES, PORT_NAMES).
REMOTE: Final[str] = "r"
#: The peer node's seq tracer's name, and the chance that a block has one.
PEER_SEQ_TRACER: Final[str] = "rt"
PEER_SEQ_TRACER_CHANCE: Final[float] = 0.5
#: A token with a time stamp, which the model refuses with a process as seq tracer.
STAMPED: Final[re.Pattern[str]] = re.compile(
    r"\w+ seq_token (timestamp|monotonic_timestamp|strict_monotonic_timestamp) true")
#: The reasons of the remote process's exit and of exit signals across nodes.
REASONS: Final[tuple[str, ...]] = ("normal", "kill", "die", "{shutdown,x}")
#: A legacy trace step of a process spec (cases/README.md, SPEC), and a meta pattern on a library
#: target, which the distribution's own processes would call, or on erlang:apply/2 (the model refuses
#: them with a peer node).
HARNESS_TRACED: Final[re.Pattern[str]] = re.compile(
    r"trace (all|processes|existing|existing_processes|new|new_processes|new_ports) "
    r"|pattern (erlang:phash2/1|lists:seq/2|erlang:apply/2) .*(\smeta\b|\{meta,)")

#: The chance that a local process is traced first, and its flags: its sends to R and R's messages to
#: it are then events (DIST-SEND, DIST-RECEIVE), and its link to R gives R nothing (DIST-LINK-NO-INHERIT).
TRACE_CHANCE: Final[float] = 0.6
TRACE_FLAGS: Final[tuple[tuple[str, ...], ...]] = (
    ("send", "'receive'"), ("'receive'",), ("send",), ("procs", "send", "'receive'", "set_on_link"),
    ("procs", "'receive'", "set_on_first_link"))

Deliver = Callable[[str, str | None], None]
Die = Callable[[str, bool], None]
Trace = Callable[[str, list[str]], str | None]


#: The chance that the remote process is spawned by a local one (`P spawn R peer`, DIST-SPAWN), which is
#: traced for 'receive' first (its receipt of the spawn_reply is the rule's event); else `peer R`.
SPAWN_CHANCE: Final[float] = 0.3
#: A 'receive' message pattern: the model refuses a spawn on the peer node with one set.
RECEIVE_PATTERN: Final[re.Pattern[str]] = re.compile(r"pattern 'receive' ")


def possible(with_sessions: bool, steps: list[str]) -> bool:
    """Whether a peer node may join the scenario written so far: no session, no process spec, no meta
    pattern on a library target."""
    return not with_sessions and not any(HARNESS_TRACED.match(s) for s in steps)


def _linkable(st: FuzzState) -> list[str]:
    """Local processes a link or exit signal across nodes may touch: alive, no token, no seq_trace group."""
    return [p for p in st.alive if p != REMOTE and p not in st.seq_group and p not in st.token]


def _signal(st: FuzzState, to: str, reason: str, deliver: Deliver, die: Die) -> None:
    """An exit signal to `to` (SIGNAL-*): kill kills, a trapping process gets a message, normal is
    ignored by one that does not trap, any other reason kills."""
    if reason == "kill":
        die(to, False)
    elif to in st.trapping:
        deliver(to, None)
    elif reason != "normal":
        die(to, False)


def _linked(st: FuzzState) -> bool:
    """Whether the remote process has links (its exit signals would take a token it holds to them)."""
    return any(REMOTE in link for link in st.links)


def _remote_recv(st: FuzzState) -> str | None:
    """`r recv` of the oldest message sent to it, its token (or none) r's then (DIST-SEQ-RECEIVE); not
    a token while r has links (what its exit signals would do with it the state does not follow)."""
    waiting = st.mailbox.get(REMOTE, [])
    if not waiting or (waiting[0][1] and _linked(st)):
        return None
    _, carries = waiting.pop(0)
    (st.token.add if carries else st.token.discard)(REMOTE)
    return f"{REMOTE} recv"


def _holder_step(st: FuzzState, kind: str, die: Die) -> str | None:
    """What the remote process does while it holds a token (it has no links then): takes a message, or
    exits (DIST-SEQ-EXIT with no one to reach)."""
    if kind == "remote_recv":
        return _remote_recv(st)
    if kind == "remote_exit":
        die(REMOTE, True)
        return f"{REMOTE} exit normal"
    return None


def _step(st: FuzzState, rng: random.Random, term: Callable[[], str], deliver: Deliver, die: Die) -> str | None:
    """One step by or on the remote process, or None when the one drawn cannot be written now."""
    alive = REMOTE in st.alive
    kind = rng.choice(("link", "unlink", "remote_link", "remote_unlink", "send", "remote_send",
                       "kill", "remote_kill", "remote_exit") + ("remote_recv",) * 3)
    actors = [p for p in st.free() if p != REMOTE]
    linkable = _linkable(st)
    if kind == "send" and actors:      # DIST-SEND, DIST-SEND-DEAD, DIST-SEQ-SEND
        holders = [a for a in actors if a in st.token]  # half the time a token holder's, to be taken there
        p = rng.choice(holders if holders and rng.random() < 0.5 else actors)
        if alive:
            st.mailbox.setdefault(REMOTE, []).append((None, p in st.token))
        return f"{p} send {REMOTE} {term()}"
    if not alive:
        return None
    if REMOTE in st.token:
        return _holder_step(st, kind, die)
    if kind == "remote_recv":
        return _remote_recv(st)
    local_actors = [p for p in actors if p in linkable]
    if kind in ("link", "unlink") and local_actors:
        p = rng.choice(local_actors)
        (st.links.add if kind == "link" else st.links.discard)(frozenset({p, REMOTE}))
        return f"{p} {kind} {REMOTE}"
    if kind in ("remote_link", "remote_unlink") and linkable:
        q = rng.choice(linkable)
        (st.links.add if kind == "remote_link" else st.links.discard)(frozenset({q, REMOTE}))
        return f"{REMOTE} {kind.removeprefix('remote_')} {q}"
    if kind == "remote_send" and linkable:
        q, message = rng.choice(linkable), term()
        deliver(q, message)
        return f"{REMOTE} send {q} {message}"
    if kind == "kill" and local_actors:
        p, reason = rng.choice(local_actors), rng.choice(REASONS)
        _signal(st, REMOTE, reason, deliver, die)
        return f"{p} kill {REMOTE} {reason}"
    if kind == "remote_kill" and linkable:
        q, reason = rng.choice(linkable), rng.choice(REASONS)
        _signal(st, q, reason, deliver, die)
        return f"{REMOTE} kill {q} {reason}"
    if kind == "remote_exit":
        reason = rng.choice(REASONS)
        die(REMOTE, reason == "normal")
        return f"{REMOTE} exit {reason}"
    return None


def _spawn(st: FuzzState, rng: random.Random, receive_pattern: bool, trace: Trace) -> list[str]:
    """Now and then a local process never traced (so not for scheduling, which the model refuses)
    traced for 'receive' and spawning or spawn-linking the remote process (DIST-SPAWN), none with a
    'receive' message pattern set; else none."""
    if receive_pattern or rng.random() >= SPAWN_CHANCE:
        return []
    spawners = [p for p in st.free() if p in _linkable(st) and p not in st.seq_group and p not in st.traced]
    if not spawners:
        return []
    p = rng.choice(spawners)
    if (line := trace(p, list(rng.choice([f for f in TRACE_FLAGS if "'receive'" in f])))) is None:
        return []
    how = rng.choice(["spawn", "spawn_link"])
    if how == "spawn_link":
        st.links.add(frozenset({p, REMOTE}))
    return [line, f"{p} {how} {REMOTE} peer"]


def block_steps(st: FuzzState, rng: random.Random, term: Callable[[], str], deliver: Deliver,
                die: Die, stamped: bool, receive_pattern: bool, trace: Trace) -> list[str]:
    """`peer r` or a local process's `P spawn r peer` (`_spawn`), the peer node's seq tracer in half the blocks (never when a token has time stamps:
    stamped), a local process traced first now and then (`trace`), and a few steps across the two
    nodes; the state follows them (the remote process is one of st.alive while it lives, so that a
    local death reaches it through its links, and its through theirs: `die`)."""
    st.features.add("dist")
    spawned = _spawn(st, rng, receive_pattern, trace)
    lines = spawned or [f"peer {REMOTE}"]
    st.alive.append(REMOTE)
    if rng.random() < PEER_SEQ_TRACER_CHANCE and not stamped:
        lines.append(f"seq_trace tracer peer {PEER_SEQ_TRACER}")
    traceable = [p for p in _linkable(st) if p not in st.seq_group]
    if not spawned and traceable and rng.random() < TRACE_CHANCE:
        if (line := trace(rng.choice(traceable), list(rng.choice(TRACE_FLAGS)))) is not None:
            lines.append(line)
    for _ in range(rng.randrange(2, 8)):
        if (line := _step(st, rng, term, deliver, die)) is not None:
            lines.append(line)
    return lines
