"""Comparison of a golden stream with a live one (PROTOCOLS.md section 6, "Comparison")."""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Final

from .stream import Line, Window, filter_lines, fullsweep_restorations

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
    "admitted",
    "admissions",
]

#: Every line kind of the canonical stream.
ALL_KINDS: Final[frozenset[str]] = frozenset({"enabled", "trace", "msg", "ctl"})
#: What the recorder tracer reveals: every callback line and the control lines.
DEFAULT_OBSERVABLE: Final[frozenset[str]] = frozenset({"enabled", "trace", "ctl"})
#: What the documentation's example tracer (erl_msg_tracer) reveals.
MSG_TRACER_OBSERVABLE: Final[frozenset[str]] = frozenset({"msg", "ctl"})


@dataclass(frozen=True)
class GroupDiff:
    """The golden and live lines of one group, and whether they are equal: the same lines in the same
    order, but for the live lines the group's allowance windows admit (`admitted` of them)."""

    group: str
    golden: list[Line]
    live: list[Line]
    equal: bool
    windows: tuple[str, ...] = ()  # the heads (ID RULE 0..LIMIT; ID either RULE) of the windows and either-ors that reach the group
    admitted: int = 0


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
        n_admitted = sum(g.admitted for g in self.groups if g.equal)
        mode = "strict" if self.strict else "informative lines dropped"
        kinds = ",".join(sorted(self.observable))
        verdict = "AGREE" if self.agree else "DIFFER"
        windows = f"; {n_admitted} live lines admitted by allowance windows" if n_admitted else ""
        return (
            f"{verdict}: {len(self.differing())} of {len(self.groups)} groups differ; "
            f"{n_golden} golden / {n_live} live lines compared; "
            f"{missing} missing, {extra} unexpected ({mode}; kinds {kinds}{windows})"
        )

    def render(self) -> str:
        """Return a readable report: a unified-style diff per differing group, then the summary line."""
        out: list[str] = []
        differing = self.differing()
        if differing:
            out += ["--- golden", "+++ live"]
            for g in differing:
                out.append(f"@@ group {g.group} @@" + (f" allowance windows: {', '.join(g.windows)}" if g.windows else ""))
                out += diff_lines(g.golden, g.live)
        out.append(self.summary())
        return "\n".join(out) + "\n"


#: Tags whose enabled call comes a number of times per tracepoint that the documents leave open
#: (SEQ-ENABLED-REPEAT): in the default comparison a run of identical such lines counts once.
REPEATABLE_ENABLED_TAGS: Final[frozenset[str]] = frozenset({"seq_trace"})


def select(lines: Iterable[Line], *, strict: bool, observable: frozenset[str]) -> list[Line]:
    """Return the lines that take part in a comparison: observable kinds, and only normative ones unless
    strict; the same of the templates of allowance windows (a window left with none is left out)."""
    return filter_lines(list(lines), lambda ln: (strict or ln.cls == "N") and ln.kind in observable)


def _group_golden(lines: Iterable[Line]) -> dict[str, list[Line]]:
    """Return the golden lines grouped like group_lines, with each allowance window's open and close
    lines in every group its template has lines of, where they stand in the stream, and each either-or's
    lines in every group whose lines its two alternatives hold differently (a group that holds the same
    lines in both gets them once, as the case's lines)."""
    groups: dict[str, list[Line]] = {}
    lines = list(lines)
    reach: dict[int, list[str]] = {}  # an either-or's line -> the groups whose lines it decides
    reach |= _together_reach(lines)
    alike_second: set[int] = set()  # the second alternatives' lines of groups that hold both alike
    for start, middle, end in _either_spans(lines):
        first, second = group_lines(lines[start + 1:middle]), group_lines(lines[middle + 1:end])
        differing = [name for name in dict.fromkeys([*first, *second])
                     if [ln.text() for ln in first.get(name, [])] != [ln.text() for ln in second.get(name, [])]]
        alike_second |= {i for i in range(middle + 1, end) if lines[i].group not in differing}
        reach |= {start: differing, middle: differing, end: differing}
    for i, ln in enumerate(lines):
        if ln.choice is not None or ln.mark is not None:
            for name in reach[i]:
                groups.setdefault(name, []).append(ln)
        elif i in alike_second:
            continue
        elif ln.window is None:
            groups.setdefault(ln.group, []).append(ln)
        else:
            for name in dict.fromkeys(t.group for seg in ln.window.segments for t in seg):
                groups.setdefault(name, []).append(ln)
    return groups


