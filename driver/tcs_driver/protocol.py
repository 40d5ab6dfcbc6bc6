"""The driver's side of the node protocol (PROTOCOLS.md), one implementation for the
corpus runner (node.py) and for ./tcs validate (validate/jobs.py): writing job files,
reading marker lines, following a progress file as a node appends to it."""
from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

#: Every line of the protocol starts so; anything else a node prints is not protocol.
PREFIX = "TCS "


def erlang_string(text: str) -> str:
    """Text as an Erlang string literal."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def job_file(entries: Mapping[str, object]) -> str:
    """A job file: one `{Key, Value}.` term a line, which file:consult/1 reads; each value is
    Erlang term text (an atom, a number, erlang_string(...), a list...)."""
    return "".join(f"{{{key}, {value}}}.\n" for key, value in entries.items())


def marker(line: str) -> tuple[str, str] | None:
    """A protocol line `TCS KIND REST` as (KIND, REST); None for any other line."""
    if not line.startswith(PREFIX):
        return None
    kind, _, rest = line[len(PREFIX):].partition(" ")
    return kind, rest


class ProgressFile:
    """Follows a progress file while its node appends to it: each read returns the markers of
    the lines completed since the last one (a line the node is still writing waits)."""

    def __init__(self, path: Path) -> None:
        self._file = open(path, "rb")
        self._pending = b""

    def read(self) -> list[tuple[str, str]]:
        """The markers written since the last read, in order."""
        self._pending += self._file.read()
        *complete, self._pending = self._pending.split(b"\n")
        found = (marker(raw.decode("utf-8", errors="replace")) for raw in complete)
        return [m for m in found if m is not None]

    def close(self) -> None:
        self._file.close()

    def __enter__(self) -> ProgressFile:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()
