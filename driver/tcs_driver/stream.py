"""The canonical trace stream (PROTOCOLS.md section 6): parsing and classification.

A golden line is ``CLASS SP BODY``; a live line is a bare ``BODY`` whose class
is computed by :func:`classify`. Terms are compact (``~w``-like), so the only
``", "`` separators at the top level of an argument list are the ones between
arguments.
"""

from __future__ import annotations

import functools
import itertools
import re
from dataclasses import dataclass, field, replace
from collections.abc import Callable, Iterator
from typing import Final

from . import counters, tags

__all__ = [
    "Choice",
    "Line",
    "StreamError",
    "Window",
    "filter_lines",
    "classify",
    "classify_implementation_defined",
    "fullsweep_restorations",
    "normalise_live",
    "parse_body",
    "parse_classed_lines",
    "parse_line",
    "parse_live_stream",
    "parse_stream",
    "split_args",
]

# <name>, <port:name>, <?>, and another node's <ext:pid> and <ext:port> (PROTOCOLS.md section 6)
_PID: Final = re.compile(r"<(?:port:)?(?:[a-z][a-zA-Z0-9_]*|\?)>|<ext:(?:pid|port)>")
_CALLBACK_HEAD: Final = re.compile(r"([a-z_]+)\(")
_POSITIVE_INT: Final = re.compile(r"[1-9][0-9]*")
_CLOSERS: Final = {"{": "}", "[": "]", "(": ")"}
_SCHEDULER_ID_PLACEHOLDER: Final = "_SchedulerId"
_GC_INFO_PLACEHOLDER: Final = "_GcInfo"
_INT: Final = re.compile(r"-?(?:0|[1-9][0-9]*)")
_NON_NEG_INT: Final = re.compile(r"0|[1-9][0-9]*")
#: The keys of a garbage collection Info list (003, trace message gc_minor_start).
_GC_INFO_KEYS: Final = frozenset({
    "heap_size", "heap_block_size", "old_heap_size", "old_heap_block_size", "stack_size",
    "recent_size", "mbuf_size", "bin_vheap_size", "bin_vheap_block_size", "bin_old_vheap_size",
    "bin_old_vheap_block_size", "wordsize",
})
_GC_INFO_ITEM: Final = re.compile(r"\{([a-z_]+),(?:0|[1-9][0-9]*)\}")
#: The functions the harness's processes wait in (driver/runner/tcs_gate.c), and the puppet's loop
#: between two steps (driver/runner/tcs_puppet.erl), which runs no step itself (RUN-HARNESS).
_HARNESS_FUNCTIONS: Final = frozenset({"{tcs_gate,await_turn,1}", "{erts_internal,dirty_nif_finalizer,1}",
                                       "{tcs_puppet,loop,1}"})


class StreamError(ValueError):
    """A stream line that does not have one of the canonical shapes."""


@dataclass(frozen=True)
class Window:
    """An allowance window of a golden stream (PROTOCOLS.md section 6, "Allowance windows"):
    between its `A open` and `A close` lines, the runtime may add up to `limit` (None: any
    number) instances of its template, a behaviour the model cannot predict (its rule names it).
    The template is a list of segments: the lines of one segment come one right after the other
    in their group; lines of the case may come between two segments."""

    id: str
    rule: str
    limit: int | None
    segments: tuple[tuple["Line", ...], ...]
    after: str | None = None  # the id of the window whose every instance comes before every one of this

    def spec(self) -> str:
        """Return the window's head as its open line spells it: ID RULE 0..LIMIT [after ID]."""
        after = f" after {self.after}" if self.after else ""
        return f"{self.id} {self.rule} 0..{'*' if self.limit is None else self.limit}{after}"


@dataclass(frozen=True)
class Choice:
    """An either-or of a golden stream (PROTOCOLS.md section 6, "Either-or"): between its `A either`
    and `A or` lines the first alternative, between `A or` and `A end` the second; in each group the
    live lines hold exactly one of the two, a behaviour the runtime decides by a race (its rule names
    it)."""

    id: str
    rule: str

    def spec(self) -> str:
        """Return the either's head as its lines name it: ID either RULE."""
        return f"{self.id} either {self.rule}"