def _together_reach(lines: list[Line]) -> dict[int, list[str]]:
    """Return, for each line of a together block, the groups it goes to: its together, chain and apart
    lines to every group that has lines in the block, its sync and join lines to those of them whose
    tracee is their process (`<b>`, `<b> to <sp>`)."""
    reach: dict[int, list[str]] = {}
    start: int | None = None
    for i, ln in enumerate(lines):
        if ln.mark is None:
            continue
        if ln.kind == "together":
            start = i
        elif ln.kind == "apart" and start is not None:
            span = range(start, i + 1)
            groups = list(dict.fromkeys(lines[j].group for j in span if lines[j].mark is None))
            for j in span:
                mark = lines[j].mark
                if mark is None:
                    continue
                proc = mark.proc if mark.word in ("sync", "join") else None
                reach[j] = [g for g in groups if proc is None or g == proc or g.startswith(f"{proc} to ")]
            start = None
    return reach


@dataclass(frozen=True)
class _Block:
    """A together block within one group: each chain's items (a line's text, or a sync or join key), where
    each sync stands (chain, position), and the index of its apart line."""

    chains: tuple[tuple[tuple[str, str | int], ...], ...]
    sync_at: dict[int, tuple[int, int]]
    apart: int


def _blocks(golden: list[Line]) -> dict[int, _Block]:
    """Return the together blocks of a group's golden lines by the index of their together line."""
    blocks: dict[int, _Block] = {}
    start = 0
    chains: dict[str, list[tuple[str, str | int]]] = {}
    current: list[tuple[str, str | int]] = []
    for i, ln in enumerate(golden):
        mark = ln.mark
        if mark is not None and mark.word == "together":
            start, chains, current = i, {}, []
        elif mark is not None and mark.word == "chain":
            current = chains.setdefault(mark.proc or "", [])
        elif mark is not None and mark.word in ("sync", "join"):
            current.append((mark.word, mark.key or 0))
        elif mark is not None and mark.word == "apart":
            order = list(chains.values())
            sync_at = {key: (c, pos) for c, items in enumerate(order) for pos, (kind, key) in enumerate(items)
                       if kind == "sync" and isinstance(key, int)}
            blocks[start] = _Block(tuple(tuple(items) for items in order), sync_at, i)
        elif mark is None and ln.window is None and ln.choice is None:
            current.append(("line", ln.text()))
    return blocks


def _one_choice_for_all(ways: dict[str, dict[Choices, int]]) -> bool:
    """Return whether one alternative of each tied either-or admits every group (ways: for each group
    that decides some, the alternatives its lines are admitted with)."""
    agreed: list[dict[str, int]] = [{}]
    for options in ways.values():
        agreed = [{**sofar, **dict(took)} for sofar in agreed for took in options
                  if all(sofar.get(wid, alt) == alt for wid, alt in took)]
    return bool(agreed)


def _first_alternatives(golden: list[Line]) -> list[Line]:
    """Return a group's golden lines as a diff shows them: without window lines, and of each
    either-or the first alternative only (its head names it beside the group)."""
    second = {i for _, middle, end in _either_spans(golden) for i in range(middle, end + 1)}
    return [ln for i, ln in enumerate(golden)
            if ln.window is None and ln.choice is None and ln.mark is None and i not in second]


