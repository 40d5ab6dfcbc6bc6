"""Tests of the comparison rules for what the documents leave to the implementation: ports in
the stream, gc Info placeholders, informative scheduling and fullsweep lines
(classify_implementation_defined) and repeated enabled(seq_trace) lines (collapse_repeats)."""

from __future__ import annotations

import pytest

from tcs_driver.diff import collapse_repeats, compare
from tcs_driver.stream import StreamError, parse_body, parse_live_stream, parse_stream
from tcs_driver.stream.normalise import normalise_live

GC_INFO = ("[{wordsize,0},{old_heap_block_size,0},{heap_block_size,233},{mbuf_size,0},{recent_size,0},"
           "{stack_size,7},{old_heap_size,0},{heap_size,7},{bin_vheap_size,0},{bin_vheap_block_size,46422},"
           "{bin_old_vheap_size,0},{bin_old_vheap_block_size,46422}]")


def classes(text: str) -> list[str]:
    """Return the class and body of each live line of text, after classification."""
    return [line.text() for line in parse_live_stream(text, "live")]


def test_port_names_are_tracees_and_groups() -> None:
    line = parse_body("trace_ports(getting_linked, <tracer>, <port:x>, <a>, #{})")
    assert (line.kind, line.tag, line.group) == ("trace", "getting_linked", "<port:x>")
    assert parse_body("msg(<tracer>, {trace,<port:x>,<a>})").group == "<port:x> to <tracer>"
    assert parse_body("trace(send, <tracer>, <port:?>, x, #{})").group == "<port:?>"


@pytest.mark.parametrize(
    ("info", "replaced"),
    [
        pytest.param(GC_INFO, True, id="the-twelve-keys"),
        pytest.param(GC_INFO.replace("{wordsize,0},", ""), False, id="a-key-missing"),
        pytest.param(GC_INFO.replace("{wordsize,0}", "{wordsize,0},{wordsize,1}"), False, id="a-key-twice"),
        pytest.param(GC_INFO.replace("{wordsize,0}", "{colour,0}"), False, id="an-unknown-key"),
        pytest.param(GC_INFO.replace("{wordsize,0}", "{wordsize,-1}"), False, id="a-negative-size"),
        pytest.param(GC_INFO.replace("{wordsize,0}", "{wordsize,x}"), False, id="not-an-integer"),
        pytest.param("{heap_size,1}", False, id="not-a-list"),
        pytest.param("[{heap_size,1]}", False, id="unbalanced"),
    ],
)
def test_gc_info_placeholder_only_for_the_documented_shape(info: str, replaced: bool) -> None:
    body = f"trace(gc_major_start, <tracer>, <a>, {info}, #{{}})"
    want = "trace(gc_major_start, <tracer>, <a>, _GcInfo, #{})" if replaced else body
    assert normalise_live(body) == want


def test_gc_info_of_another_tag_is_kept() -> None:
    body = f"trace(send, <tracer>, <a>, {GC_INFO}, #{{extra=><b>}})"
    assert normalise_live(body) == body


def test_gc_info_and_scheduler_id_together() -> None:
    body = f"trace(gc_major_end, <tracer>, <a>, {GC_INFO}, #{{scheduler_id=>2}})"
    assert normalise_live(body) == "trace(gc_major_end, <tracer>, <a>, _GcInfo, #{scheduler_id=>_SchedulerId})"


def test_harness_scheduling_and_its_enabled_line_are_informative() -> None:
    got = classes(
        "enabled_running_procs(out, <tracer>, <a>) -> trace\n"
        "enabled(trace_status, <tracer>, <a>) -> trace\n"
        "trace_running_procs(out, <tracer>, <a>, {tcs_gate,await_turn,1}, #{})\n"
        "enabled(in, <tracer>, <a>) -> trace\n"
        "trace(in, <tracer>, <a>, {erts_internal,dirty_nif_finalizer,1}, #{})\n"
        "enabled(out, <tracer>, <a>) -> trace\n"
        "trace(out, <tracer>, <a>, {tcs_puppet,block,0}, #{})\n"
        "enabled(out_exited, <tracer>, <a>) -> trace\n"
        "trace(out_exited, <tracer>, <a>, 0, #{})\n"
    )
    assert [line[0] for line in got] == ["I", "I", "I", "I", "I", "N", "N", "N", "N"]


