"""--shard K/N: the split is deterministic (the same on every machine), its shards are disjoint and
together the whole, for run (cases sorted by id), fuzz (a seed's scenario indexes) and validate
(checks, those judged on one another's inputs together); a bad value is a usage error."""
from __future__ import annotations

import pytest

from tcs_driver import cli, corpus, shard
from tcs_driver.validate import TOGETHER, shard_checks
from tcs_driver.validate.checks import ALL_CHECK_NAMES

LAYOUT = corpus.default_layout()
SIZES = [0, 1, 2, 7, 100]
TOTALS = [1, 2, 3, 5, 8]


@pytest.mark.parametrize("text,expected", [("1/1", (1, 1)), ("1/2", (1, 2)), ("2/2", (2, 2)), (" 3/8 ", (3, 8)),
                                           ("10/12", (10, 12))], ids=["whole", "first", "last", "spaces", "two-digit"])
def test_parse_takes_k_of_n(text: str, expected: tuple[int, int]) -> None:
    parsed = shard.parse(text)
    assert (parsed.number, parsed.total) == expected


@pytest.mark.parametrize("text", ["0/2", "3/2", "x", "1/0", "0/0", "-1/2", "1/-2", "1", "1/2/3", "a/b", ""],
                         ids=["zero", "past-n", "word", "n-zero", "both-zero", "negative", "negative-n", "no-n",
                              "three", "letters", "empty"])
def test_parse_refuses_what_is_not_k_of_n(text: str) -> None:
    with pytest.raises(ValueError, match="K"):
        shard.parse(text)


@pytest.mark.parametrize("command", [["run"], ["fuzz"], ["validate", "--module", "m"]], ids=["run", "fuzz", "validate"])
@pytest.mark.parametrize("value", ["0/2", "3/2", "x"], ids=["zero", "past-n", "word"])
def test_a_bad_shard_is_a_usage_error(command: list[str], value: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        cli.main([*command, "--shard", value])
    assert stopped.value.code == 2
    assert f"--shard: '{value}'" in capsys.readouterr().err


@pytest.mark.parametrize("size", SIZES, ids=[f"{n}-items" for n in SIZES])
@pytest.mark.parametrize("total", TOTALS, ids=[f"N{n}" for n in TOTALS])
def test_shards_are_disjoint_and_together_the_whole(size: int, total: int) -> None:
    items = [f"case_{i:03}" for i in range(size)]
    parts = [shard.Shard(k, total).select(items) for k in range(1, total + 1)]
    assert sorted(x for part in parts for x in part) == items
    assert sum(map(len, parts)) == size
    assert max(map(len, parts)) - min(map(len, parts)) <= 1   # round robin: balanced
    for index in range(size):
        assert [k for k in range(1, total + 1) if shard.Shard(k, total).holds(index)] == [index % total + 1]


def test_the_split_is_fixed_by_position_alone() -> None:
    """What any machine computes: item i is shard i mod N + 1 (no hash seed, no clock, no host)."""
    assert shard.Shard(1, 3).select(list(range(8))) == [0, 3, 6]
    assert shard.Shard(3, 3).select(list("abcdefgh")) == ["c", "f"]
    assert shard.WHOLE.select(list("ab")) == ["a", "b"]


def test_the_corpus_splits_into_disjoint_shards_that_are_the_corpus() -> None:
    paths = corpus.case_paths(LAYOUT)
    parts = [shard.Shard(k, 4).select(corpus.case_paths(LAYOUT)) for k in range(1, 5)]
    assert sorted(p for part in parts for p in part) == sorted(paths)
    assert not set(parts[0]) & set(parts[1])
    assert parts == [shard.Shard(k, 4).select(corpus.case_paths(LAYOUT)) for k in range(1, 5)]


@pytest.mark.parametrize("total", [1, 2, 3, 4, 9], ids=lambda n: f"N{n}")
def test_validate_shards_split_the_checks_keeping_dependent_ones_together(total: int) -> None:
    checks = ALL_CHECK_NAMES
    parts = [shard_checks(checks, shard.Shard(k, total)) for k in range(1, total + 1)]
    assert sorted(c for part in parts for c in part) == sorted(c for c in checks if c != "shape")
    assert sum(map(len, parts)) == len(checks) - 1
    for group in TOGETHER:
        assert sum(1 for part in parts if set(group) & set(part)) == 1
        assert all(set(group) <= set(part) for part in parts if set(group) & set(part))


def test_validate_shards_only_split_the_checks_asked_for() -> None:
    parts = [shard_checks(("shape", "live", "cost"), shard.Shard(k, 2)) for k in (1, 2)]
    assert parts == [("live",), ("cost",)]