@dataclass(frozen=True)
class Line:
    """One parsed stream line."""

    cls: str  # 'N' | 'I' | 'A' (an allowance window's or an either-or's line)
    body: str
    kind: str  # 'enabled' | 'trace' | 'msg' | 'ctl' | 'open' | 'close' | 'either' | 'or' | 'end'
    callback: str | None
    tag: str | None
    group: str
    state: str | None = field(default=None, compare=False)  # the tracer state (2nd argument; msg: 1st)
    window: Window | None = field(default=None, compare=False)  # kind 'open' and 'close': its window
    choice: Choice | None = field(default=None, compare=False)  # kind 'either', 'or' and 'end': its either-or

    def text(self) -> str:
        """Return the line exactly as a golden file spells it: ``CLASS BODY``."""
        return f"{self.cls} {self.body}"


def _fail(where: str, why: str) -> StreamError:
    """Return a StreamError whose message starts with the location when one is known."""
    return StreamError(f"{where}: {why}" if where else why)


def _quoted_end(s: str, i: int, col0: int = 0) -> int:
    """Return the index just past the quoted atom or string opening at s[i]; raise if unterminated."""
    quote = s[i]
    j = i + 1
    while j < len(s):
        if s[j] == "\\":
            j += 2
            continue
        if s[j] == quote:
            return j + 1
        j += 1
    what = "quoted atom" if quote == "'" else "string"
    raise StreamError(f"col {col0 + i + 1}: unterminated {what}")


def _depths(s: str, col0: int = 0) -> list[int | None]:
    """Return per character its bracket depth, or None inside a token (quote, pid, '=>'); raise on imbalance."""
    return _scan(s, col0)[0]


def _scan(s: str, col0: int = 0) -> tuple[list[int | None], list[str]]:
    """Return per-character depths (None inside tokens) and the pid tokens in order; raise on imbalance."""
    out: list[int | None] = [None] * len(s)
    pids: list[str] = []
    stack: list[tuple[str, int]] = []
    i = 0
    while i < len(s):
        c = s[i]
        if c in "'\"":
            i = _quoted_end(s, i, col0)
            continue
        if s.startswith("<<", i):
            out[i] = out[i + 1] = len(stack)
            stack.append((">>", i))
            i += 2
            continue
        if s.startswith(">>", i) and stack and stack[-1][0] == ">>":
            stack.pop()
            out[i] = out[i + 1] = len(stack)
            i += 2
            continue
        if c == "<":
            m = _PID.match(s, i)
            if m is None:
                raise StreamError(f"col {col0 + i + 1}: '<' is neither a pid <name> nor '<<'")
            pids.append(m.group(0))
            i = m.end()
            continue
        if s.startswith("=>", i):
            i += 2
            continue
        if c in _CLOSERS:
            out[i] = len(stack)
            stack.append((_CLOSERS[c], i))
        elif c in "}])":
            if not stack or stack[-1][0] != c:
                want = f"'{stack[-1][0]}'" if stack else "nothing"
                raise StreamError(f"col {col0 + i + 1}: unbalanced '{c}' (expected {want})")
            stack.pop()
            out[i] = len(stack)
        else:
            out[i] = len(stack)
        i += 1
    if stack:
        closer, at = stack[-1]
        raise StreamError(f"col {col0 + at + 1}: bracket never closed (missing '{closer}')")
    return out, pids


def _split(s: str, sep: str, col0: int = 0) -> list[str]:
    """Return s split at the top-level occurrences of sep (which starts with ','); raise on a bare top-level ','."""
    if s == "":
        return []
    depth = _depths(s, col0)
    pieces: list[str] = []
    start = 0
    i = 0
    while i < len(s):
        if depth[i] == 0 and s[i] == ",":
            if not s.startswith(sep, i):
                raise StreamError(f"col {col0 + i + 1}: top-level ',' not followed by a space")
            pieces.append(s[start:i])
            i += len(sep)
            start = i
            continue
        i += 1
    pieces.append(s[start:])
    for piece in pieces:
        if piece == "" or piece != piece.strip():
            raise StreamError(f"col {col0 + 1}: empty or blank-padded argument in {s!r}")
    return pieces


def split_args(s: str) -> list[str]:
    """Return the top-level ', '-separated arguments of s, respecting brackets, binaries, quotes and pids."""
    return _split(s, ", ")


def _find_top(s: str, needle: str, depth: list[int | None]) -> int:
    """Return the index of the first top-level occurrence of needle in s, or -1."""
    i = s.find(needle)
    while i != -1:
        if depth[i] == 0:
            return i
        i = s.find(needle, i + 1)
    return -1


