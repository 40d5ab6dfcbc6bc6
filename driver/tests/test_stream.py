"""Tests of tcs_driver.stream: splitting, classification, parsing and live normalisation."""

from __future__ import annotations

import pytest

from tcs_driver.stream import Line, StreamError, classify, parse_body, parse_line, parse_live_stream, parse_stream
from tcs_driver.stream.lex import split_args
from tcs_driver.stream.normalise import normalise_live


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param("", [], id="empty"),
        pytest.param("send, <tracer>, <a>", ["send", "<tracer>", "<a>"], id="plain-pids"),
        pytest.param("<<1,2>>, <<>>, x", ["<<1,2>>", "<<>>", "x"], id="binaries"),
        pytest.param('<<"a, b">>, y', ['<<"a, b">>', "y"], id="binary-with-string"),
        pytest.param("'a, b', 'c'", ["'a, b'", "'c'"], id="quoted-atom-with-comma"),
        pytest.param(r"'it\'s, x', z", [r"'it\'s, x'", "z"], id="quoted-atom-escaped-quote"),
        pytest.param(r"'back\\', z", [r"'back\\'", "z"], id="quoted-atom-escaped-backslash"),
        pytest.param('"x, \\"y", z', ['"x, \\"y"', "z"], id="string-with-escape"),
        pytest.param("'<a>, {', b", ["'<a>, {'", "b"], id="quoted-atom-with-brackets"),
        pytest.param(
            "#{k=>#{x=><a>,y=>[1,2]}}, <b>",
            ["#{k=>#{x=><a>,y=>[1,2]}}", "<b>"],
            id="nested-maps-arrow-then-pid",
        ),
        pytest.param("#{extra=><<1>>}, q", ["#{extra=><<1>>}", "q"], id="map-arrow-then-binary"),
        pytest.param("{a,<b>,[c|d]}, (x, y)", ["{a,<b>,[c|d]}", "(x, y)"], id="nested-brackets"),
        pytest.param("<?>, <tracer>", ["<?>", "<tracer>"], id="unknown-pid"),
    ],
)
def test_split_args(text: str, expected: list[str]) -> None:
    assert split_args(text) == expected


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        pytest.param("{a, b", "col 1: bracket never closed (missing '}')", id="unclosed-tuple"),
        pytest.param("a]", "col 2: unbalanced ']'", id="stray-closer"),
        pytest.param("{a]", "col 3: unbalanced ']' (expected '}')", id="mismatched"),
        pytest.param("'abc, d", "col 1: unterminated quoted atom", id="unterminated-atom"),
        pytest.param('"abc', "col 1: unterminated string", id="unterminated-string"),
        pytest.param("a,b", "col 2: top-level ',' not followed by a space", id="bare-comma"),
        pytest.param("a, , b", "empty or blank-padded argument", id="empty-arg"),
        pytest.param("< a>", "col 1: '<' is neither a pid", id="bad-pid"),
        pytest.param("<<1,2", "missing '>>'", id="unclosed-binary"),
    ],
)
def test_split_args_errors(text: str, fragment: str) -> None:
    with pytest.raises(StreamError) as err:
        split_args(text)
    assert fragment in str(err.value)