def _either_spans(lines: list[Line]) -> list[tuple[int, int, int]]:
    """Return the indexes of each either-or's either, or and end lines."""
    spans: list[tuple[int, int, int]] = []
    marks: list[int] = []
    for i, ln in enumerate(lines):
        if ln.choice is not None:
            marks.append(i)
            if ln.kind == "end":
                spans.append((marks[-3], marks[-2], i))
    return spans


@dataclass(frozen=True)
class _Template:
    """A window's template within one group: its lines' texts, and per line whether it must come
    right after the one before (same segment)."""

    texts: tuple[str, ...]
    joined: tuple[bool, ...]
    limit: int | None
    after: str | None


def _template(window: Window, group: str) -> _Template:
    """Return the part of window's template that is in group."""
    texts: list[str] = []
    joined: list[bool] = []
    for seg in window.segments:
        mine = [t.text() for t in seg if t.group == group]
        texts += mine
        joined += [False] + [True] * (len(mine) - 1) if mine else []
    return _Template(tuple(texts), tuple(joined), window.limit, window.after)


def admitted(golden: list[Line], live: list[Line], group: str) -> int | None:
    """Return how many live lines of one group the allowance windows admit when the live lines are the
    golden ones (window lines aside) in order, with each either-or's lines of one of its two
    alternatives, plus instances of open windows' templates, each within its window, whole (no
    instance left half done when its window closes or the stream ends), at most its limit many, a
    template segment's lines right after one another, and no instance of a window that one is `after`
    once an instance of that one has begun; None when they are not."""
    return next(iter(admissions(golden, live, group).values()), None)


#: The alternatives taken of the either-ors that must agree with other groups: (id, 0 | 1) pairs.
Choices = tuple[tuple[str, int], ...]
#: Per open window: its id, the instances so far, the position in its template.
_Progress = tuple[tuple[str, int, int], ...]
#: A state of admissions' search: index in golden, index in live, golden case lines matched, the open
#: windows' progress, the alternatives taken of tied either-ors, and inside a together block (golden's
#: index at its together line) each chain's position, else ().
_State = tuple[int, int, int, _Progress, Choices, tuple[int, ...]]


def admissions(golden: list[Line], live: list[Line], group: str,
               tied: frozenset[str] = frozenset()) -> dict[Choices, int]:
    """Return, as admitted() decides, for each way the group's live lines are admitted that takes
    different alternatives of the either-ors in tied, those alternatives and the number of live lines
    windows admit; empty when none is. Without tied either-ors in the group: at most one way."""
    templates = {ln.window.id: _template(ln.window, group) for ln in golden if ln.window is not None}
    tied = tied & {ln.choice.id for ln in golden if ln.choice is not None}  # without any: the first way will do
    # an either's line -> where its second alternative begins; an or's line -> where the either-or ends
    skip_to = {start: middle + 1 for start, middle, _ in _either_spans(golden)}
    skip_to |= {middle: end + 1 for _, middle, end in _either_spans(golden)}
    blocks = _blocks(golden)
    live_texts = [ln.text() for ln in live]
    ways: dict[Choices, int] = {}
    seen: set[_State] = set()
    stack: list[_State] = [(0, 0, 0, (), (), ())]
    while stack:
        state = stack.pop()
        if state in seen:
            continue
        seen.add(state)
        gi, li, used, prog, took, tog = state
        if gi == len(golden) and li == len(live) and not any(pos for _, _, pos in prog):
            ways.setdefault(took, len(live) - used)
            if not tied:
                break
            continue
        busy = [k for k, (w, _, pos) in enumerate(prog) if pos and templates[w].joined[pos]]
        line = golden[gi] if gi < len(golden) and not tog else None
        if line is not None and line.mark is not None and not busy:
            # a together block begins: each chain from its first item (a block without chains, at once past it)
            block = blocks[gi]
            stack.append((gi, li, used, prog, took, (0,) * len(block.chains)) if block.chains
                         else (block.apart + 1, li, used, prog, took, ()))
        if tog and not busy:
            stack += _chain_moves(blocks[gi], gi, li, used, prog, took, tog, live_texts)
        if line is not None and line.choice is not None and not busy:
            # either: the first alternative, or on to the second; or: the first is done, skip the
            # second; end: the alternative taken is done. Like a window line, none takes a live line.
            if line.kind != "either":
                stack.append((gi + 1 if line.kind == "end" else skip_to[gi], li, used, prog, took, tog))
            else:
                tie = line.choice.id in tied
                stack.append((gi + 1, li, used, prog, took + ((line.choice.id, 0),) if tie else took, tog))
                stack.append((skip_to[gi], li, used, prog, took + ((line.choice.id, 1),) if tie else took, tog))
        if line is not None and line.window is not None and not busy:
            # a window line takes no live line: the window opens (closes) between the live lines
            # around it, so extras right before the next case line of the group are still inside it
            if line.kind == "open":
                stack.append((gi + 1, li, used, prog + ((line.window.id, 0, 0),), took, tog))
            elif not any(w == line.window.id and pos for w, _, pos in prog):  # no instance half done
                stack.append((gi + 1, li, used, tuple(p for p in prog if p[0] != line.window.id), took, tog))
        if li == len(live):
            continue
        if line is not None and line.window is None and line.choice is None and line.mark is None and not busy \
                and live_texts[li] == line.text():
            stack.append((gi + 1, li + 1, used + 1, prog, took, tog))
        for k, (w, count, pos) in enumerate(prog):
            t = templates[w]
            if (busy and k not in busy) or live_texts[li] != t.texts[pos] or \
                    (pos == 0 and t.limit is not None and count >= t.limit):
                continue
            done = pos + 1 == len(t.texts)
            step = (w, count + 1, 0) if done else (w, count, pos + 1)
            nxt = prog[:k] + (step,) + prog[k + 1:]
            if pos == 0 and t.after is not None:
                # an instance begins: the window it is after may have none half done, and takes no more
                if any(a == t.after and apos for a, _, apos in prog):
                    continue
                nxt = tuple(p for p in nxt if p[0] != t.after)
            stack.append((gi, li + 1, used, nxt, took, tog))
    return ways


