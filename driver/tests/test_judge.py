"""Judging a live run: a line the stream parser cannot read is that case's crash, never the run's end."""
from __future__ import annotations

from pathlib import Path

from tcs_driver import corpus, node, stream

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
