"""Trace sessions on the driver side: which lines a case's tracers let the live side see, the
job's session tracers, and the order of a live run's callbacks across several tracer states."""
from __future__ import annotations

from pathlib import Path, PurePosixPath

import pytest

from tcs_driver import corpus, diff, node, stream


def _case(tracer: str, *sessions: tuple[str, str]) -> corpus.Case:
    return corpus.Case(Path("x.tcs"), "x", ["R"], 27, [], tracer, [],
                       [corpus.Session(name, kind, []) for name, kind in sessions])


@pytest.mark.parametrize(
    "case, kinds, hidden",
    [
        pytest.param(_case("recorder"), diff.DEFAULT_OBSERVABLE, set(), id="legacy-recorder"),
        pytest.param(_case("erl_msg_tracer"), diff.MSG_TRACER_OBSERVABLE, {"<tracer>", "<meta>"}, id="legacy-example"),
        pytest.param(_case("recorder", ("sp", "process")), diff.ALL_KINDS, set(), id="recorder-and-process"),
        pytest.param(_case("erl_msg_tracer", ("sa", "recorder"), ("sm", "erl_msg_tracer")), diff.ALL_KINDS,
                     {"<tracer>", "<meta>", "<sm>"}, id="example-and-recorder-sessions"),
        pytest.param(_case("erl_msg_tracer", ("sp", "process")), diff.MSG_TRACER_OBSERVABLE, {"<tracer>", "<meta>"},
                     id="example-and-process"),
    ],
)
def test_what_the_tracers_let_us_observe(case: corpus.Case, kinds: frozenset[str], hidden: set[str]) -> None:
    assert corpus.observable_kinds(case) == kinds
    assert corpus.hidden_states(case) == hidden


def test_hidden_states_drop_only_their_callback_lines() -> None:
    lines = [stream.parse_body(b) for b in (
        "enabled(send, <sm>, <a>) -> trace",
        "trace(send, <sm>, <a>, hi, #{extra=><b>})",
        "msg(<sm>, {trace,<a>,<b>})",
        "enabled(send, <sa>, <a>) -> trace",
    )]
    kept = corpus.visible(lines, frozenset({"<sm>"}))
    assert [ln.body for ln in kept] == ["msg(<sm>, {trace,<a>,<b>})", "enabled(send, <sa>, <a>) -> trace"]


def test_lines_know_their_tracer_state() -> None:
    assert stream.parse_body("trace(send, <sa>, <a>, hi, #{})").state == "<sa>"
    assert stream.parse_body("msg(<sp>, {trace,<a>,send,hi,<b>})").state == "<sp>"
    assert stream.parse_body("ctl trace:session_info(all) -> []").state is None


def test_messages_to_different_tracers_are_not_ordered_against_each_other() -> None:
    golden = stream.parse_stream("N msg(<sp>, {trace,<a>,send,one,<b>})\nN msg(<sq>, {trace,<a>,send,one,<b>})\n"
                                 "N enabled(send, <sa>, <a>) -> trace\n", "g")
    live = stream.parse_live_stream("enabled(send, <sa>, <a>) -> trace\nmsg(<sq>, {trace,<a>,send,one,<b>})\n"
                                    "msg(<sp>, {trace,<a>,send,one,<b>})\n", "l")
    assert diff.compare(golden, live, observable=diff.ALL_KINDS).agree
    reordered = stream.parse_live_stream("msg(<sp>, {trace,<a>,send,two,<b>})\nmsg(<sp>, {trace,<a>,send,one,<b>})\n", "l")
    one_tracer = stream.parse_stream("N msg(<sp>, {trace,<a>,send,one,<b>})\nN msg(<sp>, {trace,<a>,send,two,<b>})\n", "g")
    assert not diff.compare(one_tracer, reordered, observable=diff.ALL_KINDS).agree


def test_the_job_names_each_session_recorder() -> None:
    text = node.job_terms(PurePosixPath("/p/plan.terms"), PurePosixPath("/p/gate"), "tcs_rec_0000",
                          PurePosixPath("/p/tcs_rec_0000"), 5000,
                          (node.SessionTracer("sa", "tcs_rec_0080", Path("/p/tcs_rec_0080")),
                           node.SessionTracer("sb", "tcs_rec_0000", Path("/p/tcs_rec_0000"))))
    assert '{session_tracers, [{sa, tcs_rec_0080, "/p/tcs_rec_0080"}, {sb, tcs_rec_0000, "/p/tcs_rec_0000"}]}.' in text
    plain = node.job_terms(PurePosixPath("/p/plan.terms"), PurePosixPath("/p/gate"), "m", PurePosixPath("/p/m"), 5000)
    assert "{session_tracers, []}." in plain


def test_session_cases_build_their_recorders(layout: corpus.Layout, otp_node) -> None:
    _, _, include = otp_node
    case = corpus.load_case(layout, layout.case_file("sess_isolation_callbacks"))
    tracers = corpus.session_tracers(layout, case, include)
    assert [(t.session, t.module) for t in tracers] == [("sa", "tcs_rec_0080"), ("sb", "tcs_rec_8080")]
    assert all(t.library.with_suffix(".so").exists() for t in tracers)


def test_a_live_run_merges_control_lines_and_callbacks_in_order(layout: corpus.Layout, otp_node) -> None:
    """Control lines and callback records are numbered from one counter and printed in that
    order (on the host's OTP, for a case of the legacy session)."""
    otp, _, include = otp_node
    case = corpus.load_case(layout, layout.case_file("status_trace_at_start"))
    result = corpus.run_case(layout, case, otp, include)
    assert result.status == "pass", result.detail
    ctl = result.live.index("N ctl erlang:trace(<a>,true,[send]) -> 1")
    send = result.live.index("N enabled(send, <tracer>, <a>) -> trace")
    assert ctl < send < result.live.index("N trace(send, <tracer>, <a>, one, #{extra=><b>})")
