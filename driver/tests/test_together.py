"""Tests of the together blocks of a golden stream (PROTOCOLS.md section 6, "Together blocks"): in
each group the chains of a block interleave in any order, each chain's lines in order, and a join
holds its chain until the sender's chain has passed the sync; nothing else is admitted."""

from __future__ import annotations

import pytest

from tcs_driver.diff import compare
from tcs_driver.stream import StreamError, parse_live_stream, parse_stream


def _pair(tag: str, term: str) -> str:
    return f"enabled({tag}, <tracer>, <b>) -> trace\ntrace({tag}, <tracer>, <b>, {term}, #{{}})\n"


LINK, UNLINK = _pair("getting_linked", "<a>"), _pair("getting_unlinked", "<a>")
RECV4, RECV3 = _pair("'receive'", "4"), _pair("'receive'", "3")
CALL4, CALL3 = _pair("call", "{tcs_target,id,[4]}"), _pair("call", "{tcs_target,id,[3]}")
CTL = "ctl erlang:trace(<b>,true,['receive',procs,call]) -> 1\n"
SEND = "enabled(send, <tracer>, <a>) -> trace\ntrace(send, <tracer>, <a>, 4, #{extra=><b>})\n"


def _golden(text: str) -> str:
    return "".join(f"N {line}\n" for line in text.splitlines())


# `together`: a link b, a send b 4, b recv, b call id(4), a unlink b, a send b 3, b recv, b call
# id(3), `end` (the model's stream of such a block, b traced for 'receive', procs and call)
GOLDEN = (_golden(CTL) + "A together w1 BLOCK-TOGETHER\nA chain w1 <a>\n" + _golden(LINK + RECV4)
          + "A sync w1 1 <b>\nA chain w1 <b>\nA join w1 1 <b>\n" + _golden(CALL4)
          + "A chain w1 <a>\n" + _golden(UNLINK + RECV3)
          + "A sync w1 2 <b>\nA chain w1 <b>\nA join w1 2 <b>\n" + _golden(CALL3) + "A apart w1\n")


def agree(golden: str, live: str) -> bool:
    """Return whether live agrees with golden in the default comparison."""
    return compare(parse_stream(golden, "golden"), parse_live_stream(live, "live")).agree


@pytest.mark.parametrize(
    ("live", "ok"),
    [
        pytest.param(CTL + LINK + RECV4 + CALL4 + UNLINK + RECV3 + CALL3, True, id="as-written"),
        pytest.param(CTL + LINK + RECV4 + UNLINK + RECV3 + CALL4 + CALL3, True, id="sender-first"),
        pytest.param(CTL + LINK + RECV4 + UNLINK + CALL4 + RECV3 + CALL3, True, id="unlink-before-call"),
        pytest.param(CTL + LINK + CALL4 + RECV4 + UNLINK + RECV3 + CALL3, False, id="call-before-its-receive"),
        pytest.param(CTL + LINK + RECV4 + UNLINK + CALL4 + CALL3 + RECV3, False, id="second-call-before-its-receive"),
        pytest.param(CTL + UNLINK + LINK + RECV4 + RECV3 + CALL4 + CALL3, False, id="sender-chain-out-of-order"),
        pytest.param(CTL + LINK + RECV4 + UNLINK + RECV3 + CALL3 + CALL4, False, id="receiver-chain-out-of-order"),
        pytest.param(CTL + LINK + RECV4 + CALL4 + UNLINK + RECV3, False, id="a-line-missing"),
        pytest.param(CTL + LINK + RECV4 + CALL4 + CALL4 + UNLINK + RECV3 + CALL3, False, id="a-line-too-many"),
        pytest.param(CTL + LINK + RECV4 + CALL4 + UNLINK + RECV3 + CALL3 + SEND, False, id="another-group's-line"),
    ],
)
def test_chains_interleave_as_the_joins_allow(live: str, ok: bool) -> None:
    assert agree(GOLDEN, live) is ok


def test_a_differing_group_names_the_block() -> None:
    result = compare(parse_stream(GOLDEN, "golden"), parse_live_stream(CTL + LINK + CALL4, "live"))
    [group] = result.differing()
    assert group.windows == ("w1 together BLOCK-TOGETHER",)
    assert "A " not in "".join(ln.text() for ln in group.golden)  # the diff shows the case's lines only


def test_a_group_the_joins_do_not_reach_takes_any_interleaving() -> None:
    # a's send is in a's group, where no join is: with b's lines it interleaves in any way
    golden = (_golden(CTL) + "A together w1 BLOCK-TOGETHER\nA chain w1 <a>\n" + _golden(SEND)
              + "A chain w1 <b>\n" + _golden(CALL4) + "A apart w1\n")
    assert agree(golden, CTL + CALL4 + SEND)
    assert agree(golden, CTL + SEND + CALL4)
    assert not agree(golden, CTL + SEND)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        pytest.param("A together w1 BLOCK-TOGETHER\nA together w2 BLOCK-TOGETHER\nA apart w2\nA apart w1\n",
                     "together w2 inside w1", id="nested"),
        pytest.param("A chain w1 <a>\n", "out of a together block", id="chain-outside"),
        pytest.param("A together w1 BLOCK-TOGETHER\nA apart w2\n", "out of a together block", id="other-id"),
        pytest.param("A together w1 BLOCK-TOGETHER\nA open w2 GC-RUNTIME 0..*: N enabled(in, <tracer>, <a>) -> trace"
                     "\nA close w2\nA apart w1\n", "inside together w1", id="window-inside"),
        pytest.param("A together w1 BLOCK-TOGETHER\n", "never apart", id="never-apart"),
        pytest.param("A together w1 BLOCK-TOGETHER\nA sync w1 0 <b>\nA apart w1\n", "not 'together", id="key-zero"),
    ],
)
def test_malformed_blocks_are_refused(text: str, message: str) -> None:
    with pytest.raises(StreamError, match=message):
        parse_stream(text, "golden")
