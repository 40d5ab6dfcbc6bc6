"""C-92 at a collection the runtime starts (FINDINGS H2b, K4): OTP 27's prediction names a range of
steps, and a crash is explained only inside it, by SIGSEGV or SIGABRT, with the lines the node left
agreeing with the prediction of a node dying in that step; a run that does not crash must agree with
the whole golden stream. Judged with the real model on cases/sessions/sess_gc_runtime_two_sessions.tcs and
runs made of what its node printed (no node is started here)."""
from __future__ import annotations

import pytest

from tcs_driver import corpus, expectations, node, release

CASE = "sess_gc_runtime_two_sessions"
OTP27 = node.Otp("27", ["erl"])
#: What the node printed before step 7 on OTP 27 (./tcs run --otp 27, the crash of 6 of 6 runs).
BEFORE_STEP_7 = ["ctl trace:session_create(sa,{recorder,<sa>},[]) -> {_Ref,{sa,_Id}}",
                 "ctl erlang:trace(<a>,true,[garbage_collection]) -> 1",
                 "enabled(trace_status, <tracer>, <a>) -> trace",
                 "ctl trace:process({_Ref,{sa,_Id}},<a>,true,[garbage_collection]) -> 1",
                 "enabled(trace_status, <sa>, <a>) -> trace",
                 "enabled(trace_status, <tracer>, <a>) -> trace"]
SA_FLAG = BEFORE_STEP_7[3]


def _crashed(signal: int, step: int, lines: list[str]) -> node.NodeRun:
    return node.NodeRun("crash", lines, "27", f"node ended without finishing (killed by signal {signal}; "
                                              f"last step started: {step})\nTCS OTP 27")


def _without(line: str) -> list[str]:
    return [ln for ln in BEFORE_STEP_7 if ln != line]


#: (run, status after the release's prediction judged it)
RUNS = {
    "crash_inside_lines_agree": (_crashed(11, 7, BEFORE_STEP_7), "deviation"),
    "sigabrt_inside_lines_agree": (_crashed(6, 7, BEFORE_STEP_7), "deviation"),
    "crash_at_sa_flag_step": (_crashed(6, 4, _without(SA_FLAG)), "deviation"),
    "crash_at_exit_step": (_crashed(11, 11, BEFORE_STEP_7), "deviation"),
    "crash_after_range": (_crashed(11, 12, BEFORE_STEP_7), "crash"),
    "crash_before_range": (_crashed(11, 3, BEFORE_STEP_7[:3]), "crash"),
    "crash_inside_sa_flag_missing": (_crashed(11, 7, _without(SA_FLAG)), "crash"),
    "crash_inside_a_line_too_many": (_crashed(11, 7, BEFORE_STEP_7 + ["ctl erlang:trace(<b>,true,[send]) -> 1"]),
                                     "crash"),
    "crash_at_sa_flag_step_with_its_line": (_crashed(6, 4, BEFORE_STEP_7), "crash"),
    "crash_inside_other_signal": (_crashed(9, 7, BEFORE_STEP_7), "crash"),
    "no_crash_agrees": (node.NodeRun("done", BEFORE_STEP_7, "27"), "pass"),
    "no_crash_sa_flag_missing": (node.NodeRun("done", _without(SA_FLAG), "27"), "fail"),
}


@pytest.fixture(scope="module")
def case(layout: corpus.Layout) -> corpus.Case:
    return corpus.load_case(layout, layout.case_file(CASE))


def test_the_prediction_names_the_range_from_the_second_flag_to_the_exit(layout: corpus.Layout) -> None:
    path = str(layout.case_file(CASE))
    [note] = release.notes(corpus.model(layout, "sim", path, "--release", "27"), corpus.deviations(layout))
    assert (note.clarification, note.step, note.last, note.may_crash, note.crash) == ("C-92", 4, 11, True, False)
    for other in ("25", "29"):
        assert corpus.model(layout, "sim", path, "--release", other) == corpus.model(layout, "sim", path)


@pytest.mark.parametrize("name", list(RUNS), ids=list(RUNS))
def test_the_release_prediction_judges_a_crash_by_its_range_and_the_lines_before_it(
        layout: corpus.Layout, case: corpus.Case, name: str) -> None:
    ran, status = RUNS[name]
    judged = corpus.by_prediction(layout, case, OTP27, ran, corpus.judge(layout, case, OTP27, ran, strict=False),
                                  strict=False)
    assert judged.status == status, judged.detail
    if name == "crash_inside_sa_flag_missing":
        assert "the lines before step 7 differ" in judged.detail


@pytest.mark.parametrize("name", list(RUNS), ids=list(RUNS))
def test_the_corpus_runner_judges_the_case_by_its_predicted_expectation(
        layout: corpus.Layout, case: corpus.Case, name: str) -> None:
    ran, status = RUNS[name]
    entry = expectations.load(layout.expectations / "otp27.toml")[CASE]
    assert entry.status == "predicted"
    judged = corpus.judged(layout, case, OTP27, ran, entry, strict=False)
    assert judged.status == status, judged.detail
    if status == "deviation":
        assert "otp27.toml" in judged.detail and "C-92 (OTP 27, steps 4-11)" in judged.detail
    if status == "crash":
        assert "differs from its documented deviation" in judged.detail


def test_a_predicted_entry_whose_prediction_must_crash_is_stale_when_the_run_passes(layout: corpus.Layout) -> None:
    """sess_gc_two_sessions: the `gc` step must crash OTP 27 (C-92); a run that agrees instead makes a
    `predicted` entry stale, as it does a `crash` entry."""
    gc_case = corpus.load_case(layout, layout.case_file("sess_gc_two_sessions"))
    entry = expectations.Expectation("sess_gc_two_sessions", "predicted", "SESSION-ISOLATION", "C-92: x",
                                     ("killed by signal",), "otp27.toml:1:1")
    golden = (layout.golden / "sess_gc_two_sessions.stream").read_text().splitlines()
    lines = [ln[2:] for ln in golden if ln[:2] in ("N ", "I ")]
    judged = corpus.judged(layout, gc_case, OTP27, node.NodeRun("done", lines, "27"), entry, strict=False)
    assert judged.status == "fail" and "stale expectation" in judged.detail


@pytest.mark.parametrize("case_id,asks", [(CASE, True), ("sess_gc_two_sessions", True), ("sess_gc_other_stays", False)],
                         ids=[CASE, "sess_gc_two_sessions", "sess_gc_other_stays"])
def test_the_plan_asks_for_lines_step_by_step_only_where_two_sessions_trace_collections(
        layout: corpus.Layout, case_id: str, asks: bool) -> None:
    plan = corpus.model(layout, "plan", str(layout.case_file(case_id)))
    assert ("{step_lines, true}." in plan.splitlines()) == asks
