"""Tests of tcs_driver.diff: per-group comparison, observability, strictness and the report."""

from __future__ import annotations

import pytest

from tcs_driver.diff import (
    MSG_TRACER_OBSERVABLE,
    Comparison,
    compare,
    diff_lines,
    missing_and_extra,
)
from tcs_driver.stream import Line, fullsweep_restorations, parse_live_stream, parse_stream
from tcs_driver.stream.fullsweep import MAX_FULLSWEEP_CHOICES

GOLDEN = """\
% tcs stream v1: two_senders
N ctl erlang:trace(<a>,true,[send]) -> 1
I enabled(trace_status, <tracer>, <a>) -> trace
N ctl erlang:trace(<b>,true,[send]) -> 1
I enabled(trace_status, <tracer>, <b>) -> trace
N enabled_send(send, <tracer>, <a>) -> trace
N trace(send, <tracer>, <a>, one, #{extra=><c>})
N enabled_send(send, <tracer>, <b>) -> trace
N trace(send, <tracer>, <b>, two, #{extra=><c>})
"""


def golden() -> list[Line]:
    """Return the parsed golden stream used by these tests."""
    return parse_stream(GOLDEN, "golden")


def live(text: str) -> list[Line]:
    """Return the parsed live stream of text (bodies without class)."""
    return parse_live_stream(text, "live")


def bodies(*indices: int) -> str:
    """Return the golden bodies at the given content-line indices as live text, in that order."""
    lines = golden()
    return "".join(lines[i].body + "\n" for i in indices)


@pytest.mark.parametrize(
    ("live_text", "agree"),
    [
        pytest.param(bodies(0, 1, 2, 3, 4, 5, 6, 7), True, id="identical"),
        pytest.param(bodies(0, 2, 1, 3, 6, 7, 4, 5), True, id="cross-group-interleaving"),
        pytest.param(bodies(0, 1, 2, 3, 6, 4, 7, 5), True, id="cross-group-interleaving-fine"),
        pytest.param(bodies(2, 0, 1, 3, 4, 5, 6, 7), False, id="ctl-reordered"),
        pytest.param(bodies(0, 1, 2, 3, 5, 4, 6, 7), False, id="within-group-reorder"),
        pytest.param(bodies(0, 2, 4, 5, 6, 7), True, id="informative-missing-ignored"),
        pytest.param(bodies(0, 1, 1, 2, 3, 4, 5, 6, 7), True, id="informative-extra-ignored"),
        pytest.param(bodies(0, 1, 2, 3, 4, 6, 7), False, id="normative-missing"),
        pytest.param(bodies(0, 1, 2, 3, 4, 5, 5, 6, 7), False, id="normative-duplicated"),
        pytest.param(bodies(0, 1, 2, 3, 4, 5), False, id="whole-group-missing"),
    ],
)
def test_compare_default(live_text: str, agree: bool) -> None:
    result = compare(golden(), live(live_text))
    assert result.agree is agree
    assert result.agree == all(g.equal for g in result.groups)


def test_groups_in_order_of_first_appearance() -> None:
    result = compare(golden(), live(bodies(0, 1, 2, 3, 4, 5, 6, 7)))
    assert [g.group for g in result.groups] == ["ctl", "<a>", "<b>"]
    assert [len(g.golden) for g in result.groups] == [2, 2, 2]


@pytest.mark.parametrize(
    ("live_text", "agree"),
    [
        pytest.param(bodies(0, 1, 2, 3, 4, 5, 6, 7), True, id="identical"),
        pytest.param(bodies(0, 2, 1, 3, 4, 5, 6, 7), True, id="probe-moves-across-groups"),
        pytest.param(bodies(0, 2, 3, 4, 5, 6, 7), False, id="informative-missing"),
        pytest.param(bodies(0, 1, 2, 3, 1, 4, 5, 6, 7), False, id="informative-extra"),
        pytest.param(bodies(0, 2, 4, 1, 5, 3, 6, 7), False, id="probe-after-event"),
    ],
)
def test_compare_strict(live_text: str, agree: bool) -> None:
    assert compare(golden(), live(live_text), strict=True).agree is agree


