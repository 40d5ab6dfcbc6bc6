"""Shrinking: reducing a disagreeing scenario to a minimal one that disagrees in the same way.

The reductions are syntactic, one edit each: drop a run of steps (halves,
quarters, ... single steps, as delta debugging does), run a together block's
steps one by one (its `together` and `end` dropped: does the disagreement need
them at once?), drop a declaration line (callbacks, answers, a session), drop
one argument of a line (a flag, a callback, a process, an option) and replace a
term by the atom `ok`. A
reduction the model refuses is no scenario and is skipped; of the rest, the
first one that still disagrees the same way (the caller's judgement) is kept,
and shrinking starts again from it, until no reduction reproduces or the budget
is spent.
"""
from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import Final

from .gen import Scenario

#: Declaration keywords: the lines before the steps.
DECLARATIONS: Final[frozenset[str]] = frozenset({"tracer", "callbacks", "answer", "session", "process"})
_TERM_START: Final[tuple[str, ...]] = ("{", "[", "<<", "#", '"', "-") + tuple("0123456789")


def split(body: tuple[str, ...]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The declaration lines and the step lines of a body."""
    at = next((i for i, line in enumerate(body) if line.split()[0] == "process"), -1) + 1
    return body[:at], body[at:]


def _step_cuts(steps: tuple[str, ...]) -> Iterator[tuple[str, ...]]:
    """The steps without one run of them, longest runs first."""
    size = len(steps) // 2
    while size >= 1:
        for start in range(0, len(steps), size):
            yield steps[:start] + steps[start + size:]
        size //= 2


def _argument_edits(line: str) -> Iterator[str]:
    """The line without one of its arguments (from the third word on), then with one term made `ok`."""
    words = line.split()
    first = 2
    for i in range(first, len(words)):
        yield " ".join(words[:i] + words[i + 1:])
    for i in range(1, len(words)):
        if words[i].startswith(_TERM_START) and words[i] != "ok":
            yield " ".join(words[:i] + ["ok"] + words[i + 1:])


def _unblocked(steps: tuple[str, ...]) -> Iterator[tuple[str, ...]]:
    """The steps with one together block's `together` and `end` dropped: its steps one by one."""
    for i, line in enumerate(steps):
        if line == "together":
            end = steps.index("end", i)
            yield steps[:i] + steps[i + 1:end] + steps[end + 1:]


def reductions(body: tuple[str, ...]) -> Iterator[tuple[str, ...]]:
    """Every one-edit reduction of a body, the larger ones first."""
    decls, steps = split(body)
    for cut in _step_cuts(steps):
        yield decls + cut
    for serial in _unblocked(steps):
        yield decls + serial
    for i, line in enumerate(decls):
        if line.split()[0] in ("callbacks", "answer", "session"):
            yield decls[:i] + decls[i + 1:] + steps
    if any(line.startswith("session ") for line in decls):
        # a session with its callbacks and answers: the lines up to the next declaration of a tracer
        for i, line in enumerate(decls):
            if line.startswith("session "):
                end = next((j for j in range(i + 1, len(decls))
                            if decls[j].split()[0] in ("session", "process")), len(decls))
                yield decls[:i] + decls[end:] + steps
    for i, line in enumerate(body):
        for edited in _argument_edits(line):
            yield body[:i] + (edited,) + body[i + 1:]


def shrink(start: Scenario, accepted: Callable[[Scenario], bool],
           reproduce: Callable[[list[Scenario]], int | None], *, seconds: float,
           batch: int = 8) -> tuple[Scenario, int]:
    """The smallest scenario reached from `start` that `reproduce` still finds disagreeing the same way,
    and the number of live runs it took.

    `accepted` says whether the model takes a scenario; `reproduce` runs a batch
    of them live and returns the index of the first that disagrees the same
    way (None when none does)."""
    current, runs = start, 0
    deadline = time.monotonic() + seconds
    improved = True
    while improved and time.monotonic() < deadline:
        improved = False
        tried: set[tuple[str, ...]] = set()
        pending: list[Scenario] = []
        for body in reductions(current.body):
            if body in tried:
                continue
            tried.add(body)
            candidate = current.with_body(body)
            if not accepted(candidate):
                continue
            pending.append(candidate)
            if len(pending) == batch:
                runs += len(pending)
                found = reproduce(pending)
                if found is not None:
                    current, improved = pending[found], True
                    break
                pending = []
                if time.monotonic() >= deadline:
                    break
        else:
            if pending:
                runs += len(pending)
                found = reproduce(pending)
                if found is not None:
                    current, improved = pending[found], True
    return current, runs
