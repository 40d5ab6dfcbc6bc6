"""What the fuzz generator knows about the scenario it writes (gen, badcalls, busyreload): which
processes live, which are blocked in a receive and what their mailboxes hold, which ports are open
and who owns them, who holds a seq_trace token, which sessions exist, what the steps so far need."""
from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final, TypeVar

T = TypeVar("T")

#: The names of spawned processes and of ports, in the order they are given (FuzzState.fresh).
SPAWN_NAMES: Final[tuple[str, ...]] = ("e", "f", "g", "h")
PORT_NAMES: Final[tuple[str, ...]] = ("x", "y")
#: The call chain top/1 -> middle/1 -> bottom/1 (trace_session_SUITE's return_to/1): each
#: takes the script of the calls below it.
CHAIN_SHAPES: Final[tuple[str, ...]] = ("body", "'catch'", "tail")


@dataclass
class Port:
    """A port of the scenario as the generator follows it."""

    owner: str
    open: bool = True
    linked: set[str] = field(default_factory=set)
    named: bool = False
    traced: bool = False
    driver: bool = False       # a tcs_drv port (`open_port X driver`)
    busy: bool = False         # tcs_drv called set_busy_port(Port, 1) (`port_control X busy`)


@dataclass
class FuzzState:
    """What the generator knows about the scenario so far."""
    rng: random.Random
    sessions_allowed: bool
    # the stream of the forms of issue 25 (fuzz/runtime.py), apart from rng so that a scenario without
    # them is the one its seed gave before they were written
    xr: random.Random = field(default_factory=lambda: random.Random(0))
    alive: list[str] = field(default_factory=list)
    dead: set[str] = field(default_factory=set)
    blocked: set[str] = field(default_factory=set)
    # per process, per message: its term as the scenario wrote it (None: a port's echo, an 'EXIT' or
    # 'DOWN' message), and whether it carries a token
    mailbox: dict[str, list[tuple[str | None, bool]]] = field(default_factory=dict)
    trapping: set[str] = field(default_factory=set)                # processes trapping exits
    monitors: list[tuple[str, str]] = field(default_factory=list)  # (watcher, watched)
    links: set[frozenset[str]] = field(default_factory=set)
    ports: dict[str, Port] = field(default_factory=dict)
    names: dict[str, str] = field(default_factory=dict)            # registered name -> process or port
    token: set[str] = field(default_factory=set)                   # processes holding a seq_trace token
    seq_tracer: bool = False
    seq_group: set[str] = field(default_factory=set)               # processes never traced (seq_trace)
    traced_sr: set[str] = field(default_factory=set)               # may be traced for send/'receive'
    traced: set[str] = field(default_factory=set)                  # may be traced at all
    new_sr: bool = False                                           # new processes may be traced for send/receive
    new_traced: bool = False
    late_loaded: bool = False
    last_minor_gc: set[str] = field(default_factory=set)
    fullsweep: set[str] = field(default_factory=set)               # spawned with fullsweep_after: no minor gc
    looped: bool = False                                           # a busy loop was written (one per case)
    readings: int = 0                                              # counter readings named so far (r1, r2, ...)
    sessions: dict[str, str] = field(default_factory=dict)         # name -> tracer kind
    created: set[str] = field(default_factory=set)
    dropped: set[str] = field(default_factory=set)
    used: set[str] = field(default_factory=set)                    # names given to spawned processes, ports
    tracer_gone: bool = False
    system: bool = False                                           # the case may use trace:system/3 (OTP 28+)
    new_ports_traced: bool = False                                 # trace new_ports on (the legacy session)
    recorder: bool = False                                         # the legacy tracer is the recorder
    trace_call: bool = False                                       # the legacy recorder has trace_call/5 (C-10)
    meta: bool = False                                             # a meta pattern may be set
    seq_traced_flag: bool = False                                  # a token may have the send or 'receive' flag
    legacy_process: bool = False                                   # the legacy tracer is a process
    tracer_port: bool = False                                      # ... replaced by the harness's port (tracer port)
    destroyed: set[str] = field(default_factory=set)               # sessions destroyed (by a destroy step)
    tracer_module: str = "loaded"                                  # the recorder module: loaded, old (code kept), unloaded
    counted: set[str] = field(default_factory=set)                 # fixture functions with counters ('*': all)
    own_state: bool = False                                        # the recorder has a state of the case's own
    step_state: str | None = None                                  # every legacy `trace ... on` names this state
    no_meta: set[str] = field(default_factory=set)                 # sessions whose recorder has trace_call/5
    flag_functions: bool = False                                   # a pattern may change its callers' flags
    seq_patterned: bool = False                                    # a pattern named lists:seq/2
    lib_patterned: bool = False                                    # a pattern named a library target
    then: list[str] = field(default_factory=list)                  # steps that must come next, in order
    otp: int = 25                                                  # the oldest release the steps so far need
    features: set[str] = field(default_factory=set)                # feature tags the steps so far need

    def needs(self, otp: int, feature: str | None = None) -> None:
        """A step needs release `otp` or later (and is tagged `feature`): older releases skip the case."""
        self.otp = max(self.otp, otp)
        if feature:
            self.features.add(feature)

    def pick(self, items: Sequence[T]) -> T:
        """One of items, drawn with the scenario's random stream."""
        return items[self.rng.randrange(len(items))]

    def draw(self, items: Sequence[T]) -> T | None:
        """One of items, drawn with the second stream (xr), None when there are none."""
        return self.xr.choice(items) if items else None

    def fresh(self, names: tuple[str, ...]) -> str | None:
        """The first of `names` not given yet (now given), None when every one is."""
        name = next((n for n in names if n not in self.used), None)
        if name is not None:
            self.used.add(name)
        return name

    def free(self) -> list[str]:
        """Processes that can act now: alive and not blocked in a receive."""
        return [p for p in self.alive if p not in self.blocked]

    def every_name(self) -> list[str]:
        """Every process of the scenario: the living ones first, then the dead ones by name."""
        return self.alive + sorted(self.dead)