HARNESS_OUT = "enabled(out, <tracer>, <a>) -> discard\n"
HARNESS_IN = "enabled(in, <tracer>, <a>) -> trace\ntrace(in, <tracer>, <a>, {tcs_gate,await_turn,1}, #{})\n"
ACT_IN = "enabled(in, <tracer>, <a>) -> trace\ntrace(in, <tracer>, <a>, {tcs_puppet,act,1}, #{})\n"
ACT_OUT = "enabled(out, <tracer>, <a>) -> trace\ntrace(out, <tracer>, <a>, {tcs_puppet,act,1}, #{})\n"
GATE_OUT = "enabled(out, <tracer>, <a>) -> trace\ntrace(out, <tracer>, <a>, {tcs_gate,await_turn,1}, #{})\n"


@pytest.mark.parametrize(
    ("text", "want"),
    [
        pytest.param(HARNESS_OUT + "enabled(trace_status, <tracer>, <a>) -> discard\n" + HARNESS_IN,
                     "IIII", id="out-discarded-before-a-harness-in"),
        pytest.param(HARNESS_OUT + ACT_IN, "NNN", id="out-discarded-before-the-scenario-in"),
        pytest.param(GATE_OUT + "enabled(in, <tracer>, <a>) -> discard\n", "III", id="in-discarded-after-a-harness-out"),
        pytest.param(ACT_OUT + "enabled(in, <tracer>, <a>) -> discard\n", "NNN", id="in-discarded-after-the-scenario-out"),
        pytest.param(HARNESS_OUT + "enabled(in, <tracer>, <a>) -> discard\n" + HARNESS_IN, "NNII",
                     id="both-discarded-nothing-places-them"),
        pytest.param(HARNESS_OUT + "enabled(in, <other>, <a>) -> trace\n"
                     "trace(in, <other>, <a>, {tcs_gate,await_turn,1}, #{})\n", "NII", id="another-tracer-places-nothing"),
        pytest.param("enabled(out, <tracer>, <port:x>) -> discard\nenabled(in, <tracer>, <port:x>) -> trace\n"
                     "trace(in, <tracer>, <port:x>, 0, #{})\n", "NII", id="a-port-is-scheduled-by-task"),
    ],
)
def test_discarded_harness_schedule_placed_by_its_other_half(text: str, want: str) -> None:
    assert "".join(line[0] for line in classes(text)) == want


def test_port_scheduling_zero_is_informative_a_named_task_is_not() -> None:
    got = classes(
        "enabled(in, <tracer>, <port:x>) -> trace\n"
        "trace(in, <tracer>, <port:x>, 0, #{})\n"
        "enabled(send, <tracer>, <port:x>) -> trace\n"
        "trace(send, <tracer>, <port:x>, {<port:x>,{data,<<1>>}}, #{extra=><a>})\n"
        "enabled(out, <tracer>, <port:x>) -> trace\n"
        "trace(out, <tracer>, <port:x>, 0, #{})\n"
        "enabled(in, <tracer>, <port:x>) -> trace\n"
        "trace(in, <tracer>, <port:x>, command, #{})\n"
    )
    assert [line[0] for line in got] == ["I", "I", "N", "N", "I", "I", "N", "N"]


def test_enabled_line_of_another_tag_stays_normative() -> None:
    got = classes(
        "enabled(send, <tracer>, <a>) -> trace\n"
        "trace(in, <tracer>, <a>, {tcs_gate,await_turn,1}, #{})\n"
    )
    assert [line[0] for line in got] == ["N", "I"]


def test_fullsweep_right_after_a_minor_collection_is_informative() -> None:
    pairs = ["gc_minor_start", "gc_minor_end", "gc_major_start", "gc_major_end", "gc_major_start", "gc_major_end"]
    text = "".join(f"enabled({t}, <tracer>, <a>) -> trace\ntrace({t}, <tracer>, <a>, _GcInfo, #{{}})\n" for t in pairs)
    got = classes(text)
    assert [line[0] for line in got] == ["N"] * 4 + ["I"] * 4 + ["N"] * 4


def test_a_fullsweep_after_a_minor_is_informative_for_each_tracer_of_the_process() -> None:
    """Fuzz group J3 (seed 20261127, group 12, OTP 29): a session and the legacy tracer trace one
    process's collections; their lines for each event interleave. The fullsweep after the minor is
    informative for both tracers, not only for the first whose gc_major_start follows a gc_minor_end."""
    pairs = ["gc_minor_start", "gc_minor_end", "gc_major_start", "gc_major_end"]
    text = "".join(f"enabled({t}, {s}, <b>) -> trace\ntrace({t}, {s}, <b>, _GcInfo, #{{}})\n"
                   for t in pairs for s in ("<sa>", "<tracer>"))
    got = classes(text)
    assert [line[0] for line in got] == ["N"] * 8 + ["I"] * 8, got


