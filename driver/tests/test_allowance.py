"""Tests of the allowance windows of a golden stream (PROTOCOLS.md section 6, "Allowance windows"):
what the runtime may add (runtime-started collections, scheduling while blocked or around a
yielding call) is admitted only whole, of the right process, within its window, up to its limit."""

from __future__ import annotations

import pytest

from tcs_driver.diff import compare
from tcs_driver.layout import REPO
from tcs_driver.stream import StreamError, parse_live_stream, parse_stream

_MINOR = ("N enabled(gc_minor_start, <tracer>, <a>) -> trace ; N trace(gc_minor_start, <tracer>, <a>, _GcInfo, #{})"
          " ; N enabled(gc_minor_end, <tracer>, <a>) -> trace ; N trace(gc_minor_end, <tracer>, <a>, _GcInfo, #{})")

GC_GOLDEN = f"""\
N ctl erlang:trace(<a>,true,[send,garbage_collection]) -> 1
A open w1 GC-RUNTIME 0..*: {_MINOR}
N enabled(send, <tracer>, <a>) -> trace
N trace(send, <tracer>, <a>, hi, #{{extra=><b>}})
A close w1
N enabled(send, <tracer>, <a>) -> trace
N trace(send, <tracer>, <a>, bye, #{{extra=><b>}})
"""

PAIR = ("enabled(gc_minor_start, <tracer>, <a>) -> trace\ntrace(gc_minor_start, <tracer>, <a>, "
        "[{heap_size,1},{heap_block_size,1},{old_heap_size,1},{old_heap_block_size,1},{stack_size,1},"
        "{recent_size,1},{mbuf_size,1},{bin_vheap_size,1},{bin_vheap_block_size,1},{bin_old_vheap_size,1},"
        "{bin_old_vheap_block_size,1},{wordsize,8}], #{})\n")
PAIR += PAIR.replace("gc_minor_start", "gc_minor_end")
CTL = "ctl erlang:trace(<a>,true,[send,garbage_collection]) -> 1\n"
HI = "enabled(send, <tracer>, <a>) -> trace\ntrace(send, <tracer>, <a>, hi, #{extra=><b>})\n"
BYE = HI.replace("hi", "bye")
START, END = PAIR.split("\n")[:2], PAIR.split("\n")[2:4]


def agree(golden: str, live: str) -> bool:
    """Return whether live agrees with golden in the default comparison."""
    return compare(parse_stream(golden, "golden"), parse_live_stream(live, "live")).agree


@pytest.mark.parametrize(
    ("live", "ok"),
    [
        pytest.param(CTL + HI + BYE, True, id="no-collection"),
        pytest.param(CTL + PAIR + HI + BYE, True, id="one-before"),
        pytest.param(CTL + HI + PAIR + PAIR + BYE, True, id="two-before-close"),
        pytest.param(CTL + HI + BYE + PAIR, False, id="after-the-window"),
        pytest.param(CTL + "\n".join(START) + "\n" + HI + "\n".join(END) + "\n" + BYE, False,
                     id="pair-split-by-a-case-line"),
        pytest.param(CTL + "\n".join(START) + "\n" + HI + BYE, False, id="start-without-end"),
        pytest.param(CTL + "\n".join(END + START) + "\n" + HI + BYE, False, id="end-before-start"),
        pytest.param(CTL + "\n".join(START[1:] + END[1:]) + "\n" + HI + BYE, False, id="without-enabled-lines"),
        pytest.param(CTL + PAIR.replace("<a>", "<b>") + HI + BYE, False, id="another-process"),
        pytest.param(CTL + PAIR.replace("-> trace", "-> discard") + HI + BYE, False, id="another-answer"),
        pytest.param(CTL + PAIR + BYE, False, id="case-line-missing"),
    ],
)
def test_runtime_collections_window(live: str, ok: bool) -> None:
    assert agree(GC_GOLDEN, live) is ok


def test_admitted_lines_are_counted() -> None:
    comparison = compare(parse_stream(GC_GOLDEN, "golden"), parse_live_stream(CTL + PAIR + HI + BYE, "live"))
    assert comparison.agree
    assert "4 live lines admitted by allowance windows" in comparison.summary()


_IN = "N enabled(in, <tracer>, <a>) -> trace ; N trace(in, <tracer>, <a>, {tcs_puppet,block,0}, #{})"
_OUT = "N enabled(out, <tracer>, <a>) -> trace ; N trace(out, <tracer>, <a>, {tcs_puppet,block,0}, #{})"
SCHED_GOLDEN = f"""\
N enabled(out, <tracer>, <a>) -> trace
N trace(out, <tracer>, <a>, {{tcs_puppet,block,0}}, #{{}})
A open w1 RUN-SIGNAL 0..1: {_IN} ... {_OUT}
N enabled(getting_linked, <tracer>, <a>) -> trace
N trace(getting_linked, <tracer>, <a>, <b>, #{{}})
A close w1
N enabled(in, <tracer>, <a>) -> trace
N trace(in, <tracer>, <a>, {{tcs_puppet,block,0}}, #{{}})
"""
OUT = "enabled(out, <tracer>, <a>) -> trace\ntrace(out, <tracer>, <a>, {tcs_puppet,block,0}, #{})\n"
IN = OUT.replace("out", "in")
LINKED = "enabled(getting_linked, <tracer>, <a>) -> trace\ntrace(getting_linked, <tracer>, <a>, <b>, #{})\n"


