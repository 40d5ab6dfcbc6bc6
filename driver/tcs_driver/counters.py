"""The call counters a function's trace information reports, compared by shape (PROTOCOLS.md
section 6, "Terms": call_time and call_memory lists).

``erlang:trace_info(MFA, call_time)`` and ``trace:info(S, MFA, call_time)`` answer
``{call_time, [{Pid, Count, S, Us}]}``, ``call_memory`` ``{call_memory, [{Pid, Count, Words}]}``:
the counts are exact, but the time and the words are the machine's. In a live ``ctl`` line of
those calls every such list whose entries all have the documented shape has its time and words
replaced by the placeholders the model prints (``_Seconds``, ``_Microseconds``, ``_Words``) and its
entries put in the order of their printed pids (003 leaves the order of the processes open); a list
with any entry of another shape stays as it was, so it differs from the golden line.
"""

from __future__ import annotations

import re
from typing import Final

__all__ = ["normalise_counters"]

_INFO_CALL: Final = re.compile(r"ctl (?:erlang:trace_info|trace:info)\(")
_NAT: Final = r"(?:0|[1-9][0-9]*)"
_PID: Final = r"<[a-z?][a-zA-Z0-9_]*>"
#: {Pid, Count, S, Us}: Us a whole number of microseconds below one second (003, info/3).
_TIME_ENTRY: Final = re.compile(rf"\{{({_PID}),({_NAT}),{_NAT},(?:0|[1-9][0-9]{{0,5}})\}}")
#: {Pid, Count, Words}.
_MEMORY_ENTRY: Final = re.compile(rf"\{{({_PID}),({_NAT}),{_NAT}\}}")
_LISTS: Final = {"{call_time,[": (_TIME_ENTRY, "{{{0},{1},_Seconds,_Microseconds}}"),
                 "{call_memory,[": (_MEMORY_ENTRY, "{{{0},{1},_Words}}")}


def _list_end(text: str, start: int) -> int:
    """Return the index of the ']' closing the list whose items begin at start, or -1."""
    depth = 0
    for i in range(start, len(text)):
        if text[i] in "{[":
            depth += 1
        elif text[i] in "}]":
            if depth == 0:
                return i if text[i] == "]" else -1
            depth -= 1
    return -1


def _entries(items: str) -> list[str]:
    """Return the top-level comma-separated entries of a list's items (no quotes in these terms)."""
    out: list[str] = []
    depth = start = 0
    for i, c in enumerate(items):
        if c in "{[":
            depth += 1
        elif c in "}]":
            depth -= 1
        elif c == "," and depth == 0:
            out.append(items[start:i])
            start = i + 1
    return out + ([items[start:]] if items else [])


def _normalised_list(items: str, entry: re.Pattern[str], template: str) -> str | None:
    """Return the entries with placeholders, in pid order; None when one has another shape."""
    found = [entry.fullmatch(e) for e in _entries(items)]
    if any(m is None for m in found):
        return None
    return ",".join(sorted(template.format(m.group(1), m.group(2)) for m in found if m is not None))


def normalise_counters(body: str) -> str:
    """Return a live body with the call_time and call_memory lists of a trace information call
    compared by shape: placeholders for the time and the words, entries in pid order; any other
    body unchanged."""
    if _INFO_CALL.match(body) is None:
        return body
    for head, (entry, template) in _LISTS.items():
        at = body.find(head)
        while at != -1:
            start = at + len(head)
            end = _list_end(body, start)
            new = None if end == -1 else _normalised_list(body[start:end], entry, template)
            if new is not None:
                body = body[:start] + new + body[end:]
                end = start + len(new)
            at = body.find(head, max(end, start))
    return body
