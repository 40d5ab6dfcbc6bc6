"""C-760: from OTP 27 on a process receives a message that reaches it in a timed wait only when it is
next scheduled, so the `'receive'` of the message may come after the wait's `timeout` event. The
release's prediction admits both orders (an either-or, race RECV-TIMED-WAIT); the documents' stream
admits the message first only (RECV-TIMED-WAIT), and OTP 25's prediction the timeout first only (C-490)."""

from __future__ import annotations

import pytest

from tcs_driver import corpus
from tcs_driver.diff import compare
from tcs_driver.stream import parse_live_stream, parse_stream

_HELLO = "enabled('receive', <tracer>, <a>) -> trace\ntrace('receive', <tracer>, <a>, hello, #{})\n"
_TIMEOUT = _HELLO.replace("hello", "timeout")


def _live(layout: corpus.Layout, *tail: str) -> str:
    """recv_timed_wait as a node would record it: its golden lines up to b's send, then tail."""
    golden = (layout.golden / "recv_timed_wait.stream").read_text().splitlines()
    head = [line[2:].split(" %", 1)[0] for line in golden[1:] if "'receive', <tracer>, <a>" not in line]
    return "\n".join(head) + "\n" + "".join(tail)


@pytest.mark.parametrize(
    ("release", "tail", "ok"),
    [
        pytest.param(None, (_HELLO, _TIMEOUT), True, id="documents-message-first"),
        pytest.param(None, (_TIMEOUT, _HELLO), False, id="documents-timeout-first"),
        pytest.param("25", (_TIMEOUT, _HELLO), True, id="otp25-timeout-first"),
        pytest.param("25", (_HELLO, _TIMEOUT), False, id="otp25-message-first"),
        pytest.param("27", (_HELLO, _TIMEOUT), True, id="otp27-message-first"),
        pytest.param("27", (_TIMEOUT, _HELLO), True, id="otp27-timeout-first"),
        pytest.param("29", (_TIMEOUT, _HELLO), True, id="otp29-timeout-first"),
        pytest.param("29", (_TIMEOUT,), False, id="otp29-message-missing"),
        pytest.param("29", (_TIMEOUT, _HELLO, _HELLO), False, id="otp29-message-twice"),
    ],
)
def test_a_timed_waits_two_events_in_the_orders_each_release_admits(layout: corpus.Layout, release: str | None,
                                                                      tail: tuple[str, ...], ok: bool) -> None:
    path = str(layout.case_file("recv_timed_wait"))
    text = corpus.model(layout, "sim", path, *(("--release", release) if release else ()))
    assert compare(parse_stream(text, "prediction"), parse_live_stream(_live(layout, *tail), "live")).agree is ok
