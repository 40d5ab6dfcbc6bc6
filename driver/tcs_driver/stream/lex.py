"""Lexing a stream line's terms (PROTOCOLS.md section 6): bracket depths, top-level splits, pid tokens.

Terms are compact (``~w``-like), so the only ``", "`` separators at the top level of an argument list
are the ones between arguments.
"""

from __future__ import annotations

import re
from typing import Final

from .line import StreamError

# <name>, <port:name>, <?>, and another node's <ext:pid> and <ext:port> (PROTOCOLS.md section 6)
_PID: Final = re.compile(r"<(?:port:)?(?:[a-z][a-zA-Z0-9_]*|\?)>|<ext:(?:pid|port)>")
_CLOSERS: Final = {"{": "}", "[": "]", "(": ")"}


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


def depths(s: str, col0: int = 0) -> list[int | None]:
    """Return per character its bracket depth, or None inside a token (quote, pid, '=>'); raise on imbalance."""
    return _scan(s, col0)[0]


# the characters at which _scan has something to decide; every other one takes the depth it finds
_SIGNIFICANT: Final = re.compile(r"""['"<>={}\[\]()]""")


def _scan(s: str, col0: int = 0) -> tuple[list[int | None], list[str]]:
    """Return per-character depths (None inside tokens) and the pid tokens in order; raise on imbalance."""
    out: list[int | None] = [None] * len(s)
    pids: list[str] = []
    stack: list[tuple[str, int]] = []
    i = 0
    while i < len(s):
        m = _SIGNIFICANT.search(s, i)
        j = m.start() if m else len(s)
        if j > i:  # a run of ordinary characters, all at the current depth
            out[i:j] = [len(stack)] * (j - i)
            i = j
            if m is None:
                break
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
            pid = _PID.match(s, i)
            if pid is None:
                raise StreamError(f"col {col0 + i + 1}: '<' is neither a pid <name> nor '<<'")
            pids.append(pid.group(0))
            i = pid.end()
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
        else:  # a '>' or '=' that opens no token
            out[i] = len(stack)
        i += 1
    if stack:
        closer, at = stack[-1]
        raise StreamError(f"col {col0 + at + 1}: bracket never closed (missing '{closer}')")
    return out, pids


def split_top(s: str, sep: str, col0: int = 0) -> list[str]:
    """Return s split at the top-level occurrences of sep (which starts with ','); raise on a bare top-level ','."""
    if s == "":
        return []
    depth = depths(s, col0)
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
    return split_top(s, ", ")


def find_top(s: str, needle: str, depth: list[int | None]) -> int:
    """Return the index of the first top-level occurrence of needle in s, or -1."""
    i = s.find(needle)
    while i != -1:
        if depth[i] == 0:
            return i
        i = s.find(needle, i + 1)
    return -1


def first_pid(term: str, skip: str) -> str | None:
    """Return the first pid token of term (outside quoted atoms and strings) that is not skip; None if none."""
    return next((pid for pid in _scan(term)[1] if pid != skip), None)


def term_items(term: str, opener: str, closer: str) -> list[str] | None:
    """Return the top-level items of a map or list term written opener...closer; None for another shape."""
    if not (term.startswith(opener) and term.endswith(closer)):
        return None
    try:
        return split_top(term[len(opener):-len(closer)], ",")
    except StreamError:
        return None