MSG_GOLDEN = """\
N ctl erlang:trace(<a>,true,[send]) -> 1
I enabled(trace_status, <tracer>, <a>) -> trace
N enabled(send, <tracer>, <a>) -> trace
N trace(send, <tracer>, <a>, hello, #{extra=><b>})
N msg(<tracer>, {trace,<a>,<b>})
"""


@pytest.mark.parametrize(
    ("live_text", "agree"),
    [
        pytest.param("ctl erlang:trace(<a>,true,[send]) -> 1\nmsg(<tracer>, {trace,<a>,<b>})\n", True, id="callbacks-unseen"),
        pytest.param("ctl erlang:trace(<a>,true,[send]) -> 1\n", False, id="msg-missing"),
        pytest.param("ctl erlang:trace(<a>,true,[send]) -> 1\nmsg(<tracer>, {trace,<a>,<c>})\n", False, id="msg-wrong"),
        pytest.param("msg(<tracer>, {trace,<a>,<b>})\n", False, id="ctl-missing"),
    ],
)
def test_compare_msg_only_observable(live_text: str, agree: bool) -> None:
    result = compare(parse_stream(MSG_GOLDEN, "g"), live(live_text), observable=MSG_TRACER_OBSERVABLE)
    assert result.agree is agree
    assert all(ln.kind in {"msg", "ctl"} for g in result.groups for ln in g.golden + g.live)


def test_default_observable_ignores_msg_lines() -> None:
    live_text = "ctl erlang:trace(<a>,true,[send]) -> 1\nenabled(send, <tracer>, <a>) -> trace\ntrace(send, <tracer>, <a>, hello, #{extra=><b>})\n"
    assert compare(parse_stream(MSG_GOLDEN, "g"), live(live_text)).agree


def test_unknown_observable_kind_rejected() -> None:
    with pytest.raises(ValueError, match="unknown line kinds"):
        compare([], [], observable=frozenset({"msgs"}))


def test_group_only_live_is_a_difference() -> None:
    extra = "enabled_send(send, <tracer>, <z>) -> trace\n"
    result = compare(golden(), live(bodies(0, 1, 2, 3, 4, 5, 6, 7) + extra))
    assert not result.agree
    [only] = result.differing()
    assert (only.group, only.golden, [ln.body for ln in only.live]) == ("<z>", [], [extra.strip()])


def test_empty_streams_agree() -> None:
    result = compare([], [])
    assert result.agree and result.groups == []


def test_missing_and_extra() -> None:
    g = golden()
    missing, extra = missing_and_extra(g[4:6], [g[5], g[4]])
    assert len(missing) == 1 and len(extra) == 1
    assert missing[0] == extra[0]


def test_render_within_group_reorder() -> None:
    result = compare(golden(), live(bodies(0, 1, 2, 3, 5, 4, 6, 7)))
    report = result.render()
    lines = report.splitlines()
    assert lines[:3] == ["--- golden", "+++ live", "@@ group <a> @@"]
    assert "@@ group <b> @@" not in report and "@@ group ctl @@" not in report
    assert lines[3:-1] == [
        "+N trace(send, <tracer>, <a>, one, #{extra=><c>})",
        " N enabled_send(send, <tracer>, <a>) -> trace",
        "-N trace(send, <tracer>, <a>, one, #{extra=><c>})",
    ]
    assert lines[-1].startswith("DIFFER: 1 of 3 groups differ;")
    assert "1 missing, 1 unexpected" in lines[-1]


def test_render_missing_and_unexpected_lines() -> None:
    changed = bodies(0, 1, 2, 3, 4) + "trace(send, <tracer>, <a>, uno, #{extra=><c>})\n" + bodies(6)
    report = compare(golden(), live(changed)).render()
    assert "@@ group <a> @@\n N enabled_send(send, <tracer>, <a>) -> trace\n-N trace(send, <tracer>, <a>, one, #{extra=><c>})\n+N trace(send, <tracer>, <a>, uno, #{extra=><c>})\n" in report
    assert "@@ group <b> @@\n N enabled_send(send, <tracer>, <b>) -> trace\n-N trace(send, <tracer>, <b>, two, #{extra=><c>})\n" in report
    assert report.endswith("2 missing, 1 unexpected (informative lines dropped; kinds ctl,enabled,trace)\n")