def _chain_moves(block: _Block, gi: int, li: int, used: int, prog: _Progress, took: Choices, tog: tuple[int, ...],
                 live_texts: list[str]) -> list[_State]:
    """Return the states that follow one inside a together block: a chain past a sync, past a join whose
    sync its sender's chain has passed, or past a line equal to the next live line; past the block
    once every chain is done."""
    if all(pos == len(items) for pos, items in zip(tog, block.chains)):
        return [(block.apart + 1, li, used, prog, took, ())]
    moves: list[_State] = []
    for c, (pos, items) in enumerate(zip(tog, block.chains)):
        if pos == len(items):
            continue
        kind, value = items[pos]
        nxt = tog[:c] + (pos + 1,) + tog[c + 1:]
        if kind == "sync":
            moves.append((gi, li, used, prog, took, nxt))
        elif kind == "join":
            sender, at = block.sync_at[int(value)]
            if tog[sender] > at:
                moves.append((gi, li, used, prog, took, nxt))
        elif li < len(live_texts) and live_texts[li] == value:
            moves.append((gi, li + 1, used + 1, prog, took, nxt))
    return moves


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


#: Past this many line pairs difflib is not asked: it takes at least their product in time, and a node
#: that crashed in a case whose other release printed 50,000 lines kept `./tcs diff` busy for half an hour.
DIFFLIB_PAIRS: Final[int] = 4_000_000