def test_a_traced_event_between_keeps_the_fullsweep_normative() -> None:
    got = classes(
        "trace(gc_minor_end, <tracer>, <a>, _GcInfo, #{})\n"
        "trace(send, <tracer>, <a>, x, #{extra=><b>})\n"
        "trace(gc_major_start, <tracer>, <a>, _GcInfo, #{})\n"
        "trace(gc_minor_end, <tracer>, <b>, _GcInfo, #{})\n"
        "trace(gc_major_end, <tracer>, <a>, _GcInfo, #{})\n"
    )
    assert [line[0] for line in got] == ["N"] * 5


def test_golden_marking_an_implementation_defined_line_normative_is_an_error() -> None:
    golden = "N trace(in, <tracer>, <port:x>, 0, #{})\n"
    with pytest.raises(StreamError, match="golden:1: col 1: class N but the line is informative"):
        parse_stream(golden, "golden")


def test_collapse_repeats_only_for_seq_trace_enabled_runs() -> None:
    lines = parse_stream(
        "N enabled(seq_trace, <tracer>, <a>) -> trace\n"
        "N enabled(seq_trace, <tracer>, <a>) -> trace\n"
        "N enabled(send, <tracer>, <a>) -> discard\n"
        "N enabled(send, <tracer>, <a>) -> discard\n"
        "N enabled(seq_trace, <tracer>, <a>) -> trace\n",
        "golden",
    )
    assert [line.tag for line in collapse_repeats(lines)] == ["seq_trace", "send", "send", "seq_trace"]


@pytest.mark.parametrize(
    ("live_text", "agree"),
    [
        pytest.param("enabled(seq_trace, <tracer>, <a>) -> trace\n", True, id="once"),
        pytest.param("enabled(seq_trace, <tracer>, <a>) -> trace\n" * 2, True, id="twice"),
        pytest.param("enabled(seq_trace, <tracer>, <a>) -> discard\n" * 2, False, id="other-answer"),
        pytest.param("", False, id="missing"),
    ],
)
def test_seq_trace_enabled_repeats_compare_as_one(live_text: str, agree: bool) -> None:
    golden = parse_stream("N enabled(seq_trace, <tracer>, <a>) -> trace\n", "golden")
    live = parse_live_stream(live_text, "live")
    assert compare(golden, live).agree is agree


def test_strict_comparison_counts_every_repeat() -> None:
    golden = parse_stream("N enabled(seq_trace, <tracer>, <a>) -> trace\n", "golden")
    live = parse_live_stream("enabled(seq_trace, <tracer>, <a>) -> trace\n" * 2, "live")
    assert not compare(golden, live, strict=True).agree


@pytest.mark.parametrize("body, cls", [
    ("msg(<sp>, {trace,<a>,in,{tcs_gate,await_turn,1}})", "I"),
    ("msg(<sp>, {trace,<a>,out,{erts_internal,dirty_nif_finalizer,1}})", "I"),
    ("msg(<sp>, {trace,<a>,out,{tcs_puppet,block,0}})", "N"),
    ("msg(<sp>, {trace,<a>,out,{tcs_puppet,loop,1}})", "I"),
    ("msg(<sp>, {trace,<a>,in,{tcs_puppet,run,1}})", "N"),
    ("msg(<sp>, {trace,<port:x>,in,0})", "I"),
    ("msg(<sp>, {trace,<a>,send,hi,<b>})", "N"),
], ids=["gate-in", "dirty-finalizer-out", "block-out", "puppet-loop-out", "spawned-first-in", "port-zero", "send"])
def test_tracer_process_messages_of_harness_scheduling_are_informative(body: str, cls: str) -> None:
    """RUN-HARNESS holds for a tracer process's messages as for a tracer module's callbacks."""
    [line] = parse_live_stream(body, "live")
    assert line.cls == cls


def test_a_fullsweep_end_answered_discard_is_informative_with_its_start() -> None:
    """Seed 20261124 group 9: a runtime minor collection, then the fullsweep the runtime adds,
    whose gc_major_end the tracer answers discard: the lone enabled line is the fullsweep's too."""
    got = classes(
        "enabled(gc_minor_start, <tracer>, <a>) -> trace\n"
        "trace(gc_minor_start, <tracer>, <a>, _GcInfo, #{})\n"
        "enabled(gc_minor_end, <tracer>, <a>) -> trace\n"
        "trace(gc_minor_end, <tracer>, <a>, _GcInfo, #{})\n"
        "enabled(gc_major_start, <tracer>, <a>) -> trace\n"
        "trace(gc_major_start, <tracer>, <a>, _GcInfo, #{})\n"
        "enabled(gc_major_end, <tracer>, <a>) -> discard\n"
        "enabled(gc_major_end, <tracer>, <a>) -> discard\n"
    )
    assert [line[0] for line in got] == ["N"] * 4 + ["I"] * 3 + ["N"]