def test_render_agreeing_is_only_the_summary() -> None:
    report = compare(golden(), live(bodies(0, 1, 2, 3, 4, 5, 6, 7)), strict=True).render()
    assert report == "AGREE: 0 of 3 groups differ; 8 golden / 8 live lines compared; 0 missing, 0 unexpected (strict; kinds ctl,enabled,trace)\n"


def test_diff_lines_prefixes() -> None:
    g = golden()
    assert diff_lines([g[0]], [g[2]]) == [f"-{g[0].text()}", f"+{g[2].text()}"]
    assert diff_lines([g[0]], [g[0]]) == [f" {g[0].text()}"]


def test_comparison_is_a_value() -> None:
    result = compare(golden(), live(bodies(0)))
    assert isinstance(result, Comparison)
    assert result == compare(golden(), live(bodies(0)))


GC_GOLDEN = """\
% tcs stream v1: requested_major
N ctl erlang:trace(<b>,true,[garbage_collection]) -> 1
A open w1 GC-RUNTIME 0..*: N enabled(gc_minor_start, <tracer>, <b>) -> trace ; N trace(gc_minor_start, <tracer>, <b>, _GcInfo, #{}) ; N enabled(gc_minor_end, <tracer>, <b>) -> trace ; N trace(gc_minor_end, <tracer>, <b>, _GcInfo, #{})
N enabled(gc_major_start, <tracer>, <b>) -> trace
N trace(gc_major_start, <tracer>, <b>, _GcInfo, #{})
N enabled(gc_major_end, <tracer>, <b>) -> trace
N trace(gc_major_end, <tracer>, <b>, _GcInfo, #{})
A close w1
"""
GC_MINOR = ("enabled(gc_minor_start, <tracer>, <b>) -> trace\ntrace(gc_minor_start, <tracer>, <b>, _GcInfo, #{})\n"
            "enabled(gc_minor_end, <tracer>, <b>) -> trace\ntrace(gc_minor_end, <tracer>, <b>, _GcInfo, #{})\n")
GC_MAJOR = GC_MINOR.replace("minor", "major")


@pytest.mark.parametrize(
    ("live_text", "agree"),
    [
        pytest.param(GC_MAJOR, True, id="major-alone"),
        pytest.param(GC_MINOR + GC_MAJOR, True, id="runtime-minor-then-requested-major"),
        pytest.param(GC_MINOR + GC_MAJOR + GC_MINOR + GC_MAJOR, True, id="requested-major-then-added-fullsweep"),
        pytest.param(GC_MINOR, False, id="minor-only"),
        pytest.param(GC_MINOR + GC_MAJOR.split("enabled(gc_major_end")[0], False, id="fullsweep-without-end"),
    ],
)
def test_requested_major_after_a_runtime_minor_counts(live_text: str, agree: bool) -> None:
    """C-265: a requested major collection right after a minor one the runtime started has the shape of a
    fullsweep added to a minor (GC-MINOR-FULLSWEEP, informative) but is the collection the golden stream
    requires: it is compared; a second such pair beyond what the golden stream requires stays informative."""
    text = "ctl erlang:trace(<b>,true,[garbage_collection]) -> 1\n" + live_text
    assert compare(parse_stream(GC_GOLDEN, "golden"), live(text)).agree is agree


GC_SEND = "enabled_send(send, <tracer>, <b>) -> trace\ntrace(send, <tracer>, <b>, hi, #{extra=><a>})\n"
GC_GOLDEN_SEND_FIRST = GC_GOLDEN.replace("N enabled(gc_major_start", "N " + GC_SEND.replace("\n", "\nN ", 1)
                                         + "N enabled(gc_major_start", 1)