def _opcodes(golden: Sequence[Line], live: Sequence[Line]) -> list[tuple[str, int, int, int, int]]:
    """Return difflib opcodes turning the golden texts into the live texts; for streams too long for difflib,
    the common first and last lines kept and all between replaced (a true diff, not the shortest)."""
    a, b = [ln.text() for ln in golden], [ln.text() for ln in live]
    if len(a) * len(b) <= DIFFLIB_PAIRS:
        return difflib.SequenceMatcher(a=a, b=b, autojunk=False).get_opcodes()
    head = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
    tail = next((i for i, (x, y) in enumerate(zip(reversed(a[head:]), reversed(b[head:]))) if x != y),
                min(len(a), len(b)) - head)
    ops: list[tuple[str, int, int, int, int]] = [("equal", 0, head, 0, head)] if head else []
    a_end, b_end = len(a) - tail, len(b) - tail
    if head < a_end or head < b_end:
        ops.append(("replace" if head < a_end and head < b_end else "delete" if head < a_end else "insert",
                    head, a_end, head, b_end))
    if tail:
        ops.append(("equal", a_end, len(a), b_end, len(b)))
    return ops


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
    """Return the per-group comparison; agree iff every group's selected lines are identical in order on both sides.
    Without strict, the live stream is compared with each choice of which fullsweep-shaped major pairs
    are the requested ones (fullsweep_restorations): the first choice that agrees, else the first."""
    unknown = observable - ALL_KINDS
    if unknown:
        raise ValueError(f"unknown line kinds in observable: {sorted(unknown)}")
    g_groups = _group_golden(select(golden, strict=strict, observable=observable))
    if strict:
        return _compare_groups(g_groups, live, strict=strict, observable=observable)
    g_groups = {name: collapse_repeats(lines) for name, lines in g_groups.items()}
    first: Comparison | None = None
    for restored in fullsweep_restorations(golden, live):
        result = _compare_groups(g_groups, restored, strict=strict, observable=observable)
        if result.agree:
            return result
        first = result if first is None else first
    assert first is not None  # fullsweep_restorations yields at least one stream
    return first


def _head(line: Line) -> str:
    """Return the head a differing group's report names of a window, either-or or together block."""
    if line.window is not None:
        return line.window.spec()
    if line.choice is not None:
        return line.choice.spec()
    assert line.mark is not None
    return line.mark.spec()


def _compare_groups(g_groups: dict[str, list[Line]], live: list[Line], *, strict: bool,
                    observable: frozenset[str]) -> Comparison:
    """Return compare's per-group comparison of the grouped golden lines (selected, and with repeats
    collapsed unless strict) with the live stream."""
    l_groups = group_lines(select(live, strict=strict, observable=observable))
    if not strict:
        l_groups = {name: collapse_repeats(lines) for name, lines in l_groups.items()}
    names = list(g_groups) + [name for name in l_groups if name not in g_groups]
    reached: dict[str, set[str]] = {}  # an either-or's id -> the groups it decides
    for name, lines in g_groups.items():
        for ln in lines:
            if ln.choice is not None:
                reached.setdefault(ln.choice.id, set()).add(name)
    tied = frozenset(wid for wid, reach in reached.items() if len(reach) > 1)
    groups: list[GroupDiff] = []
    ways: dict[str, dict[Choices, int]] = {}  # a group with tied either-ors -> how it is admitted
    for name in names:
        g = g_groups.get(name, [])
        lv = l_groups.get(name, [])
        heads = tuple(dict.fromkeys(_head(ln) for ln in g if ln.window is not None or ln.choice is not None
                                    or (ln.mark is not None and ln.kind == "together")))
        shown = _first_alternatives(g)
        if heads:
            ways[name] = admissions(g, lv, name, tied)
            n = next(iter(ways[name].values()), None)
            groups.append(GroupDiff(name, shown, lv, n is not None, heads, n or 0))
        else:
            groups.append(GroupDiff(name, shown, lv, [ln.text() for ln in g] == [ln.text() for ln in lv]))
    deciding_ways = {name: w for name, w in ways.items() if any(took for took in w)}  # admitted, and by tied ones
    if tied and not _one_choice_for_all(deciding_ways):
        # each group holds one alternative, but not the same one: every group that decides a tied
        # either-or differs
        deciding = {name for reach in (reached[wid] for wid in tied) for name in reach}
        groups = [replace(gd, equal=False, admitted=0) if gd.group in deciding else gd for gd in groups]
    return Comparison(
        agree=all(g.equal for g in groups),
        groups=groups,
        strict=strict,
        observable=observable,
    )