@pytest.mark.parametrize(
    ("body", "cls"),
    [
        pytest.param("enabled(trace_status, <tracer>, <a>) -> trace", "I", id="status-probe"),
        pytest.param("enabled(trace_status, <tracer>, <a>) -> remove", "I", id="status-remove"),
        pytest.param("enabled_send(trace_status, <tracer>, <a>) -> trace", "I", id="status-other-callback"),
        pytest.param("enabled_send(send, <tracer>, <a>) -> trace", "N", id="enabled-send"),
        pytest.param("trace(send, <tracer>, <a>, trace_status, #{})", "N", id="status-not-the-tag"),
        pytest.param("msg(<tracer>, {trace,<a>,trace_status})", "N", id="msg"),
        pytest.param("ctl erlang:trace(<a>,true,[send]) -> 1", "N", id="ctl"),
        pytest.param("enabled('trace_status x', <tracer>, <a>) -> trace", "N", id="quoted-lookalike"),
    ],
)
def test_classify(body: str, cls: str) -> None:
    assert classify(body) == cls


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        pytest.param(
            "enabled_send(send, <tracer>, <a>) -> trace",
            Line("N", "enabled_send(send, <tracer>, <a>) -> trace", "enabled", "enabled_send", "send", "<a>"),
            id="enabled",
        ),
        pytest.param(
            "trace(send, <tracer>, <a>, hello, #{extra=><b>})",
            Line("N", "trace(send, <tracer>, <a>, hello, #{extra=><b>})", "trace", "trace", "send", "<a>"),
            id="trace",
        ),
        pytest.param(
            "trace_receive('receive', <tracer>, <b>, 'a, b', #{})",
            Line("N", "trace_receive('receive', <tracer>, <b>, 'a, b', #{})", "trace", "trace_receive", "'receive'", "<b>"),
            id="trace-quoted-tag",
        ),
        pytest.param(
            "enabled(trace_status, <tracer>, <c>) -> trace",
            Line("I", "enabled(trace_status, <tracer>, <c>) -> trace", "enabled", "enabled", "trace_status", "<c>"),
            id="informative",
        ),
        pytest.param(
            "msg(<tracer>, {trace,<a>,<b>})",
            Line("N", "msg(<tracer>, {trace,<a>,<b>})", "msg", None, None, "<a> to <tracer>"),
            id="msg-groups-by-tracee-and-tracer",
        ),
        pytest.param(
            "msg(<sp>, {trace,<a>,send,hi,<sp>})",
            Line("N", "msg(<sp>, {trace,<a>,send,hi,<sp>})", "msg", None, None, "<a> to <sp>"),
            id="msg-of-a-session-tracer",
        ),
        pytest.param(
            "msg(<sp>, {monitor,<a>,long_message_queue,true})",
            Line("N", "msg(<sp>, {monitor,<a>,long_message_queue,true})", "msg", None, None, "monitor <a> to <sp>"),
            id="msg-system-monitor-own-group",
        ),
        pytest.param(
            "msg(<tracer>, {trace,'<x>',<tracer>,<b>})",
            Line("N", "msg(<tracer>, {trace,'<x>',<tracer>,<b>})", "msg", None, None, "<b> to <tracer>"),
            id="msg-skips-tracer-and-quoted",
        ),
        pytest.param(
            "ctl erlang:trace(<a>,true,[send]) -> 1",
            Line("N", "ctl erlang:trace(<a>,true,[send]) -> 1", "ctl", None, None, "ctl"),
            id="ctl-result",
        ),
        pytest.param(
            "ctl erlang:trace(<a>,true,[bogus]) raises error:badarg",
            Line("N", "ctl erlang:trace(<a>,true,[bogus]) raises error:badarg", "ctl", None, None, "ctl"),
            id="ctl-raises",
        ),
        pytest.param(
            "ctl <a> link(<b>) raises error:noproc",
            Line("N", "ctl <a> link(<b>) raises error:noproc", "ctl", None, None, "ctl"),
            id="ctl-step-raises",
        ),
        pytest.param(
            "ctl <a> erlang:match_spec_test([],[{'_',[],[]}],trace) -> {ok,true,[],[]}",
            Line("N", "ctl <a> erlang:match_spec_test([],[{'_',[],[]}],trace) -> {ok,true,[],[]}", "ctl", None, None,
                 "ctl"),
            id="ctl-process-call",
        ),
        pytest.param(
            "ctl receive() -> {trace_delivered,<a>,_Ref}",
            Line("N", "ctl receive() -> {trace_delivered,<a>,_Ref}", "ctl", None, None, "ctl"),
            id="ctl-receive",
        ),
        pytest.param(
            "ctl erlang:trace_pattern({tcs_target,id,1},[{'_',[],[{return_trace}]}],[global]) -> 1",
            Line(
                "N",
                "ctl erlang:trace_pattern({tcs_target,id,1},[{'_',[],[{return_trace}]}],[global]) -> 1",
                "ctl",
                None,
                None,
                "ctl",
            ),
            id="ctl-pattern",
        ),
    ],
)
def test_parse_body(body: str, expected: Line) -> None:
    line = parse_body(body)
    assert line == expected
    assert line.text() == f"{expected.cls} {body}"


