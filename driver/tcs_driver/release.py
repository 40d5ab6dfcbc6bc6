"""A release's own prediction, where a clarification defines how that release deviates from the documents.

The model knows each such deviation as one row of a table (ref/state/release.c), which `tcsref
deviations` prints, one tab-separated line each (PROTOCOLS.md, "Release predictions"):

    C-41	stream	25	25	link/1 by a process with set_on_link or set_on_first_link passes no trace flags

its clarification, its kind (`stream`: the release's stream differs; `crash`: its node crashes at
the step the deviation applies at; `may-crash`: its node may crash at any step of a range of steps,
or not crash), the releases it names (`-`: an open bound) and what the release does.

`tcsref sim FILE --release N` runs the model as OTP N behaves; its stream ends with one comment line
per deviation that applied, naming a step, or a range of steps for a `may-crash` deviation:

    % otp 25 follows C-41 at step 3: link/1 by a process ... passes no trace flags
    % otp 27 follows C-92 at steps 4-11: the node may crash (SIGSEGV or SIGABRT) at ...

A note's kind is its deviation's, found in the table by its clarification and text: nothing here
reads the words. A disagreement on N is explained by such a clarification only when the live run
agrees *exactly* with N's prediction (the same comparison as against the documents), or, for a
predicted crash, when the node ends the way the clarification says at the step it names or at a
step inside the range it names, and the lines the node left (those of the steps before: the plan's
step_lines) agree with N's prediction of a node dying during that step (`tcsref sim --release N
--crash-at S`). The comparison itself is never loosened: any other difference stays a disagreement,
any other crash a crash.
"""
from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Final

from .layout import default_layout
from .results import CaseResult

#: What a deviation does to a run of the releases it names (the KIND of `tcsref deviations`).
KINDS: Final[tuple[str, ...]] = ("stream", "crash", "may-crash")
#: The releases of the suite's matrix (`--otp all`): a prediction for one of them, or for a bound of
#: its range, was seen live; for a release strictly inside a range (a 26 or 28 given with `--otp
#: PATH`) it is inferred from the range, and the reports say so.
MATRIX: Final[tuple[int, ...]] = (25, 27, 29)
#: The signals a predicted crash ends with (C-92: SIGSEGV or SIGABRT; C-448: SIGFPE or SIGSEGV; seen live).
CRASH_SIGNALS: Final[frozenset[int]] = frozenset({6, 8, 11})
#: The marks around PROTOCOLS.md's list of release predictions, generated from `tcsref deviations`.
BEGIN: Final[str] = ("<!-- generated from `tcsref deviations` by "
                     "`PYTHONPATH=driver /usr/bin/python3 -m tcs_driver.release`: do not edit -->")
END: Final[str] = "<!-- end of the generated list -->"

_OPEN: Final[str] = "-"
_NOTE: Final = re.compile(r"^% otp (\d+) follows (C-\d+) at steps? (\d+)(?:-(\d+))?: (.+)$", re.MULTILINE)
_CRASH: Final = re.compile(r"^node ended without finishing \(killed by signal (\d+); last step started: (\d+)\)$")
_CLARIFICATION: Final = re.compile(r"^(C-\d+)\b")


@dataclass(frozen=True)
class Deviation:
    """One row of `tcsref deviations`: a release's known difference from the documents."""
    clarification: str
    kind: str                          # one of KINDS
    first: int | None                  # None: open ("up to last")
    last: int | None                   # None: open ("from first")
    what: str

    def covers(self, number: int) -> bool:
        """Whether release `number` deviates so (0, the documents, never does)."""
        return (number > 0 and (self.first is None or number >= self.first)
                and (self.last is None or number <= self.last))

    def seen_on(self, number: int) -> bool:
        """Whether the deviation was seen live on release `number` (a bound of its range, or a release of
        the matrix it covers) rather than inferred from its range."""
        return number in (self.first, self.last) or (number in MATRIX and self.covers(number))

    def releases(self) -> str:
        """The releases in words: "25", "25 to 27", "from 26", "up to 28", "every release"."""
        if self.first is None:
            return "every release" if self.last is None else f"up to {self.last}"
        if self.last is None:
            return f"from {self.first}"
        return str(self.first) if self.first == self.last else f"{self.first} to {self.last}"


def _bound(text: str) -> int | None:
    return None if text == _OPEN else int(text)


def deviations(listing: str) -> tuple[Deviation, ...]:
    """The rows of `tcsref deviations`, in order; ValueError for a line that is not one."""
    rows: list[Deviation] = []
    for line in listing.splitlines():
        fields = line.split("\t")
        if len(fields) != 5 or not _CLARIFICATION.fullmatch(fields[0]) or fields[1] not in KINDS or not all(
                f == _OPEN or f.isdigit() for f in fields[2:4]):
            raise ValueError(f"not a line of tcsref deviations: {line!r}")
        rows.append(Deviation(fields[0], fields[1], _bound(fields[2]), _bound(fields[3]), fields[4]))
    return tuple(rows)


