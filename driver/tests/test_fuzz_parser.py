"""The model's parser under libFuzzer, briefly (./tcs fuzz-parser runs it for as long as asked)."""
from __future__ import annotations

import pytest

from tcs_driver import corpus, fuzzing

#: How long ./tcs test fuzzes: enough to replay the corpus and mutate it for a while.
SECONDS = 45


@pytest.mark.fuzzing
def test_the_parser_fuzzer_finds_nothing_in_a_short_run(layout: corpus.Layout) -> None:
    if why := fuzzing.unavailable():
        pytest.skip(f"the parser fuzzer needs clang with libFuzzer, and {why}")
    target = fuzzing.build(layout)
    result = fuzzing.run(layout, target, SECONDS, lambda text: print(f"tcs: {text}", flush=True))
    assert result.findings == [], (f"{result.summary()}\nreproduce: {target} {result.findings[0]}; once fixed, "
                                   "keep it as a bad-input test in ref/tests/bad/")
    seeds = len(corpus.case_paths(layout))
    assert result.execs > seeds and result.coverage > 0 and result.corpus_units > 0, result.summary()