def test_parse_line_roundtrips_text() -> None:
    text = "N trace(send, <tracer>, <a>, hello, #{extra=><b>})"
    assert parse_line(text).text() == text


@pytest.mark.parametrize(
    ("body", "fragment"),
    [
        pytest.param("trace(send, <tracer>, <a>)", "f:3: col 1: trace needs 5 arguments, got 3", id="trace-arity"),
        pytest.param("enabled_send(send, <tracer>) -> trace", "f:3: col 1: enabled_send needs 3 arguments", id="enabled-arity"),
        pytest.param("enabled(send, <tracer>, <a>)", "f:3: col 29: enabled line without ' -> ANSWER'", id="enabled-no-answer"),
        pytest.param("trace(send, <tracer>, <a>, x, #{}) -> ok", "f:3: col 35: text after the trace/5 call", id="trace-tail"),
        pytest.param("foo(send, <tracer>, <a>) -> trace", "f:3: col 1: 'foo' is not a callback", id="unknown-callback"),
        pytest.param("ctl erlang:trace(<a>,true,[send])", "f:3: col 1: ctl line without ' -> TERM'", id="ctl-no-result"),
        pytest.param("ctl erlang:trace(<a>) raises badarg", "is not CLASS:REASON", id="ctl-bad-raise"),
        pytest.param("ctl trace(<a>) -> 1", "f:3: col 5: ctl call 'trace(<a>)' is not M:F", id="ctl-no-module"),
        pytest.param("ctl <a> link(<b>) -> true", "col 5: ctl call '<a> link(<b>)' is not M:F(Args), receive() or <P> M:F(Args)",
                     id="ctl-step-result"),
        pytest.param("ctl step(<a>,{link,<b>}) raises error:noproc", "is not M:F(Args), receive() or <P> M:F(Args) or <P> Step(Args)",
                     id="ctl-step-old-form"),
        pytest.param("msg(<tracer>)", "f:3: col 5: msg line needs 2 arguments", id="msg-arity"),
        pytest.param("msg(<tracer>, {trace,<a>", "f:3:", id="msg-unclosed"),
        pytest.param("trace(send, <tracer>, <a>, x, #{}", "f:3: col 6: bracket never closed", id="unclosed-call"),
        pytest.param("trace(send, <tracer>, <a>, x, #{})  % OPTS-EXTRA", "f:3: col 37: '%' comment", id="explain-suffix"),
        pytest.param(" ctl m:f() -> 1", "f:3: leading or trailing whitespace", id="leading-space"),
        pytest.param("", "f:3: empty line body", id="empty"),
    ],
)
def test_parse_body_errors(body: str, fragment: str) -> None:
    with pytest.raises(StreamError) as err:
        parse_body(body, "f:3")
    assert fragment in str(err.value)


def test_parse_line_error_columns_count_the_class_prefix() -> None:
    with pytest.raises(StreamError, match=r"^g:1: col 8: bracket never closed"):
        parse_line("N trace(send, <tracer>, <a>, x, #{}", "g:1")


GOLDEN = """\
% tcs stream v1: send_basic
N ctl erlang:trace(<a>,true,[send]) -> 1

I enabled(trace_status, <tracer>, <a>) -> trace
N enabled_send(send, <tracer>, <a>) -> trace
N trace(send, <tracer>, <a>, hello, #{extra=><b>})
"""


