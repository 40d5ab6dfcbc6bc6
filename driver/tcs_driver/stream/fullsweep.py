"""Restoring requested major collections that have a fullsweep's shape (GC-MINOR-FULLSWEEP, C-265,
C-350): the choices of which informative major pairs of a live stream are normative again."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from dataclasses import replace
from typing import Final

from .line import Line

#: At most this many ways of choosing which fullsweep-shaped major pairs are requested ones are tried
#: (fullsweep_restorations), the choice of the earliest pairs first.
MAX_FULLSWEEP_CHOICES: Final = 64


def fullsweep_restorations(golden: list[Line], live: list[Line]) -> Iterator[list[Line]]:
    """Yield live with as many of its GC-MINOR-FULLSWEEP majors made normative again, per process and
    tracer, as the golden stream requires normative major collections beyond the live stream's normative
    ones: a requested major collection (`gc major`) right after a minor one the runtime started
    (GC-RUNTIME) has the shape of a fullsweep added to a minor and is classified so, yet it is the
    collection the step asked for (C-265). Which of several such pairs is the requested one only their
    place among the process's other lines tells (an added fullsweep may come earlier, C-350), so every
    choice is yielded, that of the earliest pairs (C-265's) first. A normative live major may be one
    the runtime started, which a GC-RUNTIME window admits, and not a requested one (C-473): after those
    choices come those restoring one more pair, and so on up to as many as the golden stream requires,
    at most MAX_FULLSWEEP_CHOICES in all. A restored pair's gc_major_end and both enabled lines go with
    it; live itself when nothing is to be restored."""
    def majors(lines: list[Line]) -> dict[tuple[str, str | None], int]:
        counts: dict[tuple[str, str | None], int] = {}
        for ln in lines:
            if ln.cls == "N" and _major_start(ln):
                counts[(ln.group, ln.state)] = counts.get((ln.group, ln.state), 0) + 1
        return counts
    live_majors, required = majors(live), majors(golden)
    candidates: dict[tuple[str, str | None], list[int]] = {}  # each process and tracer's informative gc_major_starts
    for i, ln in enumerate(live):
        if ln.cls == "I" and _major_start(ln) and required.get((ln.group, ln.state)):
            candidates.setdefault((ln.group, ln.state), []).append(i)
    # per process and tracer: its candidates, how many of them it lacks and how many it may take
    wanted = [(starts, min(max(0, required[key] - live_majors.get(key, 0)), len(starts)),
               min(required[key], len(starts))) for key, starts in candidates.items()]
    beyond = sum(most - least for _, least, most in wanted)
    chosen = itertools.chain.from_iterable(_choices(wanted, extra) for extra in range(beyond + 1))
    for picked in itertools.islice(chosen, MAX_FULLSWEEP_CHOICES):
        yield _restore_fullsweeps(live, frozenset(picked))


def _major_start(line: Line) -> bool:
    """Whether line is where a tracer saw a major collection start: its gc_major_start trace line, or
    the enabled line of a gc_major_start it answered other than trace (no trace line follows, C-810)."""
    if line.tag != "gc_major_start":
        return False
    return line.kind == "trace" or (line.kind == "enabled" and not line.body.endswith(" -> trace"))


def _choices(wanted: list[tuple[list[int], int, int]], extra: int) -> Iterator[tuple[int, ...]]:
    """Yield, lazily (there may be very many), each way of taking of each list of indexes at least its
    least and at most its most many, extra more than the leasts in all: of each list's numbers of
    indexes the smaller first, of each number its combinations, the earliest first."""
    if not wanted:
        if extra == 0:
            yield ()
        return
    (indexes, least, most), rest = wanted[0], wanted[1:]
    for more in range(min(extra, most - least) + 1):
        for head in itertools.combinations(indexes, least + more):
            for tail in _choices(rest, extra - more):
                yield head + tail


def _restore_fullsweeps(live: list[Line], starts: frozenset[int]) -> list[Line]:
    """Return live with the fullsweep-shaped major pairs whose gc_major_start trace lines are at the
    indexes starts made normative (or the untraced enabled line of its start, C-810), each with its
    gc_major_end and both enabled lines."""
    out = list(live)
    restoring: set[tuple[str, str | None]] = set()  # between a restored gc_major_start and its end
    for i, line in enumerate(out):
        key = (line.group, line.state)
        ends = key in restoring and line.tag == "gc_major_end" and line.kind in ("trace", "enabled")
        if not (i in starts or ends):
            continue
        if i in starts:
            restoring.add(key)
        if ends and (line.kind == "trace" or not line.body.endswith(" -> trace")):
            restoring.discard(key)
        if line.kind == "trace":
            j = _enabled_before_informative(out, i)
            if j is not None:
                out[j] = replace(out[j], cls="N")
        out[i] = replace(line, cls="N")
    return out


def _enabled_before_informative(lines: list[Line], i: int) -> int | None:
    """Return the index of the informative enabled line that asked for trace line i (the nearest earlier line
    of its process and tracer), or None."""
    line = lines[i]
    j = next((j for j in range(i - 1, -1, -1)
              if lines[j].group == line.group and lines[j].state == line.state), None)
    ok = j is not None and lines[j].kind == "enabled" and lines[j].tag == line.tag and lines[j].cls == "I"
    return j if ok else None
