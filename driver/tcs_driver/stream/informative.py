"""The events the documents leave to the implementation (RUN-HARNESS, PORTS-RUNNING-ZERO,
GC-MINOR-FULLSWEEP): which lines of a stream they make informative."""

from __future__ import annotations

from dataclasses import replace
from typing import Final

from .. import tags
from .lex import split_args, term_items
from .line import Line
from .parse import callback_parts

#: The functions the harness's processes wait in (driver/runner/tcs_gate.c), and the puppet's loop
#: between two steps (driver/runner/tcs_puppet.erl), which runs no step itself (RUN-HARNESS).
_HARNESS_FUNCTIONS: Final = frozenset({"{tcs_gate,await_turn,1}", "{erts_internal,dirty_nif_finalizer,1}",
                                       "{tcs_puppet,loop,1}"})


def _unpredictable_scheduling(line: Line) -> bool:
    """Return True iff line is a scheduling trace line the documents leave unpredictable: a port
    scheduled for a task they do not name (term 0, PORTS-RUNNING-ZERO) or a process scheduled
    in a function the harness waits in (RUN-HARNESS)."""
    if line.kind == "msg":
        return _unpredictable_scheduling_message(line)
    # The scheduling tags: those of running_procs (and the same ones of running_ports).
    if line.kind != "trace" or line.tag not in tags.table().process_tags("running_procs"):
        return False
    parts = callback_parts(line.body)
    assert parts is not None  # a parsed trace line
    term = split_args(parts[1])[3]
    return term in _HARNESS_FUNCTIONS if not line.group.startswith("<port:") else term == "0"


def _unpredictable_scheduling_message(line: Line) -> bool:
    """The same for a tracer process's message ``msg(<S>, {trace,Tracee,Tag,Where})``: the harness's
    scheduling reaches a tracer process as it reaches a tracer module (RUN-HARNESS)."""
    inner = line.body[4:-1]
    items = term_items(split_args(inner)[1], "{", "}")
    if items is not None and len(items) == 5 and items[0] == "trace_ts":  # a time stamp last
        items = ["trace", *items[1:4]]
    if items is None or len(items) != 4 or items[0] != "trace" or items[2] not in tags.table().process_tags("running_procs"):
        return False
    return items[3] in _HARNESS_FUNCTIONS if not items[1].startswith("<port:") else items[3] == "0"


def _enabled_before(lines: list[Line], i: int) -> int | None:
    """Return the index of the enabled line that asked for trace line i: its group's nearest
    earlier normative line, when that is an enabled line of the same tag; else None (one tracer's lines:
    the sessions' lines of one event interleave)."""
    line = lines[i]
    j = next((j for j in range(i - 1, -1, -1)
              if lines[j].group == line.group and lines[j].state == line.state and lines[j].cls == "N"), None)
    return j if j is not None and lines[j].kind == "enabled" and lines[j].tag == line.tag else None


def _schedule_neighbour(lines: list[Line], i: int, tag: str, step: int) -> Line | None:
    """Return the first scheduling line (enabled or trace) of line i's process and tracer after it
    (step 1) or before it (step -1) when it is a trace line of tag, or an enabled line of tag that
    asked for one; else None."""
    line, running = lines[i], tags.table().process_tags("running_procs")
    j = i + step
    while 0 <= j < len(lines):
        other = lines[j]
        if other.group == line.group and other.state == line.state and other.tag in running \
                and other.kind in ("enabled", "trace"):
            if other.tag != tag or (other.kind == "enabled" and not other.body.endswith(" -> trace")):
                return None
            if other.kind == "trace":
                return other
        j += step
    return None


def _harness_discarded_schedule(lines: list[Line], i: int) -> bool:
    """Return True iff line i is a scheduling enabled line that traced nothing (discard, remove)
    for a schedule of the harness (RUN-HARNESS, OTP_SUITES.md F-1): a process is scheduled in
    where it was scheduled out, running nothing between, so a discarded out is where the next in
    traced of its process is, a discarded in where the last out traced was."""
    line = lines[i]
    if line.kind != "enabled" or line.cls != "N" or line.tag not in ("in", "out") \
            or line.body.endswith(" -> trace") or line.group.startswith("<port:"):  # a port: in and out by task
        return False
    neighbour = _schedule_neighbour(lines, i, "in", 1) if line.tag == "out" \
        else _schedule_neighbour(lines, i, "out", -1)
    return neighbour is not None and _unpredictable_scheduling(neighbour)


def classify_implementation_defined(lines: list[Line]) -> list[Line]:
    """Return lines with the events the documents leave to the implementation made informative,
    each with the enabled line that asked for it: unpredictable scheduling (RUN-HARNESS,
    PORTS-RUNNING-ZERO; also the enabled line of such a schedule that traced nothing, placed by its
    traced other half: _harness_discarded_schedule) and a fullsweep right after a minor collection of the same process
    (GC-MINOR-FULLSWEEP: the gc_major_start and gc_major_end directly following gc_minor_end,
    and the enabled line of that gc_major_end also when it answered no trace: discard leaves the
    enabled line alone, and it belongs to the fullsweep all the same; likewise a gc_minor_end the
    tracer answered other than trace is the minor's end it saw, C-296, and a gc_major_start it answered
    other than trace the fullsweep's start it saw, with the gc_major_end after it, C-810). Each tracer of a process is
    followed on its own: the lines of several sessions for one collection interleave (fuzz group J3).
    Every other line is unchanged."""
    out = list(lines)
    # (group, tracer) -> tag of its last trace line, or gc_minor_end for a later gc_minor_end enabled line
    # not answered trace (C-296)
    last_tag: dict[tuple[str, str | None], str] = {}
    in_fullsweep: set[tuple[str, str | None]] = set()  # (group, tracer) between an added gc_major_start and its end
    for i, line in enumerate(out):
        key = (line.group, line.state)
        if line.kind == "msg" and line.cls == "N" and _unpredictable_scheduling(line):
            out[i] = replace(line, cls="I")
        if (line.kind == "enabled" and line.cls == "N" and line.tag == "gc_major_end"
                and key in in_fullsweep and not line.body.endswith(" -> trace")):
            out[i] = replace(line, cls="I")   # the fullsweep's end, not traced
            in_fullsweep.discard(key)
            continue
        if (line.kind == "enabled" and line.cls == "N" and line.tag == "gc_minor_end"
                and not line.body.endswith(" -> trace")):
            last_tag[key] = "gc_minor_end"   # the minor's end as this tracer saw it, untraced
            continue
        if (line.kind == "enabled" and line.cls == "N" and line.tag == "gc_major_start"
                and last_tag.get(key) == "gc_minor_end" and not line.body.endswith(" -> trace")):
            out[i] = replace(line, cls="I")   # the fullsweep's start as this tracer saw it, untraced (C-810)
            in_fullsweep.add(key)
            last_tag[key] = "gc_major_start"
            continue
        if line.kind != "trace" or line.cls != "N":
            continue
        if _unpredictable_scheduling(line):
            informative = True
        else:
            starts = line.tag == "gc_major_start" and last_tag.get(key) == "gc_minor_end"
            informative = starts or (line.tag == "gc_major_end" and key in in_fullsweep)
            in_fullsweep.discard(key)
            if starts:
                in_fullsweep.add(key)
            last_tag[key] = line.tag
        if informative:
            out[i] = replace(line, cls="I")
            j = _enabled_before(out, i)
            if j is not None:
                out[j] = replace(out[j], cls="I")
    return [replace(line, cls="I") if _harness_discarded_schedule(out, i) else line
            for i, line in enumerate(out)]