def _callback_parts(body: str) -> tuple[str, str, str] | None:
    """Return (callback, args text, tail after ')') when body is NAME(...)..., else None; raise on bad brackets."""
    m = _CALLBACK_HEAD.match(body)
    if m is None or m.group(1) not in tags.table().callbacks:
        return None
    depth = _depths(body)
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


def _first_pid(term: str, skip: str) -> str | None:
    """Return the first pid token of term (outside quoted atoms and strings) that is not skip; None if none."""
    return next((pid for pid in _scan(term)[1] if pid != skip), None)


def _parse(body: str, where: str, cls: str, col0: int) -> Line:
    """Return the Line for body with class cls; raise StreamError prefixed by where for any malformed shape."""
    if body != body.strip():
        raise _fail(where, "leading or trailing whitespace")
    if body == "":
        raise _fail(where, "empty line body")
    try:
        depth = _depths(body, col0)
    except StreamError as e:
        raise _fail(where, str(e)) from None
    if any(c == "%" and d is not None for c, d in zip(body, depth)):
        raise _fail(where, f"col {col0 + body.index('%') + 1}: '%' comment inside a stream line")
    try:
        if body.startswith("ctl "):
            return _parse_ctl(body, cls, depth, col0)
        if body.startswith("msg("):
            return _parse_msg(body, cls, col0)
        return _parse_callback(body, cls, col0)
    except StreamError as e:
        raise _fail(where, str(e)) from None


# PROTOCOLS.md section 6: a harness call is M:F(Args) or receive(); a scenario process's
# step that raised is <P> Step(Args).
_HARNESS_CALL: Final = re.compile(r"[^\s(<]+:[^\s(]+\(.*\)|receive\(\)")
_STEP_CALL: Final = re.compile(r"<[a-z][a-zA-Z0-9_]*> [a-z][a-zA-Z0-9_]*\(.*\)")


def _parse_ctl(body: str, cls: str, depth: list[int | None], col0: int) -> Line:
    """Return the Line for a 'ctl CALL -> TERM', 'ctl CALL raises CLASS:REASON' (CALL is M:F(Args)
    or receive()) or 'ctl <P> Step(Args) raises CLASS:REASON' body."""
    arrow = _find_top(body, " -> ", depth)
    raises = _find_top(body, " raises ", depth)
    cut = min(x for x in (arrow, raises, len(body)) if x != -1)
    call = body[4:cut]
    if cut == len(body):
        raise StreamError(f"col {col0 + 1}: ctl line without ' -> TERM' or ' raises CLASS:REASON'")
    if _HARNESS_CALL.fullmatch(call) is None and (cut == arrow or _STEP_CALL.fullmatch(call) is None):
        shapes = "M:F(Args) or receive()" + ("" if cut == arrow else " or <P> Step(Args)")
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
    args = _split(inner, ", ", col0 + 4)
    if len(args) != 2:
        raise StreamError(f"col {col0 + 5}: msg line needs 2 arguments (STATE, TERM), got {len(args)}")
    state = args[0]
    pid = _first_pid(args[1], state)
    group = f"{pid if pid is not None else 'msg'} to {state}"
    if args[1].startswith("{monitor,"):
        group = "monitor " + group
    return Line(cls=cls, body=body, kind="msg", callback=None, tag=None, group=group, state=state)


def _parse_callback(body: str, cls: str, col0: int) -> Line:
    """Return the Line for an enabled*/3 ('... -> ANSWER') or trace*/5 callback body."""
    parts = _callback_parts(body)
    if parts is None:
        head = body.split("(", 1)[0].split(" ", 1)[0]
        raise StreamError(f"col {col0 + 1}: {head!r} is not a callback, 'msg(' or 'ctl '")
    name, args_text, tail = parts
    args = _split(args_text, ", ", col0 + len(name) + 1)
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


def parse_line(text: str, where: str = "") -> Line:
    """Return the Line of a full 'CLASS BODY' line whose CLASS agrees with classify; raise StreamError otherwise."""
    [line] = parse_classed_lines([(where, text)])
    return line


def _parse_classless(where: str, text: str) -> Line:
    """Return the Line of a 'CLASS BODY' line, its class as written; raise StreamError when malformed."""
    if len(text) < 2 or text[0] not in "NI" or text[1] != " ":
        raise _fail(where, f"col 1: line does not start with 'N ' or 'I ': {text!r}")
    return _parse(text[2:], where, text[0], 2)


