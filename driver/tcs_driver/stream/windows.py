"""The annotation lines of a golden stream (PROTOCOLS.md section 6): allowance windows (`A open`,
`A close`), either-ors (`A either`, `A or`, `A end`) and together blocks (`A together`, `A chain`,
`A sync`, `A join`, `A apart`), and filtering a stream that holds them."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Final

from .lex import depths
from .line import Choice, Line, Mark, StreamError, Window, fail
from .parse import classify, parse_with_class

_WINDOW_OPEN: Final = re.compile(r"open (w[0-9]+) ([A-Z][A-Z0-9-]*) 0\.\.(\*|[1-9][0-9]*)(?: after (w[0-9]+))?: (.+)")
_WINDOW_CLOSE: Final = re.compile(r"close (w[0-9]+)")


@dataclass
class Choices:
    """Where a stream's parse is in its either-or lines: the either open (None: none), whether its
    `or` has come, and every id an either has used."""

    open: Choice | None = None
    second: bool = False
    used: set[str] = field(default_factory=set)
    together: str | None = None  # the together block open, None: none (its ids are in used too)


_CHOICE_LINE: Final = re.compile(r"A (?:either|or|end) ")
_MARK_LINE: Final = re.compile(r"A (?:together|chain|sync|join|apart) ")
_MARK: Final = re.compile(r"(together) (w[0-9]+) ([A-Z][A-Z0-9-]*)|(chain) (w[0-9]+) (<[^<>]+>)"
                          r"|(sync|join) (w[0-9]+) ([1-9][0-9]*) (<[^<>]+>)|(apart) (w[0-9]+)")
_CHOICE: Final = re.compile(r"(either) (w[0-9]+) ([A-Z][A-Z0-9-]*)|(or|end) (w[0-9]+)")


def parse_annotation(where: str, text: str, open_windows: dict[str, Window], choices: Choices) -> Line:
    """Return the Line of an 'A ...' line: an either-or's or an allowance window's; raise StreamError when
    malformed or out of turn. open_windows (the ids of the windows open before this line) and choices
    are updated."""
    if _MARK_LINE.match(text):
        return _parse_mark(where, text, open_windows, choices)
    if choices.together is not None:
        raise fail(where, f"col 3: an allowance window or either-or line inside together {choices.together}")
    if _CHOICE_LINE.match(text):
        return _parse_choice(where, text, open_windows, choices)
    return _parse_allowance(where, text, open_windows, choices)


def _parse_mark(where: str, text: str, open_windows: dict[str, Window], choices: Choices) -> Line:
    """Return the Line of a together block's line; raise StreamError when malformed, for a block inside
    another, in an either-or, or of an id used before, and for a chain, sync, join or apart line of
    no block open. choices is updated."""
    body = text[2:]
    m = _MARK.fullmatch(body)
    if m is None:
        raise fail(where, f"col 3: not 'together wN RULE', 'chain wN <P>', 'sync wN K <P>', 'join wN K <P>' "
                          f"nor 'apart wN': {body!r}")
    word = next(g for g in (m.group(1), m.group(4), m.group(7), m.group(11)) if g)
    wid = next(g for g in (m.group(2), m.group(5), m.group(8), m.group(12)) if g)
    if word == "together":
        inside = choices.together or (choices.open.id if choices.open is not None else None)
        if inside is not None:
            raise fail(where, f"col 3: together {wid} inside {inside}")
        if wid in choices.used or wid in open_windows:
            raise fail(where, f"col 12: id {wid} used before")
        choices.used.add(wid)
        choices.together = wid
        mark = Mark(wid, word, rule=m.group(3))
    else:
        if choices.together != wid:
            raise fail(where, f"col 3: '{word} {wid}' out of a together block of that id")
        if word == "apart":
            choices.together = None
        proc = m.group(6) or m.group(10)
        mark = Mark(wid, word, proc=proc, key=int(m.group(9)) if m.group(9) else None)
    return Line(cls="A", body=body, kind=word, callback=None, tag=None, group="", mark=mark)


def check_closed(numbered: list[tuple[str, str]], lines: list[Line], open_windows: dict[str, Window],
                 choices: Choices) -> None:
    """Raise StreamError naming the open line of a window still open at the end of a stream's lines
    (given with their locations), or the either line of an either-or never ended."""
    if open_windows:
        where, text = next((w, t) for (w, t), line in zip(numbered, lines)
                           if line.kind == "open" and line.window is not None and line.window.id in open_windows)
        raise fail(where, f"col 1: allowance window {text.split()[2]} is never closed")
    if choices.open is not None:
        where = next(w for (w, _), line in zip(numbered, lines) if line.kind == "either" and line.choice == choices.open)
        raise fail(where, f"col 1: either {choices.open.id} is never ended")
    if choices.together is not None:
        where = next(w for (w, _), line in zip(numbered, lines) if line.kind == "together"
                     and line.mark is not None and line.mark.id == choices.together)
        raise fail(where, f"col 1: together {choices.together} is never apart")


def _parse_choice(where: str, text: str, open_windows: dict[str, Window], choices: Choices) -> Line:
    """Return the Line of an 'A either ID RULE', 'A or ID' or 'A end ID' line; raise StreamError when
    malformed, for an either inside another or an id used before, an `or` or `end` out of turn, or an
    either that an allowance window opened inside it outlives. choices is updated."""
    body = text[2:]
    m = _CHOICE.fullmatch(body)
    if m is None:
        raise fail(where, f"col 3: not 'either wN RULE', 'or wN' nor 'end wN': {body!r}")
    if m.group(1):
        wid, rule = m.group(2), m.group(3)
        if choices.open is not None:
            raise fail(where, f"col 3: either {wid} inside either {choices.open.id}")
        if wid in choices.used or wid in open_windows:
            raise fail(where, f"col 10: id {wid} used before")
        choices.open, choices.second = Choice(wid, rule), False
        choices.used.add(wid)
        return Line(cls="A", body=body, kind="either", callback=None, tag=None, group="", choice=choices.open)
    kind, wid = m.group(4), m.group(5)
    current = choices.open
    if current is None or current.id != wid or choices.second is (kind == "or"):
        raise fail(where, f"col 3: '{kind} {wid}' out of turn (an either's lines are 'either', 'or', 'end')")
    if kind == "or":
        choices.second = True
    else:
        choices.open = None
    return Line(cls="A", body=body, kind=kind, callback=None, tag=None, group="", choice=current)


def _parse_allowance(where: str, text: str, open_windows: dict[str, Window], choices: Choices) -> Line:
    """Return the Line of an 'A open ID RULE 0..LIMIT [after ID]: TEMPLATE' or 'A close ID' line; raise
    StreamError when malformed, for a window opened twice, closed before it opened, or after a window
    that is not open, or inside an either-or (its alternatives hold a case's lines only). open_windows
    maps the ids of the windows open before this line, and is updated."""
    body = text[2:]
    if choices.open is not None:
        raise fail(where, f"col 3: an allowance window line inside either {choices.open.id}")
    if (m := _WINDOW_CLOSE.fullmatch(body)) is not None:
        window = open_windows.pop(m.group(1), None)
        if window is None:
            raise fail(where, f"col 9: allowance window {m.group(1)} closed but not open")
        return Line(cls="A", body=body, kind="close", callback=None, tag=None, group="", window=window)
    m = _WINDOW_OPEN.fullmatch(body)
    if m is None:
        raise fail(where, f"col 3: not 'open wN RULE 0..LIMIT [after wM]: TEMPLATE' nor 'close wN': {body!r}")
    wid, rule, limit, after, template = m.groups()
    if wid in open_windows or wid in choices.used:
        raise fail(where, f"col 8: allowance window {wid} opened twice")
    if after is not None and after not in open_windows:
        raise fail(where, f"col {3 + m.start(4)}: allowance window {wid} is after {after}, which is not open")
    col0 = 2 + m.start(5)
    segments: list[tuple[Line, ...]] = []
    for seg_at, segment in _pieces(template, " ... ", col0):
        lines = [parse_with_class(where, piece) for _, piece in _pieces(segment, " ; ", seg_at)]
        if any(line.kind not in ("enabled", "trace", "msg") for line in lines):
            raise fail(where, f"col {seg_at + 1}: a template line is not a callback or msg line")
        for line in lines:
            if line.cls != classify(line.body):
                raise fail(where, f"col {seg_at + 1}: template line {line.body!r} has class {line.cls}")
        segments.append(tuple(lines))
    window = Window(wid, rule, None if limit == "*" else int(limit), tuple(segments), after)
    open_windows[wid] = window
    return Line(cls="A", body=body, kind="open", callback=None, tag=None, group="", window=window)


def _pieces(text: str, sep: str, col0: int) -> list[tuple[int, str]]:
    """Return (column offset, piece) of text split at the top-level occurrences of sep; raise on an empty piece."""
    depth = depths(text, col0)
    out: list[tuple[int, str]] = []
    start = 0
    i = text.find(sep)
    while i != -1:
        if depth[i] == 0:
            out.append((col0 + start, text[start:i]))
            start = i + len(sep)
        i = text.find(sep, i + 1)
    out.append((col0 + start, text[start:]))
    for at, piece in out:
        if piece.strip() == "":
            raise StreamError(f"col {at + 1}: empty template piece")
    return out


def filter_lines(lines: list[Line], keep: Callable[[Line], bool]) -> list[Line]:
    """Return the lines keep accepts; an allowance window's open and close lines stay with their template
    cut to the lines keep accepts, and are left out when none is left; an either-or's and a together
    block's lines stay."""
    out: list[Line] = []
    for line in lines:
        if line.choice is not None or line.mark is not None:
            out.append(line)
            continue
        if line.window is None:
            if keep(line):
                out.append(line)
            continue
        segments = tuple(kept for kept in (tuple(t for t in seg if keep(t)) for seg in line.window.segments) if kept)
        if segments:
            out.append(replace(line, window=replace(line.window, segments=segments)))
    return out