@pytest.mark.parametrize("answer", ["discard", "remove"])
def test_a_fullsweep_after_a_minor_end_answered_no_trace_is_informative(answer: str) -> None:
    """Seed 20261201 group V8 (C-296): a runtime minor collection traced by two tracers, one of which
    answers gc_minor_end other than trace: the fullsweep after it is informative for that tracer too,
    as for the other; the minor pair and the enabled line that declined stay normative."""
    lines = []
    for tag in ("gc_minor_start", "gc_minor_end", "gc_major_start", "gc_major_end"):
        for state in ("<sa>", "<tracer>"):
            declines = state == "<tracer>" and tag == "gc_minor_end"
            lines.append(f"enabled({tag}, {state}, <b>) -> {answer if declines else 'trace'}\n")
            if not declines:
                lines.append(f"trace({tag}, {state}, <b>, _GcInfo, #{{}})\n")
    got = classes("".join(lines))
    assert [line[0] for line in got] == ["N"] * 7 + ["I"] * 8, got


def test_a_fullsweep_whose_start_one_tracer_answered_no_trace_is_informative_for_both() -> None:
    """Seed 2026112936 scenario 960 (C-810): a runtime minor collection of b traced by a session and the
    legacy tracer, then the fullsweep the runtime adds, whose gc_major_start the session answers discard:
    the session's enabled line is the start it saw, and its traced gc_major_end the fullsweep's end, as
    the legacy tracer's whole pair is; the minor pairs stay normative."""
    got = classes(
        "enabled(gc_minor_start, <sa>, <b>) -> trace\n"
        "trace(gc_minor_start, <sa>, <b>, _GcInfo, #{})\n"
        "enabled(gc_minor_start, <tracer>, <b>) -> trace\n"
        "trace(gc_minor_start, <tracer>, <b>, _GcInfo, #{})\n"
        "enabled(gc_minor_end, <sa>, <b>) -> trace\n"
        "trace(gc_minor_end, <sa>, <b>, _GcInfo, #{})\n"
        "enabled(gc_minor_end, <tracer>, <b>) -> trace\n"
        "trace(gc_minor_end, <tracer>, <b>, _GcInfo, #{})\n"
        "enabled(gc_major_start, <sa>, <b>) -> discard\n"
        "enabled(gc_major_start, <tracer>, <b>) -> trace\n"
        "trace(gc_major_start, <tracer>, <b>, _GcInfo, #{})\n"
        "enabled(gc_major_end, <sa>, <b>) -> trace\n"
        "trace(gc_major_end, <sa>, <b>, _GcInfo, #{})\n"
        "enabled(gc_major_end, <tracer>, <b>) -> discard\n"
    )
    assert [line[0] for line in got] == ["N"] * 8 + ["I"] * 6, got


def test_a_major_start_answered_discard_after_a_traced_event_stays_normative() -> None:
    """C-810 holds only for a major start directly after the minor's end as the same tracer saw it."""
    got = classes(
        "enabled(gc_minor_end, <sa>, <b>) -> trace\n"
        "trace(gc_minor_end, <sa>, <b>, _GcInfo, #{})\n"
        "enabled(send, <sa>, <b>) -> trace\n"
        "trace(send, <sa>, <b>, x, #{extra=><a>})\n"
        "enabled(gc_major_start, <sa>, <b>) -> discard\n"
        "enabled(gc_major_end, <sa>, <b>) -> trace\n"
        "trace(gc_major_end, <sa>, <b>, _GcInfo, #{})\n"
    )
    assert [line[0] for line in got] == ["N"] * 7, got


def test_a_minor_end_answered_discard_then_a_traced_event_keeps_the_major_normative() -> None:
    """C-296 holds only for a major directly after the declined gc_minor_end of the same tracer."""
    got = classes(
        "enabled(gc_minor_end, <tracer>, <a>) -> discard\n"
        "enabled(send, <tracer>, <a>) -> trace\n"
        "trace(send, <tracer>, <a>, x, #{extra=><b>})\n"
        "enabled(gc_major_start, <tracer>, <a>) -> trace\n"
        "trace(gc_major_start, <tracer>, <a>, _GcInfo, #{})\n"
    )
    assert [line[0] for line in got] == ["N"] * 5, got