def _classed_line(where: str, text: str) -> Line:
    """_parse_classless(where, text), remembered (see _live_line) but for the location of an error."""
    try:
        return _remembered_classed_line(text)
    except StreamError:
        return _parse_classless(where, text)


@functools.lru_cache(maxsize=1 << 16)
def _remembered_classed_line(text: str) -> Line:
    return _parse_classless("", text)


def parse_classed_lines(numbered: list[tuple[str, str]]) -> list[Line]:
    """Return the Lines of one stream's 'CLASS BODY' lines, each given with its location, whose
    classes agree with classify and, over the whole stream, classify_implementation_defined (as a
    golden file or a JSON report stores them); raise StreamError naming the first that does not."""
    windows: dict[str, Window] = {}
    choices = _Choices()
    lines = [(_parse_choice(where, text, windows, choices) if _CHOICE_LINE.match(text)
              else _parse_allowance(where, text, windows, choices) if text.startswith("A ")
              else _classed_line(where, text))
             for where, text in numbered]
    if windows:
        where, text = next((w, t) for (w, t), line in zip(numbered, lines)
                           if line.kind == "open" and line.window is not None and line.window.id in windows)
        raise _fail(where, f"col 1: allowance window {text.split()[2]} is never closed")
    if choices.open is not None:
        where = next(w for (w, _), line in zip(numbered, lines) if line.kind == "either" and line.choice == choices.open)
        raise _fail(where, f"col 1: either {choices.open.id} is never ended")
    expected = classify_implementation_defined([replace(line, cls=classify(line.body)) if line.cls != "A" else line
                                                for line in lines])
    for (where, _), line, wanted in zip(numbered, lines, expected):
        if line.cls != wanted.cls:
            why = "normative" if wanted.cls == "N" else (
                "informative (I)" if classify(line.body) == "I" else "informative (implementation-defined event)")
            raise _fail(where, f"col 1: class {line.cls} but the line is {why}" + (" (N)" if wanted.cls == "N" else ""))
    return lines


_WINDOW_OPEN: Final = re.compile(r"open (w[0-9]+) ([A-Z][A-Z0-9-]*) 0\.\.(\*|[1-9][0-9]*)(?: after (w[0-9]+))?: (.+)")
_WINDOW_CLOSE: Final = re.compile(r"close (w[0-9]+)")


@dataclass
class _Choices:
    """Where a stream's parse is in its either-or lines: the either open (None: none), whether its
    `or` has come, and every id an either has used."""

    open: Choice | None = None
    second: bool = False
    used: set[str] = field(default_factory=set)


_CHOICE_LINE: Final = re.compile(r"A (?:either|or|end) ")
_CHOICE: Final = re.compile(r"(either) (w[0-9]+) ([A-Z][A-Z0-9-]*)|(or|end) (w[0-9]+)")


def _parse_choice(where: str, text: str, open_windows: dict[str, Window], choices: _Choices) -> Line:
    """Return the Line of an 'A either ID RULE', 'A or ID' or 'A end ID' line; raise StreamError when
    malformed, for an either inside another or an id used before, an `or` or `end` out of turn, or an
    either that an allowance window opened inside it outlives. choices is updated."""
    body = text[2:]
    m = _CHOICE.fullmatch(body)
    if m is None:
        raise _fail(where, f"col 3: not 'either wN RULE', 'or wN' nor 'end wN': {body!r}")
    if m.group(1):
        wid, rule = m.group(2), m.group(3)
        if choices.open is not None:
            raise _fail(where, f"col 3: either {wid} inside either {choices.open.id}")
        if wid in choices.used or wid in open_windows:
            raise _fail(where, f"col 10: id {wid} used before")
        choices.open, choices.second = Choice(wid, rule), False
        choices.used.add(wid)
        return Line(cls="A", body=body, kind="either", callback=None, tag=None, group="", choice=choices.open)
    kind, wid = m.group(4), m.group(5)
    current = choices.open
    if current is None or current.id != wid or choices.second is (kind == "or"):
        raise _fail(where, f"col 3: '{kind} {wid}' out of turn (an either's lines are 'either', 'or', 'end')")
    if kind == "or":
        choices.second = True
    else:
        choices.open = None
    return Line(cls="A", body=body, kind=kind, callback=None, tag=None, group="", choice=current)


