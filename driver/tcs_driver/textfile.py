"""The files users hand to tcs and the reports it hands back. Reading, whatever the bytes or
depth: every failure is one InputError whose message starts with FILE:LINE:COL (cases/README.md:
bad input is named, exit 2, no traceback). Writing: whole or not at all, checked before the
work that produces it."""
from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any


class InputError(Exception):
    """A file tcs cannot read as what it should be; the message starts with FILE[:LINE:COL]."""


def position(text: str, offset: int) -> tuple[int, int]:
    """The line and column (both from 1) of a character offset in text."""
    return text.count("\n", 0, offset) + 1, offset - (text.rfind("\n", 0, offset) + 1) + 1


def read_text(path: Path) -> str:
    """The file as UTF-8 text; InputError naming the first byte that is not UTF-8, or why the
    file cannot be read."""
    try:
        data = path.read_bytes()
    except OSError as why:
        raise InputError(f"{path}: cannot read: {why.strerror}") from why
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as why:
        good = data[:why.start].decode("utf-8")
        line, col = position(good, len(good))
        raise InputError(f"{path}:{line}:{col}: invalid UTF-8 (byte 0x{data[why.start]:02X}): "
                         "the file must be UTF-8 text") from why


def read_json(path: Path) -> Any:
    """The JSON value of a file; InputError for bytes that are not UTF-8, text that is not JSON,
    or arrays and objects nested deeper than Python's parser can follow."""
    text = read_text(path)
    try:
        return json.loads(text)
    except json.JSONDecodeError as why:
        raise InputError(f"{path}:{why.lineno}:{why.colno}: not JSON: {why.msg}") from why
    except RecursionError as why:
        line, col = position(text, deepest_opening(text))
        raise InputError(f"{path}:{line}:{col}: nesting too deep (JSON arrays and objects "
                         "nested hundreds of levels)") from why


def deepest_opening(text: str) -> int:
    """The offset of the first '[' or '{' (outside "strings") at the greatest nesting depth: where
    a too deeply nested JSON or TOML text goes too deep."""
    depth = deepest = at = 0
    in_string = escaped = False
    for i, c in enumerate(text):
        if in_string:
            escaped, in_string = (False, True) if escaped else (c == "\\", c != '"')
        elif c == '"':
            in_string = True
        elif c in "[{":
            depth += 1
            if depth > deepest:
                deepest, at = depth, i
        elif c in "]}":
            depth -= 1
    return at


def unwritable(path: Path) -> str | None:
    """Why a report could not be written at path, in words; None when it can (checked before a
    run, so that an hour of results is never lost to a typo)."""
    parent = path.resolve().parent
    if path.is_dir():
        return f"cannot write {path}: it is a directory (give a file name)"
    if not parent.is_dir():
        return f"cannot write {path}: no directory {parent}"
    if not os.access(parent, os.W_OK | os.X_OK) or (path.exists() and not os.access(path, os.W_OK)):
        return f"cannot write {path}: permission denied"
    return None


def write_whole(path: Path, text: str) -> None:
    """Writes text to path through a temporary file of its own beside it and a rename: readers
    (and other runs writing the same path) see the old file or the new one, never a mix.
    OSError when it cannot; the temporary file is gone either way."""
    handle, partial = tempfile.mkstemp(prefix=f".{path.name}-", suffix=".partial", dir=path.resolve().parent)
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(text)
        os.chmod(partial, 0o644)
        os.replace(partial, path)
    finally:
        Path(partial).unlink(missing_ok=True)
