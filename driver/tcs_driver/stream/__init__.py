"""The canonical trace stream (PROTOCOLS.md section 6): parsing and classification.

A golden line is ``CLASS SP BODY``; a live line is a bare ``BODY`` whose class is computed by
:func:`classify`. The modules, each over the ones before it:

line         the Line, Window and Choice a parse returns, and StreamError
lex          a line's terms: bracket depths, top-level splits, pid tokens
parse        one line: its shape (callback, msg, ctl), group and class
windows      a golden stream's annotation lines: allowance windows, either-ors, together blocks
informative  the events the documents leave to the implementation, made informative
normalise    a live line's unpredictable values replaced by placeholders
fullsweep    requested major collections of a fullsweep's shape, made normative again
read         whole streams: golden text, live text, the classed lines of a report

What the rest of the driver uses is exported here.
"""

from .fullsweep import fullsweep_restorations
from .line import Choice, Line, Mark, StreamError, Window
from .parse import classify, parse_body
from .read import parse_classed_lines, parse_line, parse_live_stream, parse_stream
from .windows import filter_lines

__all__ = [
    "Choice",
    "Line",
    "Mark",
    "StreamError",
    "Window",
    "classify",
    "filter_lines",
    "fullsweep_restorations",
    "parse_body",
    "parse_classed_lines",
    "parse_line",
    "parse_live_stream",
    "parse_stream",
]