@pytest.mark.parametrize(
    ("live", "ok"),
    [
        pytest.param(OUT + LINKED + IN, True, id="none"),
        pytest.param(OUT + IN + LINKED + OUT + IN, True, id="pair-around-a-case-line"),
        pytest.param(OUT + IN + OUT + LINKED + IN, True, id="pair-before"),
        pytest.param(OUT + LINKED + IN + OUT + IN, True, id="pair-right-before-the-next-case-line"),
        pytest.param(OUT + IN + OUT + IN + LINKED + OUT + IN, False, id="over-the-limit"),
        pytest.param(OUT + IN + LINKED + IN, False, id="in-without-out"),
        pytest.param(OUT + OUT + LINKED + IN + IN, False, id="out-before-in"),
        pytest.param(OUT + LINKED + IN + IN + OUT, False, id="after-the-window"),
        pytest.param(OUT + IN.replace("block,0", "run,1") + LINKED + OUT.replace("block,0", "run,1") + IN, False,
                     id="another-function"),
    ],
)


def test_scheduling_window(live: str, ok: bool) -> None:
    assert agree(SCHED_GOLDEN, live) is ok


@pytest.mark.parametrize(
    ("golden", "why"),
    [
        pytest.param(f"A open w1 GC-RUNTIME 0..*: {_MINOR}\n", "never closed", id="unclosed"),
        pytest.param("A close w2\n", "closed but not open", id="close-unknown"),
        pytest.param(f"A open w1 GC-RUNTIME 0..*: {_MINOR}\nA open w1 GC-RUNTIME 0..*: {_MINOR}\nA close w1\n",
                     "opened twice", id="opened-twice"),
        pytest.param("A open w1 GC-RUNTIME 0..0: N enabled(in, <tracer>, <a>) -> trace\nA close w1\n",
                     "not 'open", id="limit-zero"),
        pytest.param("A open w1 GC-RUNTIME 0..*: N ctl erlang:halt() -> ok\nA close w1\n",
                     "not a callback or msg line", id="ctl-in-template"),
        pytest.param("A open w1 GC-RUNTIME 0..*: N enabled(in, <tracer>, <a>) -> trace ;  ; x\nA close w1\n",
                     "empty template piece", id="empty-piece"),
        pytest.param("A open w1 GC-RUNTIME 0..*: N enabled(trace_status, <tracer>, <a>) -> trace\nA close w1\n",
                     "has class N", id="wrong-class"),
    ],
)
def test_malformed_windows_are_refused(golden: str, why: str) -> None:
    with pytest.raises(StreamError, match=why):
        parse_stream(golden, "golden")


def _golden_case(case: str) -> str:
    """The model's golden stream of a corpus case."""
    return (REPO / "golden" / f"{case}.stream").read_text()


_C_OUT = "enabled(out, <tracer>, <c>) -> trace\ntrace(out, <tracer>, <c>, {tcs_puppet,block,0}, #{})\n"
_C_IN = _C_OUT.replace("out", "in")
_C_LINKED = "enabled(getting_linked, <tracer>, <c>) -> trace\ntrace(getting_linked, <tracer>, <c>, <d>, #{})\n"
_C_CTL = "ctl erlang:trace(<c>,true,[running,procs]) -> 1\n"


@pytest.mark.parametrize(
    ("live", "ok"),
    [
        pytest.param(_C_CTL + _C_LINKED + _C_IN, True, id="otp25-no-schedule"),
        pytest.param(_C_CTL + _C_IN + _C_LINKED + _C_OUT + _C_IN, True, id="otp27-in-linked-out"),
        pytest.param(_C_CTL + _C_IN + _C_OUT + _C_IN + _C_LINKED + _C_OUT + _C_IN, True, id="harness-poke-too"),
        pytest.param(_C_CTL + _C_LINKED + _C_IN + _C_IN + _C_OUT, False, id="after-the-wake-up"),
        pytest.param(_C_CTL + _C_IN + _C_LINKED + _C_IN, False, id="woken-twice-without-out"),
    ],
)
def test_the_models_blocked_signals_window(live: str, ok: bool) -> None:
    """The window the model writes for run_blocked_link_signal admits what OTP 25, 27 and 29 do,
    and nothing after the wake-up."""
    assert agree(_golden_case("run_blocked_link_signal"), live) is ok
