"""Steering the generator towards what the corpus covers least.

The corpus's coverage is the rule IDs its cases name (`tcsref meta`) and the
pairs of them one case names together. A generated scenario's coverage is the
rule IDs of the lines of its golden stream (`tcsref sim --explain`). Of a few
candidates for one slot, the campaign keeps the one whose rules and rule pairs
the corpus and the scenarios kept so far have seen least: a choice that
depends only on the seed, so a campaign stays reproducible.
"""
from __future__ import annotations

import itertools
import json
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

Pair = tuple[str, str]


@dataclass
class Coverage:
    """How often each rule and each pair of rules has been covered."""
    rules: Counter[str] = field(default_factory=Counter)
    pairs: Counter[Pair] = field(default_factory=Counter)

    def add(self, rules: Iterable[str]) -> None:
        """Counts one scenario (or case) covering these rules."""
        named = sorted(set(rules))
        self.rules.update(named)
        self.pairs.update(itertools.combinations(named, 2))


def corpus_coverage(metas: Iterable[str]) -> Coverage:
    """The corpus's coverage, from the JSON headers `tcsref meta` printed for its cases."""
    cover = Coverage()
    for meta in metas:
        cover.add(json.loads(meta)["rules"])
    return cover


def explained_rules(explained: str) -> set[str]:
    """The rule IDs of a stream printed by `tcsref sim --explain`: each line's `% RULE...` suffix, and
    the `% decided RULE...` lines of the rules the model applied where they write no line."""
    rules: set[str] = set()
    for line in explained.splitlines():
        if line.startswith("% decided "):
            rules.update(line.split()[2:])
        elif not line.startswith("%") and "  % " in line:
            rules.update(line.rsplit("  % ", 1)[1].split())
    return rules


def novelty(rules: set[str], *seen: Coverage) -> float:
    """How much a scenario covering `rules` adds: rare rules and rare pairs weigh most."""
    def count(rule_or_pair: str | Pair) -> int:
        return sum((c.rules if isinstance(rule_or_pair, str) else c.pairs)[rule_or_pair] for c in seen)
    named = sorted(rules)
    return (sum(1.0 / (1 + count(r)) for r in named)
            + 0.25 * sum(1.0 / (1 + count(p)) for p in itertools.combinations(named, 2)))


def choose(candidates: list[set[str]], *seen: Coverage) -> int:
    """The index of the candidate that adds most (the first one on a tie)."""
    scores = [novelty(rules, *seen) for rules in candidates]
    return scores.index(max(scores))


def least_covered(corpus: Coverage, fuzz: Coverage, limit: int = 15) -> list[tuple[str, int, int]]:
    """The rules the corpus names least, with how often the corpus and the campaign covered them."""
    return sorted(((r, n, fuzz.rules[r]) for r, n in corpus.rules.items()), key=lambda t: (t[1], t[0]))[:limit]


def unreached(corpus: Coverage, fuzz: Coverage) -> list[str]:
    """The rules the corpus names that no scenario of the campaign covered: the generator's blind spots."""
    return sorted(set(corpus.rules) - set(fuzz.rules))
