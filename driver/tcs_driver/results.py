"""Per-case results of a run on one or more OTP releases: summaries, per-rule counts, the case x release
and rule x release matrices, the JSON report, terminal tables, the exit code."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from . import junit

__all__ = [
    "OK_STATUSES",
    "STATUSES",
    "CaseResult",
    "by_case",
    "counts_text",
    "exit_code",
    "from_json",
    "per_rule",
    "releases",
    "render_table",
    "rule_matrix",
    "sorted_releases",
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
    changed: list[str] = field(default_factory=list)  # a fail's '-golden' / '+live' lines, every group
    rerun_alone: bool = False  # disagreed in a shared node, so this is the run of a fresh node
    shared_run: CaseResult | None = None  # when rerun_alone: what the shared node showed
    clarification: str = ""  # a deviation's clarification(s), "C-41" or "C-48, C-155": why it is documented
    tries: int = 1  # runs made of a case of a race where its release may crash (corpus.race_runs)

    def verdict(self) -> str:
        """The status as the reports print it: a deviation names its clarification, "deviation (C-41)"."""
        return f"{self.status} ({self.clarification})" if self.status == "deviation" and self.clarification \
            else self.status

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


def releases(results: Iterable[CaseResult]) -> list[str]:
    """Return the OTP releases the results come from, oldest first."""
    return sorted_releases(r.otp for r in results)


def sorted_releases(names: Iterable[str]) -> list[str]:
    """Return the release names, each once, oldest first (numbers, then paths to an erl)."""
    return sorted(set(names), key=lambda otp: (not otp.isdigit(), int(otp) if otp.isdigit() else 0, otp))


def _sorted(results: Iterable[CaseResult]) -> list[CaseResult]:
    """Return the results sorted by case id, then OTP release (oldest first)."""
    items = list(results)
    order = {otp: i for i, otp in enumerate(releases(items))}
    return sorted(items, key=lambda r: (r.case, order[r.otp]))


def by_case(results: Iterable[CaseResult]) -> dict[str, dict[str, CaseResult]]:
    """Return the case x release matrix: per case id (sorted), its result per release."""
    matrix: dict[str, dict[str, CaseResult]] = {}
    for r in _sorted(results):
        matrix.setdefault(r.case, {})[r.otp] = r
    return matrix


def rule_matrix(results: Iterable[CaseResult]) -> dict[str, dict[str, dict[str, int]]]:
    """Return the rule x release matrix: per rule (sorted), per release, the counts by status."""
    items = list(results)
    # counted once per release: counting again for each rule took seconds for the whole corpus
    by_release = {otp: per_rule([r for r in items if r.otp == otp]) for otp in releases(items)}
    return {rule: {otp: counts.get(rule, dict.fromkeys(STATUSES, 0)) for otp, counts in by_release.items()}
            for rule in per_rule(items)}


#: Statuses whose report shows the golden stream beside the live one (the HTML report's differences).
SHOWN_WITH_GOLDEN: Final[frozenset[str]] = frozenset({"fail", "deviation", "crash", "timeout"})


def to_json(otp: str | Sequence[str], results: Iterable[CaseResult], *, incomplete: str = "",
            provenance: dict[str, Any] | None = None) -> dict[str, Any]:
    """Return the JSON report: releases run, whether the run completed (else why not, in words), where
    it comes from when given (the tree, the shard: `provenance`, which ./tcs merge checks), overall
    and per-release summaries, one result per (case, release).

    Each result carries its live stream (class-prefixed lines), so that two
    reports can be compared stream by stream (./tcs diff), and says whether it
    is the run of a fresh node after a disagreement in a shared one, and then
    what the shared node showed."""
    items = _sorted(results)
    otps = [otp] if isinstance(otp, str) else list(otp)
    return {
        "otp": otps,
        "complete": not incomplete,
        **({"incomplete": incomplete} if incomplete else {}),
        **(provenance or {}),
        "summary": summarise(items),
        "by_otp": {o: summarise(r for r in items if r.otp == o) for o in otps},
        "results": [
            {**_result_json(r), "replayed_alone": r.rerun_alone,
             "shared_run": _result_json(r.shared_run) if r.shared_run else None}
            for r in items
        ],
    }


def _result_json(r: CaseResult) -> dict[str, Any]:
    """Return what one run of a case showed, as the JSON report stores it."""
    return {"case": r.case, "status": r.status, "rules": list(r.rules), "otp": r.otp, "detail": r.detail,
            "changed": list(r.changed), "live": list(r.live),
            **({"clarification": r.clarification} if r.clarification else {}),
            **({"tries": r.tries} if r.tries > 1 else {}),
            **({"golden": list(r.golden)} if r.golden and r.status in SHOWN_WITH_GOLDEN else {})}


def from_json(row: dict[str, Any]) -> CaseResult:
    """Return the result a row of the JSON report's "results" holds (to_json's inverse for what the
    report keeps: the golden stream only where it shows a difference); KeyError, TypeError or
    ValueError when the row is not one."""
    shared = row.get("shared_run")
    return CaseResult(row["case"], row["status"], list(row["rules"]), row["otp"], row.get("detail", ""),
                      list(row.get("golden", [])), list(row.get("live", [])), list(row.get("changed", [])),
                      bool(row.get("replayed_alone", False)), from_json(shared) if shared else None,
                      row.get("clarification", ""), int(row.get("tries", 1)))


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


def counts_text(counts: dict[str, int]) -> str:
    """Return the non-zero counts of a status count map as 'N status', comma-separated ('-' for none)."""
    return ", ".join(f"{n} {s}" for s, n in counts.items() if n) or "-"


def render_table(results: Iterable[CaseResult]) -> str:
    """Return the case x release table, the rule x release table and one summary line per release, as plain text."""
    items = _sorted(results)
    otps = releases(items)
    case_rows = []
    for case, row in by_case(items).items():
        notable = [r for r in row.values() if r.status not in ("pass", "skip")] or list(row.values())
        detail = next((f"{r.otp}: {_first_line(r.detail)}" for r in notable if r.detail), "")
        case_rows.append([case, *(row[o].status if o in row else "" for o in otps), detail])
    rule_rows = [[rule, *(counts_text(cells[o]) for o in otps)] for rule, cells in rule_matrix(items).items()]
    out = _table(["CASE", *(f"OTP {o}" for o in otps), "DETAIL"], case_rows)
    out.append("")
    out += _table(["RULE", *(f"OTP {o}" for o in otps)], rule_rows)
    out.append("")
    out += [f"OTP {o}: " + ", ".join(f"{k} {v}" for k, v in summarise(r for r in items if r.otp == o).items())
            for o in otps]
    return "\n".join(out) + "\n"


def exit_code(results: Iterable[CaseResult]) -> int:
    """Return 0 if every status is pass, deviation or skip (vacuously for no results), else 1."""
    return 0 if all(r.status in OK_STATUSES for r in results) else 1


#: How a case's status reads in JUnit XML (a deviation is documented, so it passes).
JUNIT_OUTCOMES = {"pass": "passed", "deviation": "passed", "skip": "skipped", "fail": "failure",
                  "crash": "error", "timeout": "error"}


def junit_cases(results: Iterable[CaseResult]) -> list[junit.Case]:
    """One JUnit testcase per case and release; a failure's text is its difference."""
    return [junit.Case(f"OTP {r.otp}", "tcs.run", r.case, JUNIT_OUTCOMES[r.status],
                       _first_line(r.detail) or r.status, r.detail) for r in results]