def test_parse_stream_skips_comments_and_blanks() -> None:
    lines = parse_stream(GOLDEN, "golden/send_basic.stream")
    assert [line.text() for line in lines] == [raw for raw in GOLDEN.splitlines()[1:] if raw]
    assert [line.kind for line in lines] == ["ctl", "enabled", "enabled", "trace"]
    assert [line.group for line in lines] == ["ctl", "<a>", "<a>", "<a>"]


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        pytest.param("% h\nN ctl m:f() -> 1\nN enabled(trace_status, <tracer>, <a>) -> trace\n", "s.stream:3: col 1: class N but the line is informative (I)", id="status-marked-N"),
        pytest.param("I enabled_send(send, <tracer>, <a>) -> trace\n", "s.stream:1: col 1: class I but the line is normative (N)", id="send-marked-I"),
        pytest.param("\n\nX ctl m:f() -> 1\n", "s.stream:3: col 1: line does not start with 'N ' or 'I '", id="bad-class"),
        pytest.param("Nctl m:f() -> 1\n", "s.stream:1: col 1: line does not start", id="no-space"),
        pytest.param("N ctl m:f() -> 1  % RULE-X\n", "s.stream:1: col 19: '%' comment", id="explain-suffix"),
        pytest.param("N ctl m:f() -> 1 \n", "s.stream:1: leading or trailing whitespace", id="trailing-space"),
    ],
)
def test_parse_stream_errors_name_the_line(text: str, fragment: str) -> None:
    with pytest.raises(StreamError) as err:
        parse_stream(text, "s.stream")
    assert fragment in str(err.value)


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        pytest.param(
            "trace(send, <tracer>, <a>, hello, #{extra=><b>,scheduler_id=>3})",
            "trace(send, <tracer>, <a>, hello, #{extra=><b>,scheduler_id=>_SchedulerId})",
            id="positive-integer-replaced",
        ),
        pytest.param(
            "trace_send(send, <tracer>, <a>, hello, #{scheduler_id=>12,timestamp=>monotonic})",
            "trace_send(send, <tracer>, <a>, hello, #{scheduler_id=>_SchedulerId,timestamp=>monotonic})",
            id="first-key-replaced",
        ),
        pytest.param(
            "trace(send, <tracer>, <a>, hello, #{scheduler_id=>0})",
            "trace(send, <tracer>, <a>, hello, #{scheduler_id=>0})",
            id="zero-kept",
        ),
        pytest.param(
            "trace(send, <tracer>, <a>, hello, #{scheduler_id=>-1})",
            "trace(send, <tracer>, <a>, hello, #{scheduler_id=>-1})",
            id="negative-kept",
        ),
        pytest.param(
            "trace(send, <tracer>, <a>, hello, #{scheduler_id=>undefined})",
            "trace(send, <tracer>, <a>, hello, #{scheduler_id=>undefined})",
            id="atom-kept",
        ),
        pytest.param(
            "trace(send, <tracer>, <a>, #{scheduler_id=>3}, #{})",
            "trace(send, <tracer>, <a>, #{scheduler_id=>3}, #{})",
            id="term-not-opts-kept",
        ),
        pytest.param(
            "trace(send, <tracer>, <a>, hello, #{extra=>#{scheduler_id=>3}})",
            "trace(send, <tracer>, <a>, hello, #{extra=>#{scheduler_id=>3}})",
            id="nested-map-kept",
        ),
        pytest.param(
            "trace(send, <tracer>, <a>, hello, #{timestamp=>timestamp})",
            "trace(send, <tracer>, <a>, hello, #{timestamp=>timestamp})",
            id="timestamp-kind-kept",
        ),
        pytest.param(
            "enabled_send(send, <tracer>, <a>) -> trace",
            "enabled_send(send, <tracer>, <a>) -> trace",
            id="enabled-untouched",
        ),
        pytest.param("trace(send, <tracer>", "trace(send, <tracer>", id="malformed-untouched"),
    ],
)
def test_normalise_live(body: str, expected: str) -> None:
    assert normalise_live(body) == expected


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        pytest.param("msg(<tracer>, {trace_ts,<a>,send,hi,<b>,{1764,5,30}})",
                     "msg(<tracer>, {trace_ts,<a>,send,hi,<b>,_Timestamp})", id="now-triple"),
        pytest.param("msg(<s1>, {trace_ts,<b>,'receive',hi,-576460751303423})",
                     "msg(<s1>, {trace_ts,<b>,'receive',hi,_MonotonicTimestamp})", id="monotonic-integer"),
        pytest.param("msg(<s1>, {trace_ts,<b>,'receive',hi,{-5764607493,-576460752303423473}})",
                     "msg(<s1>, {trace_ts,<b>,'receive',hi,_StrictMonotonicTimestamp})", id="strict-pair"),
        pytest.param("msg(<s1>, {trace_ts,<a>,call,{tcs_target,id,[1]},hello,{1,2,3}})",
                     "msg(<s1>, {trace_ts,<a>,call,{tcs_target,id,[1]},hello,_Timestamp})", id="after-result"),
        pytest.param("msg(<tracer>, {trace,<a>,send,hi,{1,2,3}})",
                     "msg(<tracer>, {trace,<a>,send,hi,{1,2,3}})", id="plain-trace-kept"),
        pytest.param("msg(<tracer>, {trace_ts,<a>,send,hi,<b>,{1,-2,3}})",
                     "msg(<tracer>, {trace_ts,<a>,send,hi,<b>,{1,-2,3}})", id="negative-in-triple-kept"),
        pytest.param("msg(<tracer>, {trace_ts,<a>,send,hi,<b>,now})",
                     "msg(<tracer>, {trace_ts,<a>,send,hi,<b>,now})", id="atom-kept"),
        pytest.param("msg(<tracer>, {trace_ts,<a>,send,{1,2,3}})",
                     "msg(<tracer>, {trace_ts,<a>,send,{1,2,3}})", id="too-short-kept"),
        pytest.param("msg(<sb>, {trace,<a>,gc_major_start,"
                     "[{wordsize,0},{old_heap_block_size,0},{heap_block_size,233},{mbuf_size,0},{recent_size,0},{stack_size,7},{old_heap_size,0},{heap_size,7},{bin_vheap_size,0},{bin_vheap_block_size,46422},{bin_old_vheap_size,0},{bin_old_vheap_block_size,46422}]})",
                     "msg(<sb>, {trace,<a>,gc_major_start,_GcInfo})", id="gc-info"),
        pytest.param("msg(<tracer>, {trace_ts,<a>,gc_minor_end,"
                     "[{wordsize,0},{old_heap_block_size,0},{heap_block_size,233},{mbuf_size,0},{recent_size,0},{stack_size,7},{old_heap_size,0},{heap_size,7},{bin_vheap_size,0},{bin_vheap_block_size,46422},{bin_old_vheap_size,0},{bin_old_vheap_block_size,46422}],{1,2,3}})",
                     "msg(<tracer>, {trace_ts,<a>,gc_minor_end,_GcInfo,_Timestamp})", id="gc-info-and-time-stamp"),
        pytest.param("msg(<sb>, {trace,<a>,gc_major_start,[{no_such_key,0}]})",
                     "msg(<sb>, {trace,<a>,gc_major_start,[{no_such_key,0}]})", id="gc-info-unknown-key-kept"),
        pytest.param("msg(<sb>, {trace,<a>,send,[{heap_size,0}],<b>})",
                     "msg(<sb>, {trace,<a>,send,[{heap_size,0}],<b>})", id="info-shaped-message-kept"),
    ],
)
def test_normalise_live_process_time_stamp(body: str, expected: str) -> None:
    """TS-PROCESS-MESSAGE: the time stamp that ends a trace_ts message is replaced only when its shape is one
    of a time stamp's; GC-INFO: a gc_* message's Info list only when it is one (fuzz group J1)."""
    assert normalise_live(body) == expected


def test_parse_live_stream_normalises_and_classifies() -> None:
    text = (
        "enabled(trace_status, <tracer>, <a>) -> trace\n"
        "\n"
        "trace(send, <tracer>, <a>, hi, #{scheduler_id=>2})\n"
    )
    lines = parse_live_stream(text, "live")
    assert [line.text() for line in lines] == [
        "I enabled(trace_status, <tracer>, <a>) -> trace",
        "N trace(send, <tracer>, <a>, hi, #{scheduler_id=>_SchedulerId})",
    ]


def test_parse_live_stream_error_names_line() -> None:
    with pytest.raises(StreamError, match=r"^live:2: "):
        parse_live_stream("ctl m:f() -> 1\nnonsense\n", "live")
