"""A release's own prediction, where a clarification defines how that release deviates from the documents.

`tcsref sim FILE --release N` runs the model as OTP N behaves where CONFORMANCE.md records that
N deviates from the documents in a way it defines exactly (C-41: OTP 25's `link/1` passes no
flags; C-92: OTP 27 crashes at a collection traced by two sessions). The stream ends with one
comment line per deviation that applied (PROTOCOLS.md, "Release predictions"):

    % otp 25 follows C-41 at step 3: link/1 by a process ... passes no trace flags

A fuzz scenario disagreeing on N is explained by such a clarification only when the live run
agrees *exactly* with N's prediction (the same comparison as against the documents), or, for a
predicted crash, when the node ends the way the clarification says at the step it names. The
comparison itself is never loosened: any other difference stays a disagreement.
"""
from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Final

from ..results import CaseResult

_NOTE: Final = re.compile(r"^% otp (\d+) follows (C-\d+) at step (\d+): (.+)$", re.MULTILINE)
#: What a predicted crash says (ref/state/release.c), and the signals it ends with (C-92:
#: SIGSEGV or SIGABRT, seen live).
CRASH_WORDS: Final[str] = "the node crashes"
CRASH_SIGNALS: Final[frozenset[int]] = frozenset({6, 11})
_CRASH: Final = re.compile(r"^node ended without finishing \(killed by signal (\d+); last step started: (\d+)\)$")


@dataclass(frozen=True)
class Note:
    """One deviation the model applied in a release's prediction."""
    release: int
    clarification: str
    step: int
    what: str

    @property
    def crash(self) -> bool:
        """Whether the release's node is predicted to crash at the note's step."""
        return self.what.startswith(CRASH_WORDS)

    def text(self) -> str:
        """The note in words."""
        return f"{self.clarification} (OTP {self.release}, from step {self.step}): {self.what}"


_DEVIATION: Final = re.compile(r"^(\d+) (\d+) (C-\d+)$", re.MULTILINE)
_CLARIFICATION: Final = re.compile(r"^(C-\d+)\b")


def predicted(listing: str, number: int) -> frozenset[str]:
    """The clarifications whose deviation `tcsref deviations` (listing: FIRST LAST C-n a line) predicts for
    release number."""
    return frozenset(m[3] for m in _DEVIATION.finditer(listing) if int(m[1]) <= number <= int(m[2]))


def clarification_of(reason: str) -> str:
    """The clarification an expectation's reason starts with ("C-41: ..."), or "" when it names none first."""
    found = _CLARIFICATION.match(reason)
    return found[1] if found else ""


def notes(stream_text: str) -> list[Note]:
    """The deviations a release's prediction applied, in the order the model wrote them."""
    return [Note(int(m[1]), m[2], int(m[3]), m[4]) for m in _NOTE.finditer(stream_text)]


def crash_matches(note: Note, detail: str) -> bool:
    """Whether a crash's detail is exactly the predicted one: the node killed by one of the
    clarification's signals while running the step the note names."""
    first = detail.splitlines()[0] if detail else ""
    found = _CRASH.match(first)
    return bool(found) and int(found[1]) in CRASH_SIGNALS and int(found[2]) == note.step


def explain(result: CaseResult, prediction: str, judge: Callable[[str], CaseResult]) -> CaseResult:
    """The result, as a `deviation` when the release's prediction (its stream text) explains it
    exactly; otherwise unchanged. `judge` compares the same live run with another golden stream."""
    applied = notes(prediction)
    if not applied or result.status not in ("fail", "crash"):
        return result
    crashes = [n for n in applied if n.crash]
    if result.status == "crash":
        if crashes and crash_matches(crashes[0], result.detail):
            return replace(result, status="deviation",
                           detail=f"the crash OTP {crashes[0].release} is documented to have: {crashes[0].text()}\n"
                                  + result.detail)
        return result
    if crashes:     # the release was predicted to crash, and did not
        return result
    again = judge(prediction)
    if again.status != "pass":
        return result
    return replace(result, status="deviation",
                   detail="exactly the release's prediction: " + "; ".join(n.text() for n in applied))
