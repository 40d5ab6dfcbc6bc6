"""Judging a live run: a line the stream parser cannot read is that case's crash, never the run's end;
a case of a race runs again only while its race does not show."""
from __future__ import annotations

from pathlib import Path

import pytest

from tcs_driver import corpus, node, stream
from tcs_driver.results import CaseResult

GOLDEN = "% tcs stream v1: x\nN ctl erlang:trace(<a>,true,[send]) -> 1\n"


def _case() -> corpus.Case:
    return corpus.Case(Path("x.tcs"), "x", ["EV-SEND"], 25, [], "recorder", [])


def test_unreadable_live_line_is_a_crash_with_the_evidence() -> None:
    """A harness process born traced prints a raw pid: the parser raises, the case is a crash."""
    ran = node.NodeRun("done", ["ctl erlang:trace(<a>,true,[send]) -> 1",
                                "enabled(in, <tracer>, <0.91.0>) -> trace"], "25")
    result = corpus.judge(corpus.default_layout(), _case(), node.Otp("25", ["erl"]), ran, strict=False,
                          golden=stream.parse_stream(GOLDEN, "x.stream"))
    assert result.status == "crash"
    assert "stream parser cannot read" in result.detail
    assert "<0.91.0>" in result.detail


def test_readable_live_stream_is_judged_as_before() -> None:
    ran = node.NodeRun("done", ["ctl erlang:trace(<a>,true,[send]) -> 1"], "25")
    result = corpus.judge(corpus.default_layout(), _case(), node.Otp("25", ["erl"]), ran, strict=False,
                          golden=stream.parse_stream(GOLDEN, "x.stream"))
    assert result.status == "pass"


def _runs(*statuses: str):
    """A run function giving results of these statuses in turn, and the list of runs it made."""
    made: list[str] = []

    def run() -> CaseResult:
        made.append(statuses[len(made)])
        return CaseResult("c", made[-1], [], "25", f"run {len(made)}")
    return run, made


@pytest.mark.parametrize("statuses, tries, runs, status, detail", [
    (("pass", "pass", "deviation"), 3, 3, "deviation", "run 3 of at most 3, each in a node of its own"),
    (("pass", "pass", "pass"), 3, 3, "pass", "3 runs, each in a node of its own: the crash"),
    (("deviation",), 3, 1, "deviation", "run 1"),
    (("fail",), 3, 1, "fail", "run 1"),                 # a disagreement is never run again
    (("pass", "fail"), 3, 2, "fail", "run 2 of at most 3"),
    (("pass",), 1, 1, "pass", "run 1"),
], ids=["crash_at_third", "never_shows", "crash_at_first", "fail_not_retried", "fail_at_second", "one_try"])
def test_race_runs_until_the_crash_shows(statuses, tries, runs, status, detail) -> None:
    run, made = _runs(*statuses)
    result = corpus.race_runs(tries, run)
    assert (len(made), result.status, result.tries) == (runs, status, runs)
    assert result.detail.startswith(detail), result.detail
