"""The rule catalogue (CONFORMANCE.md §2) against the rules the cases name."""
from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

# A catalogue row: "| RULE-ID | statement | source |".
_ROW = re.compile(r"^\|\s*([A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+)\s*\|\s*(.*?)\s*\|")


def catalogue(conformance_text: str) -> dict[str, str]:
    """Rule ID -> statement, for every catalogue row, in document order; duplicates raise ValueError."""
    rules: dict[str, str] = {}
    for number, line in enumerate(conformance_text.splitlines(), 1):
        found = _ROW.match(line)
        if not found:
            continue
        rule, statement = found.groups()
        if rule in rules:
            raise ValueError(f"CONFORMANCE.md:{number}: rule {rule} is defined twice")
        rules[rule] = statement
    return rules


@dataclass(frozen=True)
class RuleReport:
    """Cases per rule, rules without a case, and rules cases name that do not exist."""
    cases_per_rule: dict[str, list[str]]
    uncovered: list[str]
    unknown: dict[str, list[str]]   # unknown rule -> cases naming it

    @property
    def ok(self) -> bool:
        return not self.uncovered and not self.unknown


def check(rules: Iterable[str], case_rules: dict[str, list[str]]) -> RuleReport:
    """Cross-checks the catalogue with each case's `rules` line."""
    per_rule: dict[str, list[str]] = {rule: [] for rule in rules}
    unknown: dict[str, list[str]] = {}
    for case, named in sorted(case_rules.items()):
        for rule in named:
            (per_rule[rule] if rule in per_rule else unknown.setdefault(rule, [])).append(case)
    return RuleReport(per_rule, [r for r, cases in per_rule.items() if not cases], unknown)


def render(report: RuleReport) -> str:
    """A terminal listing: every rule with its case count, then the problems."""
    width = max((len(r) for r in report.cases_per_rule), default=4)
    lines = [f"{'RULE':<{width}}  CASES"]
    lines += [f"{rule:<{width}}  {len(cases)}" for rule, cases in report.cases_per_rule.items()]
    lines += [f"no case exercises {rule}" for rule in report.uncovered]
    lines += [f"unknown rule {rule} named by {', '.join(cases)}" for rule, cases in report.unknown.items()]
    lines.append(f"{len(report.cases_per_rule)} rules, {len(report.uncovered)} without a case, "
                 f"{len(report.unknown)} unknown")
    return "\n".join(lines)
