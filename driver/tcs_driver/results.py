"""Per-case results of a run: summaries, per-rule counts, the JSON report, a terminal table, the exit code."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

__all__ = [
    "OK_STATUSES",
    "STATUSES",
    "CaseResult",
    "exit_code",
    "per_rule",
    "render_table",
    "summarise",
    "to_json",
]

#: Every case status, in report order.
STATUSES: Final[tuple[str, ...]] = ("pass", "fail", "deviation", "skip", "crash", "timeout")
#: Statuses that do not make a run fail (a deviation is an expected, documented difference).
OK_STATUSES: Final[frozenset[str]] = frozenset({"pass", "deviation", "skip"})


@dataclass
class CaseResult:
    """The outcome of one case on one OTP release."""

    case: str
    status: str  # pass | fail | deviation | skip | crash | timeout
    rules: list[str]
    otp: str
    detail: str = ""
    golden: list[str] = field(default_factory=list)
    live: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        """Guarantee the status is one of STATUSES."""
        if self.status not in STATUSES:
            raise ValueError(f"{self.case}: unknown status {self.status!r} (expected one of {', '.join(STATUSES)})")


def _by_status(results: Iterable[CaseResult]) -> dict[str, int]:
    """Return the number of results per status, every status present, in STATUSES order."""
    counts = dict.fromkeys(STATUSES, 0)
    for r in results:
        counts[r.status] += 1
    return counts


def summarise(results: Iterable[CaseResult]) -> dict[str, int]:
    """Return {'cases': total, then one count per status in STATUSES order}."""
    items = list(results)
    return {"cases": len(items), **_by_status(items)}


def per_rule(results: Iterable[CaseResult]) -> dict[str, dict[str, int]]:
    """Return, per rule ID (sorted), the counts of the cases naming it, by status, every status present."""
    by_rule: dict[str, list[CaseResult]] = {}
    for r in results:
        for rule in dict.fromkeys(r.rules):  # a rule named twice by one case counts once
            by_rule.setdefault(rule, []).append(r)
    return {rule: _by_status(by_rule[rule]) for rule in sorted(by_rule)}


def _sorted(results: Iterable[CaseResult]) -> list[CaseResult]:
    """Return the results sorted by case id, then OTP release."""
    return sorted(results, key=lambda r: (r.case, r.otp))


def to_json(otp: str, results: Iterable[CaseResult]) -> dict[str, Any]:
    """Return the JSON report {otp, summary, results}: stable key order, results sorted by case."""
    items = _sorted(results)
    return {
        "otp": otp,
        "summary": summarise(items),
        "results": [
            {"case": r.case, "status": r.status, "rules": list(r.rules), "otp": r.otp, "detail": r.detail}
            for r in items
        ],
    }


def _table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    """Return left-aligned plain-text table lines: header, a dash rule, then the rows."""
    widths = [max([len(header[i])] + [len(row[i]) for row in rows]) for i in range(len(header))]

    def fmt(cells: Sequence[str]) -> str:
        """Return one table line with cells padded to the column widths."""
        return "  ".join(c.ljust(w) for c, w in zip(cells, widths)).rstrip()

    return [fmt(header), fmt(["-" * w for w in widths])] + [fmt(row) for row in rows]


def _first_line(text: str, limit: int = 60) -> str:
    """Return the first line of text, cut to at most limit characters (ending in '...' when cut)."""
    line = text.splitlines()[0] if text else ""
    return line if len(line) <= limit else line[: limit - 3] + "..."


def render_table(results: Iterable[CaseResult]) -> str:
    """Return a per-case table, a per-rule table and a summary line, as plain text for a terminal."""
    items = _sorted(results)
    case_rows = [[r.case, r.status, r.otp, " ".join(r.rules), _first_line(r.detail)] for r in items]
    rule_rows = [[rule, *(str(c[s]) for s in STATUSES)] for rule, c in per_rule(items).items()]
    summary = summarise(items)
    out = _table(["CASE", "STATUS", "OTP", "RULES", "DETAIL"], case_rows)
    out.append("")
    out += _table(["RULE", *STATUSES], rule_rows)
    out.append("")
    out.append(", ".join(f"{k} {v}" for k, v in summary.items()))
    return "\n".join(out) + "\n"


def exit_code(results: Iterable[CaseResult]) -> int:
    """Return 0 if every status is pass, deviation or skip (vacuously for no results), else 1."""
    return 0 if all(r.status in OK_STATUSES for r in results) else 1
