"""The lines of a canonical stream (PROTOCOLS.md section 6) as the parsers return them, and their error."""

from __future__ import annotations

from dataclasses import dataclass, field


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
class Mark:
    """A line of a together block of a golden stream (PROTOCOLS.md section 6, "Together blocks"):
    `together` opens block `id`, `chain` says whose steps' lines follow (proc), `sync` and `join`
    (key) bind the receiver proc's lines after a join to its sender's up to the sync of that key,
    `apart` closes the block. In each group, the lines of one chain come in order and the chains
    interleave in any way the joins allow."""

    id: str
    word: str  # 'together' | 'chain' | 'sync' | 'join' | 'apart'
    rule: str | None = None  # together: the block's rule
    proc: str | None = None  # chain: its process; sync, join: the receiver, e.g. '<b>'
    key: int | None = None  # sync, join

    def spec(self) -> str:
        """Return the block's head as a report names it: ID together RULE."""
        return f"{self.id} together {self.rule}"


@dataclass(frozen=True)
class Line:
    """One parsed stream line."""

    cls: str  # 'N' | 'I' | 'A' (an allowance window's or an either-or's line)
    body: str
    kind: str  # 'enabled' | 'trace' | 'msg' | 'ctl' | 'open' | 'close' | 'either' | 'or' | 'end', or a Mark's word
    callback: str | None
    tag: str | None
    group: str
    state: str | None = field(default=None, compare=False)  # the tracer state (2nd argument; msg: 1st)
    window: Window | None = field(default=None, compare=False)  # kind 'open' and 'close': its window
    choice: Choice | None = field(default=None, compare=False)  # kind 'either', 'or' and 'end': its either-or
    mark: Mark | None = field(default=None, compare=False)  # a together block's line

    def text(self) -> str:
        """Return the line exactly as a golden file spells it: ``CLASS BODY``."""
        return f"{self.cls} {self.body}"


def fail(where: str, why: str) -> StreamError:
    """Return a StreamError whose message starts with the location when one is known."""
    return StreamError(f"{where}: {why}" if where else why)
