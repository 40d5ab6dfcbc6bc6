"""The checks of ./tcs validate: what each one verifies, their results, their
time limits, and the reading of a NIF table against the erl_tracer behaviour."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .. import tags


@dataclass(frozen=True)
class Check:
    """One check: its name and what it verifies (shown in reports and the README)."""
    name: str
    verifies: str


CHECKS: tuple[Check, ...] = (
    Check("shape", "enabled/3 and trace/5 are NIFs of the library; which optional callbacks the "
          "NIF table provides; no NIF that looks like a callback but is not one (the runtime "
          "never calls it); erlang:trace/3 accepts the module as a tracer"),
    Check("enabled_answers", "enabled*/3 answers trace, discard or remove, and never raises, "
          "for every tag of its category, trace_status and seq_trace, with pid, port and "
          "undefined tracees (as the runtime passes them)"),
    Check("enabled_pure", "enabled*/3 sends no message (to the tracer state, the tracee, a "
          "process named in the event, the caller) nor a port command, and answers the same "
          "when asked twice"),
    Check("trace_accepts", "trace*/5 returns without raising for every tag with every Opts "
          "combination (each key present or absent, each timestamp kind), port tracees, and "
          "seq_trace with a label instead of a tracee"),
    Check("tracee_untouched", "no callback sends a message or issues a port command to the "
          "tracee (spec 000, Warning)"),
    Check("dead_state", "with the tracer state pointing to a dead process (from the start, or "
          "dying while tracing) the tracer ends up removed from the tracee; with a live one it "
          "stays attached"),
    Check("live", "attached to real traffic of every category and to seq_trace, the tracer "
          "crashes nothing and hangs nothing"),
    Check("latency", "no callback holds its scheduler: every direct-call input timed, one that "
          "takes longer than the limit (--latency-ms) in each of 3 calls in a row fails, with "
          "callback, tag and duration"),
    Check("stress", "attached to many processes running on every scheduler at once, every category "
          "together, in one session and (OTP 27+) in three sessions at once, for --stress-seconds: "
          "no crash, no hang, no garbage in what the tracer sends its state"),
    Check("leak", "during stress, the node's memory (erlang:memory(system), and the RSS) after the "
          "warm-up and at the end, at rest: growth per event below the limit"),
    Check("cost", "medians from one benchmark run: time per enabled call, per trace call, and "
          "per traced send against an untraced send and the built-in process tracer; fails when "
          "a traced send costs more than --budget times the built-in tracer's"),
    Check("memory", "(--sanitize only) with an ASan+UBSan build of the tracer (--src), or on a node under "
          "valgrind memcheck, every input of "
          "enabled_answers and trace_accepts: no callback reads uninitialised memory or outside "
          "a heap block (enif_alloc, malloc); errors are reported with the input and the "
          "tracer's function"),
)

#: The checks run unless --checks says otherwise: all but memory, which --sanitize adds (it is
#: slow: the nodes run under valgrind).
SANITIZE_CHECK = "memory"
ALL_CHECK_NAMES: tuple[str, ...] = tuple(c.name for c in CHECKS)
CHECK_NAMES: tuple[str, ...] = tuple(n for n in ALL_CHECK_NAMES if n != SANITIZE_CHECK)


@dataclass(frozen=True)
class Limits:
    """Time limits: a step longer than its limit counts as a hang."""
    callback_s: float = 2.0       # one direct call of a callback
    check_s: float = 120.0        # one node of one check

    @property
    def action_s(self) -> float:
        """One action of live or dead_state traffic (many callback calls by the runtime)."""
        return 5 * self.callback_s

    def describe(self) -> str:
        return (f"{self.callback_s:g} s per direct callback call, {self.action_s:g} s per live "
                f"action, {self.check_s:g} s per node of a check")

    def to_json(self) -> dict[str, float]:
        return {"per_callback_s": self.callback_s, "per_action_s": self.action_s,
                "per_check_node_s": self.check_s}


@dataclass(frozen=True)
class Bench:
    """The size of the cost benchmark (samples is odd: the median is a sample) and its budget:
    how many times the built-in tracer's cost per traced send this tracer may cost."""
    samples: int = 7
    calls: int = 20000
    events: int = 20000
    budget: float = 50.0


