"""Comparison of a golden stream with a live one (PROTOCOLS.md section 6, "Comparison")."""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final

from .stream import Line

__all__ = [
    "ALL_KINDS",
    "DEFAULT_OBSERVABLE",
    "MSG_TRACER_OBSERVABLE",
    "REPEATABLE_ENABLED_TAGS",
    "Comparison",
    "GroupDiff",
    "compare",
    "collapse_repeats",
    "diff_lines",
    "group_lines",
    "missing_and_extra",
    "select",
]

#: Every line kind of the canonical stream.
ALL_KINDS: Final[frozenset[str]] = frozenset({"enabled", "trace", "msg", "ctl"})
#: What the recorder tracer reveals: every callback line and the control lines.
DEFAULT_OBSERVABLE: Final[frozenset[str]] = frozenset({"enabled", "trace", "ctl"})
#: What the documentation's example tracer (erl_msg_tracer) reveals.
MSG_TRACER_OBSERVABLE: Final[frozenset[str]] = frozenset({"msg", "ctl"})


@dataclass(frozen=True)
class GroupDiff:
    """The golden and live lines of one group, and whether they are equal."""

    group: str
    golden: list[Line]
    live: list[Line]
    equal: bool


@dataclass(frozen=True)
class Comparison:
    """The outcome of comparing a golden stream with a live one, group by group."""

    agree: bool
    groups: list[GroupDiff]
    strict: bool = False
    observable: frozenset[str] = DEFAULT_OBSERVABLE

    def differing(self) -> list[GroupDiff]:
        """Return the groups whose golden and live lines differ, in report order."""
        return [g for g in self.groups if not g.equal]

    def summary(self) -> str:
        """Return a one-line count summary: groups, lines compared, missing and unexpected lines."""
        missing = extra = 0
        for g in self.differing():
            m, e = missing_and_extra(g.golden, g.live)
            missing += len(m)
            extra += len(e)
        n_golden = sum(len(g.golden) for g in self.groups)
        n_live = sum(len(g.live) for g in self.groups)
        mode = "strict" if self.strict else "informative lines dropped"
        kinds = ",".join(sorted(self.observable))
        verdict = "AGREE" if self.agree else "DIFFER"
        return (
            f"{verdict}: {len(self.differing())} of {len(self.groups)} groups differ; "
            f"{n_golden} golden / {n_live} live lines compared; "
            f"{missing} missing, {extra} unexpected ({mode}; kinds {kinds})"
        )

    def render(self) -> str:
        """Return a readable report: a unified-style diff per differing group, then the summary line."""
        out: list[str] = []
        differing = self.differing()
        if differing:
            out += ["--- golden", "+++ live"]
            for g in differing:
                out.append(f"@@ group {g.group} @@")
                out += diff_lines(g.golden, g.live)
        out.append(self.summary())
        return "\n".join(out) + "\n"


#: Tags whose enabled call comes a number of times per tracepoint that the documents leave open
#: (SEQ-ENABLED-REPEAT): in the default comparison a run of identical such lines counts once.
REPEATABLE_ENABLED_TAGS: Final[frozenset[str]] = frozenset({"seq_trace"})


def select(lines: Iterable[Line], *, strict: bool, observable: frozenset[str]) -> list[Line]:
    """Return the lines that take part in a comparison: observable kinds, and only normative ones unless strict."""
    return [ln for ln in lines if (strict or ln.cls == "N") and ln.kind in observable]


def collapse_repeats(lines: Iterable[Line]) -> list[Line]:
    """Return lines with each run of identical consecutive enabled lines of a repeatable tag kept once."""
    out: list[Line] = []
    for ln in lines:
        repeat = bool(out) and ln.kind == "enabled" and ln.tag in REPEATABLE_ENABLED_TAGS and out[-1].text() == ln.text()
        if not repeat:
            out.append(ln)
    return out


def group_lines(lines: Iterable[Line]) -> dict[str, list[Line]]:
    """Return the lines grouped by Line.group, groups in order of first appearance, order kept within each."""
    groups: dict[str, list[Line]] = {}
    for ln in lines:
        groups.setdefault(ln.group, []).append(ln)
    return groups


def _opcodes(golden: Sequence[Line], live: Sequence[Line]) -> list[tuple[str, int, int, int, int]]:
    """Return difflib opcodes turning the golden texts into the live texts."""
    matcher = difflib.SequenceMatcher(
        a=[ln.text() for ln in golden], b=[ln.text() for ln in live], autojunk=False
    )
    return matcher.get_opcodes()


def missing_and_extra(golden: Sequence[Line], live: Sequence[Line]) -> tuple[list[Line], list[Line]]:
    """Return (golden lines missing from live, live lines not in golden) under a longest-common-subsequence alignment."""
    missing: list[Line] = []
    extra: list[Line] = []
    for op, i1, i2, j1, j2 in _opcodes(golden, live):
        if op in ("delete", "replace"):
            missing += golden[i1:i2]
        if op in ("insert", "replace"):
            extra += live[j1:j2]
    return missing, extra


def diff_lines(golden: Sequence[Line], live: Sequence[Line]) -> list[str]:
    """Return full-context diff lines: ' ' common, '-' golden only (missing live), '+' live only (unexpected)."""
    out: list[str] = []
    for op, i1, i2, j1, j2 in _opcodes(golden, live):
        if op == "equal":
            out += [f" {ln.text()}" for ln in golden[i1:i2]]
            continue
        out += [f"-{ln.text()}" for ln in golden[i1:i2]]
        out += [f"+{ln.text()}" for ln in live[j1:j2]]
    return out


def compare(
    golden: list[Line],
    live: list[Line],
    *,
    strict: bool = False,
    observable: frozenset[str] = DEFAULT_OBSERVABLE,
) -> Comparison:
    """Return the per-group comparison; agree iff every group's selected lines are identical in order on both sides."""
    unknown = observable - ALL_KINDS
    if unknown:
        raise ValueError(f"unknown line kinds in observable: {sorted(unknown)}")
    g_groups = group_lines(select(golden, strict=strict, observable=observable))
    l_groups = group_lines(select(live, strict=strict, observable=observable))
    if not strict:
        g_groups = {name: collapse_repeats(lines) for name, lines in g_groups.items()}
        l_groups = {name: collapse_repeats(lines) for name, lines in l_groups.items()}
    names = list(g_groups) + [name for name in l_groups if name not in g_groups]
    groups: list[GroupDiff] = []
    for name in names:
        g = g_groups.get(name, [])
        lv = l_groups.get(name, [])
        equal = [ln.text() for ln in g] == [ln.text() for ln in lv]
        groups.append(GroupDiff(group=name, golden=g, live=lv, equal=equal))
    return Comparison(
        agree=all(g.equal for g in groups),
        groups=groups,
        strict=strict,
        observable=observable,
    )