def _parse_allowance(where: str, text: str, open_windows: dict[str, Window], choices: _Choices) -> Line:
    """Return the Line of an 'A open ID RULE 0..LIMIT [after ID]: TEMPLATE' or 'A close ID' line; raise
    StreamError when malformed, for a window opened twice, closed before it opened, or after a window
    that is not open, or inside an either-or (its alternatives hold a case's lines only). open_windows
    maps the ids of the windows open before this line, and is updated."""
    body = text[2:]
    if choices.open is not None:
        raise _fail(where, f"col 3: an allowance window line inside either {choices.open.id}")
    if (m := _WINDOW_CLOSE.fullmatch(body)) is not None:
        window = open_windows.pop(m.group(1), None)
        if window is None:
            raise _fail(where, f"col 9: allowance window {m.group(1)} closed but not open")
        return Line(cls="A", body=body, kind="close", callback=None, tag=None, group="", window=window)
    m = _WINDOW_OPEN.fullmatch(body)
    if m is None:
        raise _fail(where, f"col 3: not 'open wN RULE 0..LIMIT [after wM]: TEMPLATE' nor 'close wN': {body!r}")
    wid, rule, limit, after, template = m.groups()
    if wid in open_windows or wid in choices.used:
        raise _fail(where, f"col 8: allowance window {wid} opened twice")
    if after is not None and after not in open_windows:
        raise _fail(where, f"col {3 + m.start(4)}: allowance window {wid} is after {after}, which is not open")
    col0 = 2 + m.start(5)
    segments: list[tuple[Line, ...]] = []
    for seg_at, segment in _pieces(template, " ... ", col0):
        lines = [_parse_classless(where, piece) for _, piece in _pieces(segment, " ; ", seg_at)]
        if any(line.kind not in ("enabled", "trace", "msg") for line in lines):
            raise _fail(where, f"col {seg_at + 1}: a template line is not a callback or msg line")
        for line in lines:
            if line.cls != classify(line.body):
                raise _fail(where, f"col {seg_at + 1}: template line {line.body!r} has class {line.cls}")
        segments.append(tuple(lines))
    window = Window(wid, rule, None if limit == "*" else int(limit), tuple(segments), after)
    open_windows[wid] = window
    return Line(cls="A", body=body, kind="open", callback=None, tag=None, group="", window=window)


def _pieces(text: str, sep: str, col0: int) -> list[tuple[int, str]]:
    """Return (column offset, piece) of text split at the top-level occurrences of sep; raise on an empty piece."""
    depth = _depths(text, col0)
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
    cut to the lines keep accepts, and are left out when none is left; an either-or's lines stay."""
    out: list[Line] = []
    for line in lines:
        if line.choice is not None:
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


def _content_lines(text: str) -> list[tuple[int, str]]:
    """Return (1-based line number, line) for every line that is neither blank nor a '%' comment."""
    return [
        (n, raw)
        for n, raw in enumerate(text.splitlines(), start=1)
        if raw.strip() != "" and not raw.startswith("%")
    ]


def _unpredictable_scheduling(line: Line) -> bool:
    """Return True iff line is a scheduling trace line the documents leave unpredictable: a port
    scheduled for a task they do not name (term 0, PORTS-RUNNING-ZERO) or a process scheduled
    in a function the harness waits in (RUN-HARNESS)."""
    if line.kind == "msg":
        return _unpredictable_scheduling_message(line)
    # The scheduling tags: those of running_procs (and the same ones of running_ports).
    if line.kind != "trace" or line.tag not in tags.table().process_tags("running_procs"):
        return False
    parts = _callback_parts(line.body)
    assert parts is not None  # a parsed trace line
    term = split_args(parts[1])[3]
    return term in _HARNESS_FUNCTIONS if not line.group.startswith("<port:") else term == "0"


def _unpredictable_scheduling_message(line: Line) -> bool:
    """The same for a tracer process's message ``msg(<S>, {trace,Tracee,Tag,Where})``: the harness's
    scheduling reaches a tracer process as it reaches a tracer module (RUN-HARNESS)."""
    inner = line.body[4:-1]
    items = _items(split_args(inner)[1], "{", "}")
    if items is not None and len(items) == 5 and items[0] == "trace_ts":  # a time stamp last
        items = ["trace", *items[1:4]]
    if items is None or len(items) != 4 or items[0] != "trace" or items[2] not in tags.table().process_tags("running_procs"):
        return False
    return items[3] in _HARNESS_FUNCTIONS if not items[1].startswith("<port:") else items[3] == "0"