@dataclass(frozen=True)
class Note:
    """One deviation the model applied in a release's prediction."""
    release: int
    deviation: Deviation
    step: int
    last: int = 0                      # a range's last step; 0: the note names one step

    @property
    def clarification(self) -> str:
        return self.deviation.clarification

    @property
    def what(self) -> str:
        return self.deviation.what

    @property
    def crash(self) -> bool:
        """Whether the release's node is predicted to crash at the note's step."""
        return self.deviation.kind == "crash"

    @property
    def may_crash(self) -> bool:
        """Whether the release's node is predicted to crash at some step of the note's range, or not at all."""
        return self.deviation.kind == "may-crash"

    def covers(self, step: int) -> bool:
        """Whether a crash while the node ran `step` is one the note predicts."""
        return (self.crash or self.may_crash) and self.step <= step <= max(self.step, self.last)

    def text(self) -> str:
        """The note in words; a prediction inferred from a range rather than seen on the release says so."""
        where = f"steps {self.step}-{self.last}" if self.last else f"from step {self.step}"
        inferred = "" if self.deviation.seen_on(self.release) else \
            f"; inferred from the releases {self.deviation.releases()}, not seen on {self.release}"
        return f"{self.clarification} (OTP {self.release}, {where}{inferred}): {self.what}"


def predicted(table: Sequence[Deviation], number: int) -> frozenset[str]:
    """The clarifications whose deviation the model predicts for release number."""
    return frozenset(d.clarification for d in table if d.covers(number))


def clarification_of(reason: str) -> str:
    """The clarification an expectation's reason starts with ("C-41: ..."), or "" when it names none first."""
    found = _CLARIFICATION.match(reason)
    return found[1] if found else ""


def notes(stream_text: str, table: Sequence[Deviation]) -> list[Note]:
    """The deviations a release's prediction applied, in the order the model wrote them; ValueError for a
    note of no deviation in the table (the model and its table disagree)."""
    by_note = {(d.clarification, d.what): d for d in table}
    found: list[Note] = []
    for m in _NOTE.finditer(stream_text):
        deviation = by_note.get((m[2], m[5]))
        if deviation is None:
            raise ValueError(f"a release note of no deviation tcsref deviations lists: {m[0]}")
        found.append(Note(int(m[1]), deviation, int(m[3]), int(m[4] or 0)))
    return found


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
    return replace(result, status="deviation", clarification=covering[0].clarification,
                   detail=f"the crash OTP {covering[0].release} is documented to have: {covering[0].text()} "
                          f"(signal {signal} at step {step}; the lines before it agree)\n" + result.detail)


def explain(result: CaseResult, prediction: str, table: Sequence[Deviation], judge: Callable[[str], CaseResult],
            crashed_in: Callable[[int], str | None]) -> CaseResult:
    """The result, as a `deviation` when the release's prediction (its stream text, whose notes name
    deviations of table) explains it exactly; otherwise unchanged. `judge` compares the same live run
    with another golden stream (a crashed run: the lines it left); `crashed_in(S)` is the release's
    prediction of a node that dies during step S (tcsref sim --release N --crash-at S), None when the
    model gives none."""
    applied = notes(prediction, table)
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
                   clarification=", ".join(dict.fromkeys(n.clarification for n in applied)),
                   detail="exactly the release's prediction: " + "; ".join(n.text() for n in applied))


def _cell(text: str) -> str:
    """text in a cell of a Markdown table."""
    return text.replace("|", "\\|")


def document(table: Sequence[Deviation]) -> str:
    """PROTOCOLS.md's list of release predictions: the table, one row per deviation, between BEGIN and END."""
    rows = [f"| {d.clarification} | {d.releases()} | `{d.kind}` | {_cell(d.what)} |" for d in table]
    return "\n".join([BEGIN, "| clarification | OTP | kind | what the release does |", "|---|---|---|---|",
                      *rows, END])


def with_document(text: str, table: Sequence[Deviation]) -> str:
    """text (PROTOCOLS.md) with its list of release predictions generated from table; ValueError when
    text has no BEGIN ... END block."""
    start, end = text.find(BEGIN), text.find(END)
    if start < 0 or end < start:
        raise ValueError("no generated list of release predictions (its marks are missing)")
    return text[:start] + document(table) + text[end + len(END):]


def main() -> int:
    """Regenerates PROTOCOLS.md's list of release predictions from the build's `tcsref deviations`."""
    layout = default_layout()
    listing = subprocess.run([str(layout.tcsref), "deviations"], capture_output=True, text=True, check=True).stdout
    path = layout.repo / "PROTOCOLS.md"
    path.write_text(with_document(path.read_text(), deviations(listing)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
