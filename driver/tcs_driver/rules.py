"""The rule catalogue (the rule tables of conformance/, CONFORMANCE.md's areas) against the rules the cases name."""
from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

# A catalogue row: "| RULE-ID | statement | source | model |".
_ROW = re.compile(r"^\|\s*([A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+)\s*\|\s*((?:\\\||[^|])*?)\s*\|")
# In the model cell: "`fn`, `fn2` (`ref/file.c`)", one or more such groups.
_MODEL_GROUP = re.compile(r"((?:`\w+`(?:,\s*)?)+)\s*\(`(ref/[\w/]+\.c)`\)")


def catalogue(conformance_text: str) -> dict[str, str]:
    """Rule ID -> statement, for every catalogue row, in document order; duplicates raise ValueError."""
    rules: dict[str, str] = {}
    for number, line in enumerate(conformance_text.splitlines(), 1):
        found = _ROW.match(line)
        if not found:
            continue
        rule, statement = found.groups()
        if rule in rules:
            raise ValueError(f"line {number} of the catalogue: rule {rule} is defined twice")
        rules[rule] = statement
    return rules


def model_refs(conformance_text: str) -> dict[str, list[tuple[str, str]]]:
    """Rule ID -> the (function, file) pairs its model cell names (empty list if none)."""
    refs: dict[str, list[tuple[str, str]]] = {}
    for line in conformance_text.splitlines():
        found = _ROW.match(line)
        if not found:
            continue
        cells = re.split(r"(?<!\\)\|", line.strip().strip("|"))
        last = cells[-1] if len(cells) >= 4 else ""
        refs[found.group(1)] = [(name, path) for names, path in _MODEL_GROUP.findall(last)
                                for name in re.findall(r"`(\w+)`", names)]
    return refs


def model_problems(refs: dict[str, list[tuple[str, str]]], sources: dict[str, str]) -> dict[str, str]:
    """Rule ID -> what is wrong with its model cell: none named, a file that does not exist
    (sources maps "ref/x.c" to its text), or a function not defined in that file."""
    problems: dict[str, str] = {}
    for rule, pairs in refs.items():
        if not pairs:
            problems[rule] = "names no model function"
        for name, path in pairs:
            text = sources.get(path)
            if text is None:
                problems[rule] = f"names {path}, which does not exist"
            elif not re.search(rf"^\w[\w \t\*]*\b{name}\s*\([^;]*$", text, re.MULTILINE):
                problems[rule] = f"names {name}, which {path} does not define"
    return problems


@dataclass(frozen=True)
class RuleReport:
    """Cases per rule, rules without a case, and rules cases name that do not exist."""
    cases_per_rule: dict[str, list[str]]
    uncovered: list[str]
    unknown: dict[str, list[str]]   # unknown rule -> cases naming it
    bad_models: dict[str, str]      # rule -> what is wrong with its model cell

    @property
    def ok(self) -> bool:
        return not self.uncovered and not self.unknown and not self.bad_models


def check(rules: Iterable[str], case_rules: dict[str, list[str]],
          bad_models: dict[str, str] | None = None) -> RuleReport:
    """Cross-checks the catalogue with each case's `rules` line (and carries the model problems)."""
    per_rule: dict[str, list[str]] = {rule: [] for rule in rules}
    unknown: dict[str, list[str]] = {}
    for case, named in sorted(case_rules.items()):
        for rule in named:
            (per_rule[rule] if rule in per_rule else unknown.setdefault(rule, [])).append(case)
    return RuleReport(per_rule, [r for r, cases in per_rule.items() if not cases], unknown,
                      dict(bad_models or {}))


def render(report: RuleReport) -> str:
    """A terminal listing: every rule with its case count, then the problems."""
    width = max((len(r) for r in report.cases_per_rule), default=4)
    lines = [f"{'RULE':<{width}}  CASES"]
    lines += [f"{rule:<{width}}  {len(cases)}" for rule, cases in report.cases_per_rule.items()]
    lines += [f"no case exercises {rule}" for rule in report.uncovered]
    lines += [f"unknown rule {rule} named by {', '.join(cases)}" for rule, cases in report.unknown.items()]
    lines += [f"{rule}: model cell {problem}" for rule, problem in report.bad_models.items()]
    lines.append(f"{len(report.cases_per_rule)} rules, {len(report.uncovered)} without a case, "
                 f"{len(report.unknown)} unknown, {len(report.bad_models)} with a bad model cell")
    return "\n".join(lines)
