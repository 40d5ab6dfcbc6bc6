"""Reading whole streams: a golden file, a live run's bodies, the classed lines of a report; each
line's class checked against (golden) or computed by (live) the classification of the whole stream."""

from __future__ import annotations

import functools
from dataclasses import replace

from .informative import classify_implementation_defined
from .line import Line, StreamError, Window, fail
from .normalise import normalise_live
from .parse import classify, parse_body, parse_with_class
from .windows import Choices, check_closed, parse_annotation


def parse_stream(text: str, where: str) -> list[Line]:
    """Return the Lines of a golden stream, skipping blanks and '%' comments; raise StreamError naming where:lineno,
    also when a line's class disagrees with classify or classify_implementation_defined."""
    return parse_classed_lines([(f"{where}:{n}", raw) for n, raw in _content_lines(text)])


def parse_live_stream(text: str, where: str) -> list[Line]:
    """Return the Lines of live bodies (one per line, no class), each normalised and classified, skipping blanks
    and '%' comments."""
    lines = []
    for n, raw in _content_lines(text):
        try:
            lines.append(_live_line(raw))
        except StreamError:  # the same again, for the error with its location
            lines.append(parse_body(normalise_live(raw), f"{where}:{n}"))
    return classify_implementation_defined(lines)


@functools.lru_cache(maxsize=1 << 16)
def _live_line(raw: str) -> Line:
    """parse_body(normalise_live(raw)), remembered: live streams repeat their lines (probes, scheduling
    events), within a run and from one case to the next, and parsing them was most of judging one."""
    return parse_body(normalise_live(raw))


def parse_line(text: str, where: str = "") -> Line:
    """Return the Line of a full 'CLASS BODY' line whose CLASS agrees with classify; raise StreamError otherwise."""
    [line] = parse_classed_lines([(where, text)])
    return line


def _classed_line(where: str, text: str) -> Line:
    """parse_with_class(where, text), remembered (see _live_line) but for the location of an error."""
    try:
        return _remembered_classed_line(text)
    except StreamError:
        return parse_with_class(where, text)


@functools.lru_cache(maxsize=1 << 16)
def _remembered_classed_line(text: str) -> Line:
    return parse_with_class("", text)


def parse_classed_lines(numbered: list[tuple[str, str]]) -> list[Line]:
    """Return the Lines of one stream's 'CLASS BODY' lines, each given with its location, whose
    classes agree with classify and, over the whole stream, classify_implementation_defined (as a
    golden file or a JSON report stores them); raise StreamError naming the first that does not."""
    windows: dict[str, Window] = {}
    choices = Choices()
    lines = [parse_annotation(where, text, windows, choices) if text.startswith("A ") else _classed_line(where, text)
             for where, text in numbered]
    check_closed(numbered, lines, windows, choices)
    expected = classify_implementation_defined([replace(line, cls=classify(line.body)) if line.cls != "A" else line
                                                for line in lines])
    for (where, _), line, wanted in zip(numbered, lines, expected):
        if line.cls != wanted.cls:
            why = "normative" if wanted.cls == "N" else (
                "informative (I)" if classify(line.body) == "I" else "informative (implementation-defined event)")
            raise fail(where, f"col 1: class {line.cls} but the line is {why}" + (" (N)" if wanted.cls == "N" else ""))
    return lines


def _content_lines(text: str) -> list[tuple[int, str]]:
    """Return (1-based line number, line) for every line that is neither blank nor a '%' comment."""
    return [
        (n, raw)
        for n, raw in enumerate(text.splitlines(), start=1)
        if raw.strip() != "" and not raw.startswith("%")
    ]
