"""`--shard K/N` of run, fuzz and validate: one part of N of a deterministic split, so that CI jobs on
different machines (a GitHub Actions matrix, GitLab's parallel jobs) together do one run.

The split is by position in an order every machine computes alike (cases sorted by id, a seed's
scenario indexes, the checks in their fixed order): item i belongs to shard (i mod N) + 1. Round
robin keeps the shards within one item of each other in size, which a hash of the ids does not
for the small selections a CI job often runs."""
from __future__ import annotations

import argparse
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeVar

Item = TypeVar("Item")

_FORM = re.compile(r"([0-9]+)/([0-9]+)")


@dataclass(frozen=True)
class Shard:
    """Shard `number` of `total` (1 <= number <= total)."""
    number: int
    total: int

    def __str__(self) -> str:
        return f"{self.number}/{self.total}"

    def holds(self, index: int) -> bool:
        """Guarantees: whether item `index` (0-based, in the split's order) is this shard's; for one total,
        exactly one shard holds each index."""
        return index % self.total == self.number - 1

    def select(self, items: Sequence[Item]) -> list[Item]:
        """Guarantees: this shard's items, in their order; the shards 1..total of one sequence are disjoint
        and together are the sequence."""
        return [item for index, item in enumerate(items) if self.holds(index)]


#: The whole: what a run without --shard does.
WHOLE = Shard(1, 1)


def parse(text: str) -> Shard:
    """Guarantees: the shard `K/N` names, 1 <= K <= N; ValueError saying what is wrong otherwise."""
    form = _FORM.fullmatch(text.strip())
    if form is None:
        raise ValueError(f"{text!r}: expected K/N, shard K of N (e.g. 1/2)")
    number, total = int(form.group(1)), int(form.group(2))
    if total < 1 or not 1 <= number <= total:
        raise ValueError(f"{text!r}: K must be from 1 to N (N at least 1)")
    return Shard(number, total)


def argument(text: str) -> Shard:
    """parse() as an argparse type: a bad value is a usage error (exit 2) with parse's message."""
    try:
        return parse(text)
    except ValueError as why:
        raise argparse.ArgumentTypeError(str(why)) from why


def add_argument(parser: argparse.ArgumentParser, what: str) -> None:
    """The --shard option of a command, splitting `what`."""
    parser.add_argument("--shard", type=argument, default=WHOLE, metavar="K/N",
                        help=f"run only part K of N of {what} (a deterministic split, the same on every "
                             "machine: item i is shard i mod N + 1); merge the reports with ./tcs merge")