@pytest.mark.parametrize(
    ("live_text", "agree"),
    [
        pytest.param(GC_MINOR + GC_MAJOR + GC_SEND + GC_MINOR + GC_MAJOR, True,
                     id="added-fullsweep-before-the-step-then-requested-major"),
        pytest.param(GC_SEND + GC_MINOR + GC_MAJOR + GC_MINOR + GC_MAJOR, True,
                     id="requested-major-then-added-fullsweep"),
        pytest.param(GC_MINOR + GC_MAJOR + GC_SEND + GC_MINOR, False, id="requested-major-missing"),
        pytest.param(GC_MINOR + GC_MAJOR + GC_MINOR + GC_MAJOR + GC_SEND, False,
                     id="every-major-before-the-step"),
    ],
)
def test_the_requested_major_is_the_fullsweep_shaped_pair_at_its_place(live_text: str, agree: bool) -> None:
    """C-350 (fuzz group R9): of several fullsweep-shaped major pairs of a process, the requested one is
    the one at the place the golden stream has it, not the first: a fullsweep the runtime added to an
    earlier minor collection stays informative; no choice places a major the process did not make."""
    assert GC_GOLDEN_SEND_FIRST.count("trace(send") == 1
    text = "ctl erlang:trace(<b>,true,[garbage_collection]) -> 1\n" + live_text
    assert compare(parse_stream(GC_GOLDEN_SEND_FIRST, "golden"), live(text)).agree is agree


def test_fullsweep_restorations_yield_each_choice_first_ones_first() -> None:
    """C-350: with three fullsweep-shaped pairs and one requested major, each pair is restored once, the
    first first; the others stay informative. Nothing to restore: the live stream as it is."""
    text = "ctl erlang:trace(<b>,true,[garbage_collection]) -> 1\n" + (GC_MINOR + GC_MAJOR) * 3
    streams = list(fullsweep_restorations(parse_stream(GC_GOLDEN, "golden"), live(text)))
    restored = [[i for i, ln in enumerate(s) if ln.tag == "gc_major_start" and ln.kind == "trace" and ln.cls == "N"]
                for s in streams]
    assert restored == [[6], [14], [22]]
    assert all(sum(ln.cls == "N" for ln in s) == 1 + 3 * 4 + 4 for s in streams)
    assert list(fullsweep_restorations(parse_stream(GC_GOLDEN, "golden"), live(text.split("enabled(gc_minor")[0]))) \
        == [live(text.split("enabled(gc_minor")[0])]


def test_fullsweep_restorations_restore_beyond_the_deficit_last() -> None:
    """C-473: with a normative major as many as the golden stream requires, the live stream as it is comes
    first, then each choice of one fullsweep-shaped pair, the first first; never more than required."""
    text = "ctl erlang:trace(<b>,true,[garbage_collection]) -> 1\n" + GC_MAJOR + (GC_MINOR + GC_MAJOR) * 2
    streams = list(fullsweep_restorations(parse_stream(GC_GOLDEN, "golden"), live(text)))
    restored = [[i for i, ln in enumerate(s) if ln.tag == "gc_major_start" and ln.kind == "trace" and ln.cls == "N"]
                for s in streams]
    assert restored == [[2], [2, 10], [2, 18]]


def test_fullsweep_restorations_are_bounded() -> None:
    """C-350: 15 requested majors among 30 fullsweep-shaped pairs have C(30,15) choices; at most
    MAX_FULLSWEEP_CHOICES are tried, made one by one (none is made before it is asked for)."""
    golden = "% tcs stream v1: many_majors\nN ctl erlang:trace(<b>,true,[garbage_collection]) -> 1\n" + \
        "".join(f"N {line}\n" for line in GC_MAJOR.splitlines()) * 15
    text = "ctl erlang:trace(<b>,true,[garbage_collection]) -> 1\n" + (GC_MINOR + GC_MAJOR) * 30
    streams = list(fullsweep_restorations(parse_stream(golden, "golden"), live(text)))
    assert len(streams) == MAX_FULLSWEEP_CHOICES
    assert len({tuple(ln.cls for ln in s) for s in streams}) == MAX_FULLSWEEP_CHOICES


