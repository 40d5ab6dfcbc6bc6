"""The tag table of erl_tracer: the callback categories, the 16 optional callbacks in bit
order, and the category of each trace tag for a process and for a port tracee.

Its one source is the model (`tcsref tags`, ref/vocab/dispatch.c); the build saves what it
prints as build/generated/tcs_tags.json (cmake/tcs_tags.cmake), and this module reads
that file once per process (PROTOCOLS.md, section 3)."""
from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from pathlib import Path

from .layout import default_layout


class TagTableError(Exception):
    """The tag table is missing (no build) or not what `tcsref tags` prints."""


@dataclass(frozen=True)
class TagTable:
    """What `tcsref tags` prints, as values."""
    categories: tuple[str, ...]         # in bit order
    optional_callbacks: tuple[str, ...]  # bit i of a callback mask provides optional_callbacks[i]
    process: dict[str, str]             # tag -> its category for a process tracee
    port: dict[str, str]                # tag -> its category for a port tracee
    special: tuple[str, ...]            # tags outside every category (trace_status, seq_trace)

    @property
    def callbacks(self) -> frozenset[str]:
        """Every callback name of erl_tracer: enabled, trace and the optional ones."""
        return frozenset({"enabled", "trace", *self.optional_callbacks})

    def with_arities(self) -> tuple[tuple[str, int], ...]:
        """Every callback with its arity: enabled/3, trace/5, then the optional ones in bit order."""
        return (("enabled", 3), ("trace", 5), *((name, 3 if name.startswith("enabled_") else 5)
                                                  for name in self.optional_callbacks))

    def process_tags(self, category: str) -> frozenset[str]:
        """The tags of a category when the tracee is a process."""
        return frozenset(tag for tag, cat in self.process.items() if cat == category)


def parse(text: str, where: str) -> TagTable:
    """The table from the JSON text of `tcsref tags`; TagTableError naming `where` if it is not that."""
    try:
        raw = json.loads(text)
        tags = raw["tags"]
        table = TagTable(tuple(raw["categories"]), tuple(raw["callbacks"]),
                         {t["tag"]: t["process"] for t in tags}, {t["tag"]: t["port"] for t in tags},
                         tuple(raw["special"]))
    except (ValueError, KeyError, TypeError) as why:
        raise TagTableError(f"{where}: not the output of tcsref tags ({why})") from why
    expected = [f"{kind}_{cat}" for kind in ("enabled", "trace") for cat in table.categories]
    if list(table.optional_callbacks) != expected:
        raise TagTableError(f"{where}: callbacks {list(table.optional_callbacks)} are not "
                            f"enabled_<category> then trace_<category> in category order")
    return table


def load(path: Path) -> TagTable:
    """The table the build saved at `path`."""
    try:
        text = path.read_text()
    except OSError as why:
        raise TagTableError(f"{path}: the build writes the tag table there (cmake --build, or ./tcs test): "
                            f"{why.strerror}") from why
    return parse(text, str(path))


@functools.cache
def table() -> TagTable:
    """The table of this repository's build, read once."""
    return load(default_layout().generated / "tcs_tags.json")