def _enabled_before(lines: list[Line], i: int) -> int | None:
    """Return the index of the enabled line that asked for trace line i: its group's nearest
    earlier normative line, when that is an enabled line of the same tag; else None (one tracer's lines:
    the sessions' lines of one event interleave)."""
    line = lines[i]
    j = next((j for j in range(i - 1, -1, -1)
              if lines[j].group == line.group and lines[j].state == line.state and lines[j].cls == "N"), None)
    return j if j is not None and lines[j].kind == "enabled" and lines[j].tag == line.tag else None


def _schedule_neighbour(lines: list[Line], i: int, tag: str, step: int) -> Line | None:
    """Return the first scheduling line (enabled or trace) of line i's process and tracer after it
    (step 1) or before it (step -1) when it is a trace line of tag, or an enabled line of tag that
    asked for one; else None."""
    line, running = lines[i], tags.table().process_tags("running_procs")
    j = i + step
    while 0 <= j < len(lines):
        other = lines[j]
        if other.group == line.group and other.state == line.state and other.tag in running \
                and other.kind in ("enabled", "trace"):
            if other.tag != tag or (other.kind == "enabled" and not other.body.endswith(" -> trace")):
                return None
            if other.kind == "trace":
                return other
        j += step
    return None


def _harness_discarded_schedule(lines: list[Line], i: int) -> bool:
    """Return True iff line i is a scheduling enabled line that traced nothing (discard, remove)
    for a schedule of the harness (RUN-HARNESS, OTP_SUITES.md F-1): a process is scheduled in
    where it was scheduled out, running nothing between, so a discarded out is where the next in
    traced of its process is, a discarded in where the last out traced was."""
    line = lines[i]
    if line.kind != "enabled" or line.cls != "N" or line.tag not in ("in", "out") \
            or line.body.endswith(" -> trace") or line.group.startswith("<port:"):  # a port: in and out by task
        return False
    neighbour = _schedule_neighbour(lines, i, "in", 1) if line.tag == "out" \
        else _schedule_neighbour(lines, i, "out", -1)
    return neighbour is not None and _unpredictable_scheduling(neighbour)


def classify_implementation_defined(lines: list[Line]) -> list[Line]:
    """Return lines with the events the documents leave to the implementation made informative,
    each with the enabled line that asked for it: unpredictable scheduling (RUN-HARNESS,
    PORTS-RUNNING-ZERO; also the enabled line of such a schedule that traced nothing, placed by its
    traced other half: _harness_discarded_schedule) and a fullsweep right after a minor collection of the same process
    (GC-MINOR-FULLSWEEP: the gc_major_start and gc_major_end directly following gc_minor_end,
    and the enabled line of that gc_major_end also when it answered no trace: discard leaves the
    enabled line alone, and it belongs to the fullsweep all the same; likewise a gc_minor_end the
    tracer answered other than trace is the minor's end it saw, C-296). Each tracer of a process is
    followed on its own: the lines of several sessions for one collection interleave (fuzz group J3).
    Every other line is unchanged."""
    out = list(lines)
    # (group, tracer) -> tag of its last trace line, or gc_minor_end for a later gc_minor_end enabled line
    # not answered trace (C-296)
    last_tag: dict[tuple[str, str | None], str] = {}
    in_fullsweep: set[tuple[str, str | None]] = set()  # (group, tracer) between an added gc_major_start and its end
    for i, line in enumerate(out):
        key = (line.group, line.state)
        if line.kind == "msg" and line.cls == "N" and _unpredictable_scheduling(line):
            out[i] = replace(line, cls="I")
        if (line.kind == "enabled" and line.cls == "N" and line.tag == "gc_major_end"
                and key in in_fullsweep and not line.body.endswith(" -> trace")):
            out[i] = replace(line, cls="I")   # the fullsweep's end, not traced
            in_fullsweep.discard(key)
            continue
        if (line.kind == "enabled" and line.cls == "N" and line.tag == "gc_minor_end"
                and not line.body.endswith(" -> trace")):
            last_tag[key] = "gc_minor_end"   # the minor's end as this tracer saw it, untraced
            continue
        if line.kind != "trace" or line.cls != "N":
            continue
        if _unpredictable_scheduling(line):
            informative = True
        else:
            starts = line.tag == "gc_major_start" and last_tag.get(key) == "gc_minor_end"
            informative = starts or (line.tag == "gc_major_end" and key in in_fullsweep)
            in_fullsweep.discard(key)
            if starts:
                in_fullsweep.add(key)
            last_tag[key] = line.tag
        if informative:
            out[i] = replace(line, cls="I")
            j = _enabled_before(out, i)
            if j is not None:
                out[j] = replace(out[j], cls="I")
    return [replace(line, cls="I") if _harness_discarded_schedule(out, i) else line
            for i, line in enumerate(out)]