@dataclass(frozen=True)
class Stress:
    """The size of the stress run and the limits the latency and leak checks judge by.

    leak: a leak of one allocation per event is at least 16 bytes (the smallest block an
    allocator hands out); a correct tracer's memory at rest does not grow with events after
    the warm-up, so anything at 16 bytes per event or above in each half of the measured part is
    a leak, provided the growth also exceeds a floor that allocator and carrier granularity
    cannot reach. min_events is for the two halves together."""
    seconds: float = 4.0
    latency_ms: float = 10.0
    leak_bytes_per_event: float = 16.0
    leak_floor_bytes: int = 4 << 20
    malloc_bytes_per_event: float = 16.0
    malloc_floor_bytes: int = 4 << 20
    rss_bytes_per_event: float = 512.0
    rss_floor_bytes: int = 128 << 20
    min_events: int = 20000


STATUSES = ("pass", "fail", "skip")


@dataclass
class CheckResult:
    """The verdict of one check on one OTP release."""
    check: str
    otp: str
    status: str                  # pass | fail | skip
    summary: str                 # one line
    evidence: list[str] = field(default_factory=list)
    seconds: float = 0.0
    nodes: int = 0               # how many nodes the check used
    data: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.status not in STATUSES:
            raise ValueError(f"{self.check}: unknown status {self.status!r}")


# --- the behaviour's callbacks, and NIF tables read against them -------------

def callbacks() -> frozenset[tuple[str, int]]:
    """Every erl_tracer callback as (name, arity), from the model's tag table."""
    return frozenset(tags.table().with_arities())


#: Short names people use for a category in a callback's name (enabled_gc/3,
#: trace_process/5), beside the trace tags of the model's tag table.
_CATEGORY_ALIASES: dict[str, tuple[str, ...]] = {
    "procs": ("proc", "process", "processes"),
    "ports": ("port",),
    "running_procs": ("running", "running_proc"),
    "running_ports": ("running_port",),
    "garbage_collection": ("gc", "garbage_collect"),
}


def tag_categories() -> dict[str, list[str]]:
    """Each trace tag (and alias) -> the categories whose callbacks receive it: its category for
    a process tracee first, then for a port tracee (the model's tag table, spec 000's
    trace_tag_*() types)."""
    table = tags.table()
    receivers: dict[str, list[str]] = {}
    for tag in sorted(table.process.keys() | table.port.keys()):
        for category in (table.process.get(tag), table.port.get(tag)):
            if category is not None and category not in receivers.setdefault(tag, []):
                receivers[tag].append(category)
    for category, aliases in _CATEGORY_ALIASES.items():
        for alias in aliases:
            receivers.setdefault(alias, []).append(category)
    return receivers


def _distance(a: str, b: str) -> int:
    """Levenshtein distance."""
    row = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        prev, row[0] = row[0], i
        for j, cb in enumerate(b, 1):
            prev, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, prev + (ca != cb))
    return row[-1]


def looks_like_callback(name: str, arity: int) -> str | None:
    """Why a function that is not an erl_tracer callback looks like one, or None.

    It does when it has a callback's name with another arity (trace/6 of the
    OTP 19 draft), or a callback's arity and a name that starts like one
    (enabled_sends/3, trace_gc/5) or is a typo away from one."""
    known = callbacks()
    if (name, arity) in known:
        return None
    same_name = sorted(a for n, a in known if n == name)
    if same_name:
        return f"erl_tracer has {name}/{same_name[0]}, not {name}/{arity}"
    prefix = {3: "enabled", 5: "trace"}.get(arity)
    base, _, suffix = name.partition("_")
    receiving = tag_categories()
    if prefix is not None and base == prefix and suffix in receiving:
        receivers = " or ".join(f"{prefix}_{c}/{arity}" for c in receiving[suffix])
        return (f"erl_tracer has no such callback: {suffix} events go to {receivers} "
                f"(a callback per category, not per tag)")
    near = sorted((_distance(name, n), n) for n, a in known if a == arity)
    if near and (near[0][0] <= 2 or (prefix is not None and
                                     (name == prefix or name.startswith(prefix + "_")))):
        return f"erl_tracer has no such callback (nearest: {near[0][1]}/{arity})"
    return None


def runtime_callbacks(categories: list[str], nifs: set[tuple[str, int]]) -> str:
    """The callbacks the runtime calls for events of these categories, given the NIF table."""
    names: list[str] = []
    for base, arity in (("enabled", 3), ("trace", 5)):
        for category in categories:
            specific = f"{base}_{category}"
            name = f"{specific}/{arity}" if (specific, arity) in nifs else f"{base}/{arity}"
            if name not in names:
                names.append(name)
    return ", ".join(names) if names else "enabled/3, trace/5"