GC_MINOR_END_DISCARDED = GC_MINOR.split("enabled(gc_minor_end")[0] + "enabled(gc_minor_end, <tracer>, <b>) -> discard\n"


@pytest.mark.parametrize(
    ("live_text", "agree"),
    [
        pytest.param(GC_MINOR_END_DISCARDED + GC_MAJOR, True, id="runtime-minor-then-requested-major"),
        pytest.param(GC_MINOR_END_DISCARDED + GC_MAJOR + GC_MAJOR, True, id="added-fullsweep-then-requested-major"),
        pytest.param(GC_MINOR_END_DISCARDED + GC_MAJOR * 3, False, id="a-major-beyond-fullsweep-and-request"),
        pytest.param(GC_MINOR_END_DISCARDED, False, id="requested-major-missing"),
        pytest.param(GC_MINOR_END_DISCARDED + GC_MAJOR.split("enabled(gc_major_end")[0], False, id="major-without-end"),
    ],
)
def test_requested_major_after_a_minor_end_answered_discard_counts(live_text: str, agree: bool) -> None:
    """C-296 with C-265: a major right after a gc_minor_end the tracer discarded has the fullsweep's shape,
    yet a requested major collection is still compared, and what it does not explain is not admitted."""
    golden = GC_GOLDEN.replace("N enabled(gc_minor_end, <tracer>, <b>) -> trace ; N trace(gc_minor_end, <tracer>, <b>, "
                               "_GcInfo, #{})", "N enabled(gc_minor_end, <tracer>, <b>) -> discard")
    assert golden != GC_GOLDEN
    text = "ctl erlang:trace(<b>,true,[garbage_collection]) -> 1\n" + live_text
    assert compare(parse_stream(golden, "golden"), live(text)).agree is agree


GC_MAJOR_START_DISCARDED = ("enabled(gc_major_start, <tracer>, <b>) -> discard\n"
                            "enabled(gc_major_end, <tracer>, <b>) -> trace\ntrace(gc_major_end, <tracer>, <b>, _GcInfo, #{})\n")


@pytest.mark.parametrize(
    ("live_text", "agree"),
    [
        pytest.param(GC_MINOR + GC_MAJOR_START_DISCARDED, True, id="runtime-minor-then-requested-major"),
        pytest.param(GC_MINOR + GC_MAJOR_START_DISCARDED * 2, True, id="added-fullsweep-then-requested-major"),
        pytest.param(GC_MINOR + GC_MAJOR_START_DISCARDED * 3, False, id="a-major-beyond-fullsweep-and-request"),
        pytest.param(GC_MINOR, False, id="requested-major-missing"),
    ],
)
def test_requested_major_whose_start_was_answered_discard_counts(live_text: str, agree: bool) -> None:
    """C-810 with C-265: a requested major right after a runtime minor, its start answered discard (no trace
    line): the fullsweep's shape makes it informative, yet it is restored and compared as requested."""
    golden = GC_GOLDEN.replace("N enabled(gc_major_start, <tracer>, <b>) -> trace\nN trace(gc_major_start, <tracer>, "
                               "<b>, _GcInfo, #{})\n", "N enabled(gc_major_start, <tracer>, <b>) -> discard\n")
    assert golden != GC_GOLDEN
    text = "ctl erlang:trace(<b>,true,[garbage_collection]) -> 1\n" + live_text
    assert compare(parse_stream(golden, "golden"), live(text)).agree is agree


