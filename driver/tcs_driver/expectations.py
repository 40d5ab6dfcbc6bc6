"""Per-release expectations: cases that differ from the model on purpose on one OTP release.

`expectations/otp<N>.tsv` lists, one line each, a case whose live stream on OTP N differs
from the golden one in a way CONFORMANCE.md documents: the case id, the expected status
(`deviation`), the clarification that explains it (`C-n`), and the reason in words.
Lines starting with `#` are comments. A listed case that differs is a deviation; a listed
case that agrees is a failure (the expectation is stale); a case not listed that differs
is a failure, as always."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

STATUSES = ("deviation",)


@dataclass(frozen=True)
class Expectation:
    """One documented difference of one case on one release."""
    case: str
    status: str
    clarification: str
    reason: str


class ExpectationError(Exception):
    """An expectations file that cannot be read."""


def path_for(repo: Path, release: int) -> Path:
    """The expectations file of an OTP release."""
    return repo / "expectations" / f"otp{release}.tsv"


def parse(text: str, where: str) -> dict[str, Expectation]:
    """The expectations in text, keyed by case; ExpectationError names FILE:LINE of a bad line."""
    found: dict[str, Expectation] = {}
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        fields = line.split("\t")
        if len(fields) != 4 or not all(f.strip() for f in fields):
            raise ExpectationError(f"{where}:{number}: expected 4 tab-separated fields: "
                                   "case, status, clarification, reason")
        case, status, clarification, reason = (f.strip() for f in fields)
        if status not in STATUSES:
            raise ExpectationError(f"{where}:{number}: status must be one of {', '.join(STATUSES)}")
        if not clarification.startswith("C-"):
            raise ExpectationError(f"{where}:{number}: clarification must be C-n, not {clarification!r}")
        if case in found:
            raise ExpectationError(f"{where}:{number}: case {case} is listed twice")
        found[case] = Expectation(case, status, clarification, reason)
    return found


def verdict(agree: bool, expected: Expectation | None, release: int) -> tuple[str, str]:
    """The status of a case and what to say before its diff: pass when it agrees and nothing
    is expected, the expected status with its clarification when it differs as listed,
    fail when it differs unlisted or agrees although a difference is listed (stale)."""
    if expected is None:
        return ("pass", "") if agree else ("fail", "")
    if agree:
        return ("fail", f"expected a {expected.status} ({expected.clarification}) on OTP {release}, "
                        "but the node agreed with the model: the expectation is stale\n")
    return (expected.status, f"{expected.clarification}: {expected.reason}\n")


def load(repo: Path, release: int) -> dict[str, Expectation]:
    """The expectations of a release; none when it has no file."""
    path = path_for(repo, release)
    if not path.exists():
        return {}
    return parse(path.read_text(), str(path))