#: At most this many ways of choosing which fullsweep-shaped major pairs are requested ones are tried
#: (fullsweep_restorations), the choice of the earliest pairs first.
MAX_FULLSWEEP_CHOICES: Final = 64


def fullsweep_restorations(golden: list[Line], live: list[Line]) -> Iterator[list[Line]]:
    """Yield live with as many of its GC-MINOR-FULLSWEEP majors made normative again, per process and
    tracer, as the golden stream requires normative major collections beyond the live stream's normative
    ones: a requested major collection (`gc major`) right after a minor one the runtime started
    (GC-RUNTIME) has the shape of a fullsweep added to a minor and is classified so, yet it is the
    collection the step asked for (C-265). Which of several such pairs is the requested one only their
    place among the process's other lines tells (an added fullsweep may come earlier, C-350), so every
    choice is yielded, that of the earliest pairs (C-265's) first, at most MAX_FULLSWEEP_CHOICES. A
    restored pair's gc_major_end and both enabled lines go with it; live itself when nothing is to be
    restored."""
    def majors(lines: list[Line]) -> dict[tuple[str, str | None], int]:
        counts: dict[tuple[str, str | None], int] = {}
        for ln in lines:
            if ln.kind == "trace" and ln.cls == "N" and ln.tag == "gc_major_start":
                counts[(ln.group, ln.state)] = counts.get((ln.group, ln.state), 0) + 1
        return counts
    live_majors = majors(live)
    deficit = {key: n - live_majors.get(key, 0) for key, n in majors(golden).items()}
    candidates: dict[tuple[str, str | None], list[int]] = {}  # the informative gc_major_starts of each deficit
    for i, ln in enumerate(live):
        key = (ln.group, ln.state)
        if ln.kind == "trace" and ln.tag == "gc_major_start" and ln.cls == "I" and deficit.get(key, 0) > 0:
            candidates.setdefault(key, []).append(i)
    wanted = [(starts, min(deficit[key], len(starts))) for key, starts in candidates.items()]
    for picked in itertools.islice(_choices(wanted), MAX_FULLSWEEP_CHOICES):
        yield _restore_fullsweeps(live, frozenset(picked))


def _choices(wanted: list[tuple[list[int], int]]) -> Iterator[tuple[int, ...]]:
    """Yield, lazily (there may be very many), each way of taking so many of each list of indexes:
    one of each list's combinations, the earliest first."""
    if not wanted:
        yield ()
        return
    (indexes, taken), rest = wanted[0], wanted[1:]
    for head in itertools.combinations(indexes, taken):
        for tail in _choices(rest):
            yield head + tail


def _restore_fullsweeps(live: list[Line], starts: frozenset[int]) -> list[Line]:
    """Return live with the fullsweep-shaped major pairs whose gc_major_start trace lines are at the
    indexes starts made normative, each with its gc_major_end and both enabled lines."""
    out = list(live)
    restoring: set[tuple[str, str | None]] = set()  # between a restored gc_major_start and its end
    for i, line in enumerate(out):
        key = (line.group, line.state)
        ends = key in restoring and line.tag == "gc_major_end" and line.kind in ("trace", "enabled")
        if not (i in starts or ends):
            continue
        if i in starts:
            restoring.add(key)
        if ends and (line.kind == "trace" or not line.body.endswith(" -> trace")):
            restoring.discard(key)
        if line.kind == "trace":
            j = _enabled_before_informative(out, i)
            if j is not None:
                out[j] = replace(out[j], cls="N")
        out[i] = replace(line, cls="N")
    return out


def _enabled_before_informative(lines: list[Line], i: int) -> int | None:
    """Return the index of the informative enabled line that asked for trace line i (the nearest earlier line
    of its process and tracer), or None."""
    line = lines[i]
    j = next((j for j in range(i - 1, -1, -1)
              if lines[j].group == line.group and lines[j].state == line.state), None)
    ok = j is not None and lines[j].kind == "enabled" and lines[j].tag == line.tag and lines[j].cls == "I"
    return j if ok else None


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


