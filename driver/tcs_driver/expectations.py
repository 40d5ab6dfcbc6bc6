"""Per-release expectations: the documented ways a case legitimately differs on one OTP release.

`expectations/otp<N>.toml` holds one table per such case:

    [case_id]
    status = "fail"                  # what the case does on that release: fail, crash or timeout
    rule = "EV-SEND"                 # the rule it differs on
    reason = "C-6: ..."              # why, naming the Clarification in CONFORMANCE.md
    evidence = ["-N trace(...)", "+N trace(...)"]   # the live evidence (see below)

For `fail`, `evidence` is exactly the changed lines of the comparison (the
'-' golden and '+' live lines, as `./tcs run` prints them); for `crash` and
`timeout`, each evidence string must occur in what the node printed. A result
that matches its entry is a `deviation`; one that differs in any other way,
or passes although an entry says it differs (a stale entry), is a `fail`: the
file stays true to what the release does.

`predicted` is for what a release does that no harness makes deterministic and
that its own prediction (`tcsref sim --release N`, PROTOCOLS.md "Release
predictions") states as a range: C-92's crash "at any step from S1 to S2, or not
at all". The run is judged against that prediction first (corpus.judged): a crash
it predicts (signal, step inside the range, the lines before it agreeing) must
also hold each evidence string in its detail; a run that does not crash must
agree with the golden stream, as a case without an entry."""
from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Final

from . import textfile
from .release import clarification_of
from .results import CaseResult

#: The statuses an entry may expect.
EXPECTABLE: Final[tuple[str, ...]] = ("fail", "crash", "timeout", "predicted")
KEYS: Final[frozenset[str]] = frozenset({"status", "rule", "reason", "evidence"})


class ExpectationError(Exception):
    """An expectations file that cannot be used; the message starts with FILE:LINE:COL."""


@dataclass(frozen=True)
class Expectation:
    """How one case is documented to differ on one release."""
    case: str
    status: str
    rule: str
    reason: str
    evidence: tuple[str, ...]
    where: str                # FILE:LINE:COL of the entry's table header

    def matches(self, result: CaseResult) -> bool:
        """True when the result is exactly the documented difference."""
        if self.status == "predicted":   # corpus.judged made a predicted crash a deviation already
            return result.status == "deviation" and all(text in result.detail for text in self.evidence)
        if result.status != self.status:
            return False
        if self.status == "fail":
            return tuple(result.changed) == self.evidence
        return all(text in result.detail for text in self.evidence)


def path_for(directory: Path, release: str) -> Path:
    """The expectations file of a release."""
    return directory / f"otp{release}.toml"


def _position(text: str, case: str) -> tuple[int, int]:
    """Line and column (from 1) of a case's table header, (1, 1) when not found."""
    header = re.compile(rf"^[ \t]*(\[)[ \t]*(?:{re.escape(case)}|\"{re.escape(case)}\")[ \t]*\]", re.MULTILINE)
    found = header.search(text)
    if not found:
        return 1, 1
    at = found.start(1)
    return text.count("\n", 0, at) + 1, at - (text.rfind("\n", 0, at) + 1) + 1


def load(path: Path) -> dict[str, Expectation]:
    """The entries of one expectations file by case id; a file that does not exist has none."""
    if not path.exists():
        return {}
    try:
        text = textfile.read_text(path)
        tables = tomllib.loads(text)
    except textfile.InputError as why:
        raise ExpectationError(str(why)) from why
    except tomllib.TOMLDecodeError as why:
        found = re.search(r"\(at line (\d+), column (\d+)\)", str(why))
        line, col = found.groups() if found else ("1", "1")
        raise ExpectationError(f"{path}:{line}:{col}: {str(why).split(' (at line')[0]}") from why
    except RecursionError as why:
        line, col = textfile.position(text, textfile.deepest_opening(text))
        raise ExpectationError(f"{path}:{line}:{col}: nesting too deep (arrays nested hundreds of levels)") from why
    entries: dict[str, Expectation] = {}
    for case, table in tables.items():
        where = "{}:{}:{}".format(path, *_position(text, case))
        if not isinstance(table, dict):
            raise ExpectationError(f"{where}: {case} must be a table [{case}] with {', '.join(sorted(KEYS))}")
        if missing := sorted(KEYS - table.keys()):
            raise ExpectationError(f"{where}: [{case}] lacks {', '.join(missing)}")
        if unknown := sorted(table.keys() - KEYS):
            raise ExpectationError(f"{where}: [{case}] has unknown key(s) {', '.join(unknown)}")
        if table["status"] not in EXPECTABLE:
            raise ExpectationError(f"{where}: [{case}] status {table['status']!r} is not one of "
                                   f"{', '.join(EXPECTABLE)}")
        evidence = table["evidence"]
        if not isinstance(evidence, list) or not evidence or not all(isinstance(e, str) for e in evidence):
            raise ExpectationError(f"{where}: [{case}] evidence must be a non-empty list of strings "
                                   "(the live lines)")
        for key in ("rule", "reason"):
            if not isinstance(table[key], str) or not table[key].strip():
                raise ExpectationError(f"{where}: [{case}] {key} must be a non-empty string")
        entries[case] = Expectation(case, table["status"], table["rule"], table["reason"].strip(),
                                    tuple(evidence), where)
    return entries


def apply(result: CaseResult, expected: Expectation | None) -> CaseResult:
    """The result judged against its release's expectation: a matching difference becomes a deviation."""
    if expected is None:
        return result
    if expected.matches(result):
        return replace(result, status="deviation", clarification=result.clarification or clarification_of(expected.reason),
                       detail=f"documented at {expected.where} ({expected.rule}): {expected.reason}\n{result.detail}")
    if expected.status == "predicted" and result.status == "pass":
        return result     # the prediction allows no crash at all: the run agreed with the golden stream
    if result.status in ("pass", "skip"):
        return stale(result, expected)
    wanted = "\n".join(expected.evidence)
    return replace(result, detail=(
        f"differs from its documented deviation at {expected.where} ({expected.status}, evidence:\n"
        f"{wanted}\n)\n{result.detail}"))


def stale(result: CaseResult, expected: Expectation) -> CaseResult:
    """A result that passes or is skipped although its entry says it differs: a `fail` saying so."""
    return replace(result, status="fail", detail=(
        f"stale expectation: {expected.where} says this case gives {expected.status} ({expected.rule}) "
        f"on OTP {result.otp}, but it {'passes' if result.status == 'pass' else 'is skipped'}: "
        "remove the entry (and revisit its Clarification)"))


def unknown_cases(entries: dict[str, Expectation], known: set[str]) -> list[str]:
    """Entries naming a case the corpus does not have, as FILE:LINE:COL messages."""
    return [f"{e.where}: no case {case} in cases/" for case, e in entries.items() if case not in known]
