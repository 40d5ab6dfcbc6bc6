"""Normalising a live line: the values no model predicts (scheduler ids, garbage collection Info
lists, time stamps, call counters) replaced by placeholders once their shape is checked."""

from __future__ import annotations

import re
from typing import Final

from .. import counters
from .lex import split_args, term_items
from .line import StreamError
from .parse import callback_parts

_POSITIVE_INT: Final = re.compile(r"[1-9][0-9]*")
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


def _normalise_opts(opts: str) -> str:
    """Return the Opts map with a positive-integer scheduler_id value replaced by _SchedulerId; else unchanged."""
    entries = term_items(opts, "#{", "}")
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
    items = term_items(term, "[", "]")
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
    items = term_items(term, "{", "}")
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
    items = term_items(args[1], "{", "}") if len(args) == 2 else None
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
        parts = callback_parts(body)
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