def _items(term: str, opener: str, closer: str) -> list[str] | None:
    """Return the top-level items of a map or list term written opener...closer; None for another shape."""
    if not (term.startswith(opener) and term.endswith(closer)):
        return None
    try:
        return _split(term[len(opener):-len(closer)], ",")
    except StreamError:
        return None


def _normalise_opts(opts: str) -> str:
    """Return the Opts map with a positive-integer scheduler_id value replaced by _SchedulerId; else unchanged."""
    entries = _items(opts, "#{", "}")
    if entries is None:
        return opts
    out: list[str] = []
    for entry in entries:
        key, sep, value = entry.partition("=>")
        if sep and key == "scheduler_id" and _POSITIVE_INT.fullmatch(value):
            entry = f"{key}=>{_SCHEDULER_ID_PLACEHOLDER}"
        out.append(entry)
    return "#{" + ",".join(out) + "}"


def _is_gc_info(term: str) -> bool:
    """Return True iff term is a garbage collection Info list: each documented key once, non-negative integer values."""
    items = _items(term, "[", "]")
    if items is None:
        return False
    keys = [m.group(1) for m in map(_GC_INFO_ITEM.fullmatch, items) if m is not None]
    return len(keys) == len(items) == len(_GC_INFO_KEYS) and set(keys) == _GC_INFO_KEYS


def _timestamp_placeholder(term: str) -> str | None:
    """Return the placeholder of a time stamp by its shape (TS-PROCESS-MESSAGE): {Mega,Secs,Micro} of
    non-negative integers _Timestamp (timestamp, cpu_timestamp), an integer _MonotonicTimestamp, {Integer,
    Integer} _StrictMonotonicTimestamp (the unique integer may be negative); None for another shape."""
    if _INT.fullmatch(term):
        return "_MonotonicTimestamp"
    items = _items(term, "{", "}")
    if items is not None and len(items) == 3 and all(_NON_NEG_INT.fullmatch(i) for i in items):
        return "_Timestamp"
    if items is not None and len(items) == 2 and all(_INT.fullmatch(i) for i in items):
        return "_StrictMonotonicTimestamp"
    return None


def _normalise_message(body: str) -> str:
    """Return a tracer process's msg line with the Info list of a gc_* trace message replaced by _GcInfo
    and the time stamp that ends a trace_ts message by its placeholder; any other body unchanged."""
    try:
        args = split_args(body[4:-1])
    except StreamError:
        return body
    items = _items(args[1], "{", "}") if len(args) == 2 else None
    if items is None or len(items) < 4 or items[0] not in ("trace", "trace_ts"):
        return body
    changed = list(items)
    if changed[2].startswith("gc_") and _is_gc_info(changed[3]):
        changed[3] = _GC_INFO_PLACEHOLDER
    if items[0] == "trace_ts" and len(items) >= 5:
        placeholder = _timestamp_placeholder(items[-1])
        if placeholder is None:
            return body
        changed[-1] = placeholder
    if changed == items:
        return body
    return f"msg({args[0]}, {{{','.join(changed)}}})"


def normalise_live(body: str) -> str:
    """Return body with the values no model predicts replaced by placeholders, once their shape is checked:
    a trace*/5 Opts map's positive-integer scheduler_id by _SchedulerId, the Info list of a gc_* event by
    _GcInfo, the time and the words in the call_time and call_memory lists of a trace information call
    (counters.normalise_counters), the time stamp of a tracer process's trace_ts message by its kind's;
    nothing else changes."""
    if body.startswith("ctl "):
        return counters.normalise_counters(body)
    if body.startswith("msg(") and body.endswith(")"):
        return _normalise_message(body)
    try:
        parts = _callback_parts(body)
        if parts is None:
            return body
        name, args_text, tail = parts
        args = split_args(args_text)
    except StreamError:
        return body
    if not name.startswith("trace") or len(args) != 5 or tail != "":
        return body
    term = _GC_INFO_PLACEHOLDER if args[0].startswith("gc_") and _is_gc_info(args[3]) else args[3]
    opts = _normalise_opts(args[4])
    if (term, opts) == (args[3], args[4]):
        return body
    return f"{name}({', '.join(args[:3] + [term, opts])})"
