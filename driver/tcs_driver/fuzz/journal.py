"""The journal of a fuzz campaign in its output directory (`./tcs fuzz --out DIR`): every outcome as
it is judged, one JSON line each, so that the same command run again goes on where it stopped, the
scenarios already judged on a release not run again (a long campaign spans CI jobs, each with a
time limit).

One journal per seed and shard (DIR/campaign-seed7.jsonl, DIR/campaign-seed7-shard1of2.jsonl); its
first line says what the campaign compares (seed, shard, --strict): a journal of another comparison
is refused, never mixed in."""
from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, TextIO

from ..shard import Shard
from .campaign import Outcome


class JournalError(Exception):
    """A journal that belongs to another campaign, or that cannot be read; the message names the file."""


def path_for(out: Path, seed: int, part: Shard) -> Path:
    """Guarantees: the journal's file in `out` for this seed and shard (the whole: no shard in the name)."""
    suffix = "" if part.total == 1 else f"-shard{part.number}of{part.total}"
    return out / f"campaign-seed{seed}{suffix}.jsonl"


@dataclass
class Journal:
    """The outcomes judged so far (by scenario id and release) and the live seconds they took."""
    path: Path
    header: dict[str, Any]
    judged: dict[tuple[str, str], Outcome] = field(default_factory=dict)
    seconds: dict[str, float] = field(default_factory=dict)

    def record(self, outcomes: list[Outcome], otp: str, seconds: float) -> None:
        """Guarantees: the outcomes and the seconds of one release's round are on disk (flushed) when it
        returns, each a whole line; a line cut short by a kill is ignored when the journal is read."""
        with self.path.open("a") as out:
            for found in outcomes:
                _write(out, {"outcome": asdict(found)})
                self.judged[(found.scenario, found.otp)] = found
            _write(out, {"seconds": {otp: seconds}})
        self.seconds[otp] = self.seconds.get(otp, 0.0) + seconds


def _write(out: TextIO, entry: dict[str, Any]) -> None:
    out.write(json.dumps(entry) + "\n")
    out.flush()


def open_journal(out: Path, seed: int, part: Shard, strict: bool) -> Journal:
    """Guarantees: the journal of this campaign in `out`, with what it holds, created empty when there
    is none; JournalError when it is another comparison's."""
    header = {"seed": seed, "shard": str(part), "strict": strict}
    path = path_for(out, seed, part)
    out.mkdir(parents=True, exist_ok=True)
    if not path.exists():
        path.write_text(json.dumps({"campaign": header}) + "\n")
        return Journal(path, header)
    journal = Journal(path, header)
    lines = path.read_text().splitlines()
    try:
        first = json.loads(lines[0])["campaign"] if lines else None
    except (ValueError, KeyError, TypeError) as why:
        raise JournalError(f"{path}: not a fuzz campaign's journal ({why})") from why
    if first != header:
        raise JournalError(f"{path}: the journal of another campaign ({first}), not of {header}; "
                           "use another --out directory")
    for line in lines[1:]:
        try:
            entry = json.loads(line)
        except ValueError:
            continue  # the line a kill cut short
        if "outcome" in entry:
            found = Outcome(**{**entry["outcome"], "shape": tuple(entry["outcome"]["shape"])})
            journal.judged[(found.scenario, found.otp)] = found
        for otp, seconds in entry.get("seconds", {}).items():
            journal.seconds[otp] = journal.seconds.get(otp, 0.0) + seconds
    return journal
