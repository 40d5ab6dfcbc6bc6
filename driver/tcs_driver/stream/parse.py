"""Parsing one stream line (PROTOCOLS.md section 6): its shape (callback, msg, ctl), group and class.

A golden line is ``CLASS SP BODY``; a live line is a bare ``BODY`` whose class is computed by
:func:`classify`.
"""

from __future__ import annotations

import re
from typing import Final

from .. import tags
from .lex import depths, find_top, first_pid, split_top
from .line import Line, StreamError, fail

_CALLBACK_HEAD: Final = re.compile(r"([a-z_]+)\(")


def callback_parts(body: str) -> tuple[str, str, str] | None:
    """Return (callback, args text, tail after ')') when body is NAME(...)..., else None; raise on bad brackets."""
    m = _CALLBACK_HEAD.match(body)
    if m is None or m.group(1) not in tags.table().callbacks:
        return None
    depth = depths(body)
    open_at = m.end() - 1
    for j in range(open_at + 1, len(body)):
        if body[j] == ")" and depth[j] == 0:
            return m.group(1), body[open_at + 1 : j], body[j + 1 :]
    raise StreamError(f"col {open_at + 1}: '(' never closed")


def classify(body: str) -> str:
    """Return 'I' iff body is a callback line whose tag (first argument) is trace_status, else 'N'."""
    m = _CALLBACK_HEAD.match(body)
    if m is not None and m.group(1) in tags.table().callbacks:
        return "I" if body.startswith("trace_status, ", m.end()) else "N"
    return "N"


def _parse(body: str, where: str, cls: str, col0: int) -> Line:
    """Return the Line for body with class cls; raise StreamError prefixed by where for any malformed shape."""
    if body != body.strip():
        raise fail(where, "leading or trailing whitespace")
    if body == "":
        raise fail(where, "empty line body")
    try:
        depth = depths(body, col0)
    except StreamError as e:
        raise fail(where, str(e)) from None
    if any(c == "%" and d is not None for c, d in zip(body, depth)):
        raise fail(where, f"col {col0 + body.index('%') + 1}: '%' comment inside a stream line")
    try:
        if body.startswith("ctl "):
            return _parse_ctl(body, cls, depth, col0)
        if body.startswith("msg("):
            return _parse_msg(body, cls, col0)
        return _parse_callback(body, cls, col0)
    except StreamError as e:
        raise fail(where, str(e)) from None


# PROTOCOLS.md section 6: a harness call is M:F(Args) or receive(); a scenario process's
# step that raised is <P> Step(Args); a call whose answer is a scenario process's step
# (`A ms_test Args MS`) is <P> M:F(Args).
_HARNESS_CALL: Final = re.compile(r"[^\s(<]+:[^\s(]+\(.*\)|receive\(\)")
_STEP_CALL: Final = re.compile(r"<[a-z][a-zA-Z0-9_]*> [a-z][a-zA-Z0-9_]*\(.*\)")
_PROCESS_CALL: Final = re.compile(r"<[a-z][a-zA-Z0-9_]*> [^\s(<]+:[^\s(]+\(.*\)")


def _parse_ctl(body: str, cls: str, depth: list[int | None], col0: int) -> Line:
    """Return the Line for a 'ctl CALL -> TERM', 'ctl CALL raises CLASS:REASON' (CALL is M:F(Args),
    receive() or <P> M:F(Args)) or 'ctl <P> Step(Args) raises CLASS:REASON' body."""
    arrow = find_top(body, " -> ", depth)
    raises = find_top(body, " raises ", depth)
    cut = min(x for x in (arrow, raises, len(body)) if x != -1)
    call = body[4:cut]
    if cut == len(body):
        raise StreamError(f"col {col0 + 1}: ctl line without ' -> TERM' or ' raises CLASS:REASON'")
    known = _HARNESS_CALL.fullmatch(call) or _PROCESS_CALL.fullmatch(call)
    if known is None and (cut == arrow or _STEP_CALL.fullmatch(call) is None):
        shapes = "M:F(Args), receive() or <P> M:F(Args)" + ("" if cut == arrow else " or <P> Step(Args)")
        raise StreamError(f"col {col0 + 5}: ctl call {call!r} is not {shapes}")
    if cut == arrow:
        result = body[arrow + 4 :]
        if result == "" or result != result.strip():
            raise StreamError(f"col {col0 + arrow + 5}: ctl line without a result term")
    else:
        result = body[raises + 8 :]
        if re.fullmatch(r"(?:error|exit|throw):\S.*", result) is None:
            raise StreamError(f"col {col0 + raises + 9}: ctl exception {result!r} is not CLASS:REASON")
    return Line(cls=cls, body=body, kind="ctl", callback=None, tag=None, group="ctl")


