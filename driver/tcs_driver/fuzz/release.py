"""A release's own prediction, where a clarification defines how that release deviates from the documents.

`tcsref sim FILE --release N` runs the model as OTP N behaves where CONFORMANCE.md records that
N deviates from the documents in a way it defines exactly (C-41: OTP 25's `link/1` passes no
flags; C-92: OTP 27 crashes at a collection traced by two sessions). The stream ends with one
comment line per deviation that applied (PROTOCOLS.md, "Release predictions"):

    % otp 25 follows C-41 at step 3: link/1 by a process ... passes no trace flags

Where the step is not known (C-92 at a collection the runtime starts by itself), the note names
a range of steps and the crash is only possible ("may crash ..., or not crash"):

    % otp 27 follows C-92 at steps 4-11: the node may crash (SIGSEGV or SIGABRT) at ...

A fuzz scenario disagreeing on N is explained by such a clarification only when the live run
agrees *exactly* with N's prediction (the same comparison as against the documents), or, for a
predicted crash, when the node ends the way the clarification says at the step it names or at a
step inside the range it names, and the lines the node left (those of the steps before: the
plan's step_lines) agree with N's prediction of a node dying during that step (`tcsref sim
--release N --crash-at S`). The comparison itself is never loosened: any other difference stays a
disagreement, any other crash a crash.
"""
from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Final

from ..results import CaseResult

_NOTE: Final = re.compile(r"^% otp (\d+) follows (C-\d+) at steps? (\d+)(?:-(\d+))?: (.+)$", re.MULTILINE)
#: What a predicted crash says (ref/state/release.c), what a crash predicted as possible in a range
#: of steps says, and the signals they end with (C-92: SIGSEGV or SIGABRT, seen live).
CRASH_WORDS: Final[str] = "the node crashes"
MAY_CRASH_WORDS: Final[str] = "the node may crash"
CRASH_SIGNALS: Final[frozenset[int]] = frozenset({6, 11})
_CRASH: Final = re.compile(r"^node ended without finishing \(killed by signal (\d+); last step started: (\d+)\)$")


@dataclass(frozen=True)
class Note:
    """One deviation the model applied in a release's prediction."""
    release: int
    clarification: str
    step: int
    what: str
    last: int = 0                      # a range's last step; 0: the note names one step

    @property
    def crash(self) -> bool:
        """Whether the release's node is predicted to crash at the note's step."""
        return self.what.startswith(CRASH_WORDS)

    @property
    def may_crash(self) -> bool:
        """Whether the release's node is predicted to crash at some step of the note's range, or not at all."""
        return self.what.startswith(MAY_CRASH_WORDS)

    def covers(self, step: int) -> bool:
        """Whether a crash while the node ran `step` is one the note predicts."""
        return (self.crash or self.may_crash) and self.step <= step <= max(self.step, self.last)

    def text(self) -> str:
        """The note in words."""
        where = f"steps {self.step}-{self.last}" if self.last else f"from step {self.step}"
        return f"{self.clarification} (OTP {self.release}, {where}): {self.what}"


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
    return [Note(int(m[1]), m[2], int(m[3]), m[5], int(m[4] or 0)) for m in _NOTE.finditer(stream_text)]


def crash_of(detail: str) -> tuple[int, int] | None:
    """The signal that killed a crashed node and the last step it started, from the crash's detail;
    None when the node was not killed by a signal (an exit status, a job that stopped)."""
    found = _CRASH.match(detail.splitlines()[0] if detail else "")
    return (int(found[1]), int(found[2])) if found else None


def _explain_crash(result: CaseResult, applied: list[Note], judge: Callable[[str], CaseResult],
                   crashed_in: Callable[[int], str | None]) -> CaseResult:
    """A crash as a `deviation` when a note predicts it: one of the clarification's signals, at the
    step the note names or inside its range, and the lines the node left agree with the prediction
    of a node that dies during that step; otherwise the crash, with why when only the lines differ."""
    found = crash_of(result.detail)
    if found is None or found[0] not in CRASH_SIGNALS:
        return result
    signal, step = found
    covering = [n for n in applied if n.covers(step)]
    if not covering:
        return result
    before = crashed_in(step)
    if before is None:
        return result
    again = judge(before)
    if again.status != "pass":
        return replace(result, detail=f"{covering[0].text()} would explain this crash (signal {signal}, step {step}), "
                                      f"but the lines before step {step} differ from that prediction:\n"
                                      f"{again.detail}\n{result.detail}")
    return replace(result, status="deviation",
                   detail=f"the crash OTP {covering[0].release} is documented to have: {covering[0].text()} "
                          f"(signal {signal} at step {step}; the lines before it agree)\n" + result.detail)


def explain(result: CaseResult, prediction: str, judge: Callable[[str], CaseResult],
            crashed_in: Callable[[int], str | None]) -> CaseResult:
    """The result, as a `deviation` when the release's prediction (its stream text) explains it
    exactly; otherwise unchanged. `judge` compares the same live run with another golden stream (a
    crashed run: the lines it left); `crashed_in(S)` is the release's prediction of a node that dies
    during step S (tcsref sim --release N --crash-at S), None when the model gives none."""
    applied = notes(prediction)
    if not applied or result.status not in ("fail", "crash"):
        return result
    if result.status == "crash":
        return _explain_crash(result, applied, judge, crashed_in)
    if any(n.crash for n in applied):     # the release was predicted to crash, and did not
        return result
    again = judge(prediction)
    if again.status != "pass":
        return result
    return replace(result, status="deviation",
                   detail="exactly the release's prediction: " + "; ".join(n.text() for n in applied))