GC_SEND = "enabled(send, <tracer>, <b>) -> trace\ntrace(send, <tracer>, <b>, 87, #{extra=><a>})\n"
GC_BOTH_WINDOWS_GOLDEN = """\
% tcs stream v1: requested_major_after_runtime_fullsweep
N ctl erlang:trace(<b>,true,[garbage_collection,send]) -> 1
A open w1 GC-RUNTIME 0..*: N enabled(gc_minor_start, <tracer>, <b>) -> trace ; N trace(gc_minor_start, <tracer>, <b>, _GcInfo, #{}) ; N enabled(gc_minor_end, <tracer>, <b>) -> trace ; N trace(gc_minor_end, <tracer>, <b>, _GcInfo, #{})
A open w2 GC-RUNTIME 0..*: N enabled(gc_major_start, <tracer>, <b>) -> trace ; N trace(gc_major_start, <tracer>, <b>, _GcInfo, #{}) ; N enabled(gc_major_end, <tracer>, <b>) -> trace ; N trace(gc_major_end, <tracer>, <b>, _GcInfo, #{})
N enabled(send, <tracer>, <b>) -> trace
N trace(send, <tracer>, <b>, 87, #{extra=><a>})
N enabled(gc_major_start, <tracer>, <b>) -> trace
N trace(gc_major_start, <tracer>, <b>, _GcInfo, #{})
N enabled(gc_major_end, <tracer>, <b>) -> trace
N trace(gc_major_end, <tracer>, <b>, _GcInfo, #{})
A close w1
A close w2
"""


@pytest.mark.parametrize(
    ("live_text", "agree"),
    [
        pytest.param(GC_MINOR + GC_MAJOR + GC_SEND + GC_MINOR + GC_MAJOR, True,
                     id="runtime-fullsweep-then-requested-major-after-runtime-minor"),
        pytest.param(GC_MINOR + GC_MAJOR + GC_SEND + GC_MAJOR, True, id="runtime-fullsweep-then-requested-major"),
        pytest.param(GC_MINOR + GC_MAJOR + GC_SEND + GC_MINOR, False, id="requested-major-missing"),
        pytest.param(GC_MINOR + GC_MAJOR + GC_MINOR + GC_MAJOR + GC_SEND, False, id="majors-before-the-request"),
        pytest.param(GC_MAJOR + GC_SEND + GC_MINOR + GC_MAJOR, True, id="runtime-major-then-requested-major-after-runtime-minor"),
        pytest.param(GC_MAJOR + GC_SEND + GC_MINOR, False, id="runtime-major-then-requested-major-missing"),
        pytest.param(GC_MAJOR + GC_MINOR + GC_MAJOR + GC_SEND, False, id="runtime-major-and-fullsweep-before-the-request"),
    ],
)
def test_the_requested_major_may_be_a_later_fullsweep_shaped_one(live_text: str, agree: bool) -> None:
    """Fuzz W9 (seed 20261203): b's runtime collection was a minor with a fullsweep, then, after its sends,
    the requested major came right after another runtime minor; both majors have the fullsweep's shape. The
    one the golden stream requires is whichever makes the lines agree, not the first (C-265); a requested
    major that did not come after the step's lines is still missing. Seed 27112026 group U2 (C-473): a
    normative major the runtime started (GC-RUNTIME) does not stand for the requested one, which may be
    fullsweep-shaped all the same."""
    text = "ctl erlang:trace(<b>,true,[garbage_collection,send]) -> 1\n" + live_text
    assert compare(parse_stream(GC_BOTH_WINDOWS_GOLDEN, "golden"), live(text)).agree is agree


def test_streams_too_long_for_difflib_still_diff_truly_and_fast() -> None:
    """A node that crashed early in a case another release ran to 50,000 lines: the diff keeps the common
    first and last lines and replaces what is between (difflib would take minutes)."""
    from tcs_driver import diff
    common = [f"trace(call, <tracer>, <a>, {{tcs_target,id,[{i % 7}]}}, #{{}})" for i in range(4000)]
    golden = parse_live_stream("\n".join(common + common[:1000]), "golden")
    live = parse_live_stream("\n".join(common[:2500]), "live")
    assert len(golden) * len(live) > diff.DIFFLIB_PAIRS
    lines = diff.diff_lines(golden, live)
    assert [x[0] for x in lines] == [" "] * 2500 + ["-"] * 2500
    assert lines[2500] == "-" + golden[2500].text()