def _parse_msg(body: str, cls: str, col0: int) -> Line:
    """Return the Line for a 'msg(STATE, TERM)' body.

    Its group is the first pid in TERM other than STATE (the tracee) and ' to STATE':
    messages from one tracee to one tracer keep their order, but the messages a tracer gets
    have no order with the callbacks of other tracers (trace sessions) or with the messages
    other tracers get. A system monitor message ``{monitor, Pid, Event, Info}`` comes from
    the runtime's system message dispatcher, not from the tracee: it is ordered only with the
    monitor messages about the same process to the same tracer (SYSMON-MESSAGE).
    """
    if not body.endswith(")"):
        raise StreamError(f"col {col0 + len(body)}: msg line does not end with ')'")
    inner = body[4:-1]
    args = split_top(inner, ", ", col0 + 4)
    if len(args) != 2:
        raise StreamError(f"col {col0 + 5}: msg line needs 2 arguments (STATE, TERM), got {len(args)}")
    state = args[0]
    pid = first_pid(args[1], state)
    group = f"{pid if pid is not None else 'msg'} to {state}"
    if args[1].startswith("{monitor,"):
        group = "monitor " + group
    return Line(cls=cls, body=body, kind="msg", callback=None, tag=None, group=group, state=state)


def _parse_callback(body: str, cls: str, col0: int) -> Line:
    """Return the Line for an enabled*/3 ('... -> ANSWER') or trace*/5 callback body."""
    parts = callback_parts(body)
    if parts is None:
        head = body.split("(", 1)[0].split(" ", 1)[0]
        raise StreamError(f"col {col0 + 1}: {head!r} is not a callback, 'msg(' or 'ctl '")
    name, args_text, tail = parts
    args = split_top(args_text, ", ", col0 + len(name) + 1)
    if name.startswith("enabled"):
        if len(args) != 3:
            raise StreamError(f"col {col0 + 1}: {name} needs 3 arguments, got {len(args)}")
        if not tail.startswith(" -> ") or tail[4:] == "" or tail[4:] != tail[4:].strip():
            raise StreamError(f"col {col0 + len(body) - len(tail) + 1}: {name} line without ' -> ANSWER'")
        kind = "enabled"
    else:
        if len(args) != 5:
            raise StreamError(f"col {col0 + 1}: {name} needs 5 arguments, got {len(args)}")
        if tail != "":
            raise StreamError(f"col {col0 + len(body) - len(tail) + 1}: text after the {name}/5 call: {tail!r}")
        kind = "trace"
    return Line(cls=cls, body=body, kind=kind, callback=name, tag=args[0], group=args[2], state=args[1])


def parse_body(body: str, where: str = "") -> Line:
    """Return the Line of a live body (no class); its class is classify(body); raise StreamError if malformed."""
    return _parse(body, where, classify(body), 0)


def parse_with_class(where: str, text: str) -> Line:
    """Return the Line of a 'CLASS BODY' line, its class as written; raise StreamError when malformed."""
    if len(text) < 2 or text[0] not in "NI" or text[1] != " ":
        raise fail(where, f"col 1: line does not start with 'N ' or 'I ': {text!r}")
    return _parse(text[2:], where, text[0], 2)
