"""A release's own prediction (tcsref sim --release N) and how the fuzzer explains a disagreement with it:
only when the live run is exactly that prediction (C-41 on OTP 25), or crashes exactly as predicted (C-92
on OTP 27: at a `gc` step, or at any step of a range when the runtime starts the collection, the lines
before the crash agreeing with the prediction of a node dying in that step)."""
from __future__ import annotations

from pathlib import Path

import pytest

from tcs_driver import corpus, expectations, release
from tcs_driver.fuzz import campaign, gen
from tcs_driver.results import CaseResult

C41 = "% otp 25 follows C-41 at step 2: link/1 by a process with set_on_link or set_on_first_link passes no trace flags"
C92 = "% otp 27 follows C-92 at step 4: the node crashes at a collection traced by two sessions (erlang/otp#11624)"
C92_RANGE = ("% otp 27 follows C-92 at steps 4-11: the node may crash (SIGSEGV or SIGABRT) at a collection the "
             "runtime starts in a process whose collections two sessions trace (erlang/otp#11624), or not crash")
#: The rows of `tcsref deviations` those notes name (the tests that run the model read its own table).
TABLE = release.deviations(
    "C-41\tstream\t25\t25\tlink/1 by a process with set_on_link or set_on_first_link passes no trace flags\n"
    "C-92\tcrash\t27\t27\tthe node crashes at a collection traced by two sessions (erlang/otp#11624)\n"
    "C-92\tmay-crash\t27\t27\tthe node may crash (SIGSEGV or SIGABRT) at a collection the runtime starts in a "
    "process whose collections two sessions trace (erlang/otp#11624), or not crash\n")


def _result(status: str, detail: str = "") -> CaseResult:
    return CaseResult("fuzz_1_1", status, ["FUZZ"], "25", detail, changed=["-N x"] if status == "fail" else [])


def _crash(signal: int, step: int) -> str:
    return f"node ended without finishing (killed by signal {signal}; last step started: {step})\nN ctl ..."


def test_notes_are_read_from_the_stream() -> None:
    text = f"% tcs stream v1: x\nN ctl a\n{C41}\n{C92}\n{C92_RANGE}\n"
    found = release.notes(text, TABLE)
    assert [(n.release, n.clarification, n.step, n.last, n.crash, n.may_crash) for n in found] == [
        (25, "C-41", 2, 0, False, False), (27, "C-92", 4, 0, True, False), (27, "C-92", 4, 11, False, True)]
    assert [s for s in range(1, 14) if found[2].covers(s)] == list(range(4, 12))
    assert [s for s in range(1, 14) if found[1].covers(s)] == [4]
    assert not any(found[0].covers(s) for s in range(1, 14))
    assert release.notes("% tcs stream v1: x\nN ctl a\n", TABLE) == []


def test_a_note_takes_its_kind_from_the_table_not_from_its_words() -> None:
    """The kind decides: the same words listed as a stream deviation predict no crash, and a note
    the table does not list is the model disagreeing with its own table."""
    as_stream = release.deviations(
        "C-92\tstream\t27\t27\tthe node crashes at a collection traced by two sessions (erlang/otp#11624)\n")
    [note] = release.notes(f"% tcs stream v1: x\n{C92}\n", as_stream)
    assert (note.crash, note.may_crash, note.covers(4)) == (False, False, False)
    with pytest.raises(ValueError, match="no deviation"):
        release.notes(f"% tcs stream v1: x\n{C41}\n", as_stream)


CRASHES = [
    ("signal11_at_step", _crash(11, 4), True),
    ("signal6_at_step", _crash(6, 4), True),
    ("other_step", _crash(11, 5), False),
    ("other_signal", _crash(9, 4), False),
    ("exit_status", "node ended without finishing (exit status 1; last step started: 4)", False),
    ("job_ended", "the job ended without finishing (last step started: 4)", False),
    ("nothing", "", False),
]


def _before(step: int) -> str:
    """A stand-in for the prediction of a node dying during `step`."""
    return f"% tcs stream v1: x\nN ctl before step {step}\n"


@pytest.mark.parametrize("detail,explained", [c[1:] for c in CRASHES], ids=[c[0] for c in CRASHES])
def test_a_crash_is_explained_only_in_the_predicted_shape(detail: str, explained: bool) -> None:
    compared: list[str] = []

    def agreeing(text: str) -> CaseResult:
        compared.append(text)
        return _result("pass")

    judged = release.explain(_result("crash", detail), f"% tcs stream v1: x\n{C92}\n", TABLE, agreeing, _before)
    assert (judged.status == "deviation") == explained
    if explained:
        assert "C-92" in judged.detail
        assert compared == [_before(4)]   # the lines the node left, against the steps before the crash


#: C-92 at a collection the runtime starts: (signal, step of the crash, do the lines before it agree,
#: explained). The range is steps 4-11.
RANGE_CRASHES = [
    ("inside_agreeing", 11, 7, True, True),
    ("first_step_of_range", 6, 4, True, True),
    ("last_step_of_range", 11, 11, True, True),
    ("before_range", 11, 3, True, False),
    ("after_range", 6, 12, True, False),
    ("inside_lines_differ", 11, 7, False, False),
    ("inside_other_signal", 9, 7, True, False),
]


@pytest.mark.parametrize("signal,step,agree,explained", [c[1:] for c in RANGE_CRASHES], ids=[c[0] for c in RANGE_CRASHES])
def test_a_crash_in_a_range_is_explained_only_inside_it_with_the_lines_before_agreeing(
        signal: int, step: int, agree: bool, explained: bool) -> None:
    compared: list[str] = []

    def judge(text: str) -> CaseResult:
        compared.append(text)
        return _result("pass") if agree else _result("fail", "-N ctl x")

    judged = release.explain(_result("crash", _crash(signal, step)), f"% tcs stream v1: x\n{C92_RANGE}\n", TABLE, judge,
                             _before)
    assert judged.status == ("deviation" if explained else "crash")
    if explained:
        assert "C-92 (OTP 27, steps 4-11)" in judged.detail and f"signal {signal} at step {step}" in judged.detail
    if 4 <= step <= 11 and signal in (6, 11):
        assert compared == [_before(step)]
    else:
        assert compared == []
    if not agree and signal in (6, 11):
        assert f"the lines before step {step} differ" in judged.detail


def test_a_run_that_does_not_crash_in_a_range_must_agree_with_the_whole_prediction() -> None:
    prediction = f"% tcs stream v1: x\nN ctl a\n{C92_RANGE}\n"
    never = lambda step: pytest.fail("no crash, no prefix")  # noqa: E731
    assert release.explain(_result("fail"), prediction, TABLE, lambda text: _result("fail"), never).status == "fail"
    judged = release.explain(_result("fail"), prediction, TABLE, lambda text: _result("pass"), never)
    assert judged.status == "deviation"  # agrees with the prediction where the documents' stream is not it
    stays = release.explain(_result("pass"), prediction, TABLE, lambda text: pytest.fail("a pass stays"), never)
    assert stays.status == "pass"


def test_a_disagreement_is_explained_only_when_the_prediction_agrees_exactly() -> None:
    prediction = f"% tcs stream v1: x\nN ctl a\n{C41}\n"
    seen: list[str] = []

    def agreeing(text: str) -> CaseResult:
        seen.append(text)
        return _result("pass")

    judged = release.explain(_result("fail"), prediction, TABLE, agreeing, _before)
    assert seen == [prediction]
    assert judged.status == "deviation" and "C-41" in judged.detail
    assert release.explain(_result("fail"), prediction, TABLE, lambda text: _result("fail"), _before).status == "fail"


def test_nothing_is_explained_without_a_deviation_or_against_a_predicted_crash() -> None:
    never = lambda text: pytest.fail("no prediction to compare with")  # noqa: E731
    assert release.explain(_result("fail"), "% tcs stream v1: x\nN ctl a\n", TABLE, never, never).status == "fail"
    crash = release.explain(_result("crash", _crash(11, 4)), f"% tcs stream v1: x\n{C41}\n", TABLE, never, never)
    assert crash.status == "crash"
    # the release was predicted to crash and disagreed instead: a disagreement
    assert release.explain(_result("fail"), f"% tcs stream v1: x\n{C92}\n", TABLE, never, never).status == "fail"


def _notes(layout: corpus.Layout, text: str) -> list[release.Note]:
    """The notes of a prediction the model made, read with the model's own table."""
    return release.notes(text, corpus.deviations(layout))


def _sim(layout: corpus.Layout, case: str, *args: str) -> str:
    status, out, err = campaign.model_run(layout, "sim", str(layout.case_file(case)), *args)
    assert status == 0, err
    return out


PREDICTIONS = [
    ("inherit_link_set_on_link", "25", "C-41"),
    ("inherit_first_link_all", "25", "C-41"),
    ("sess_gc_two_sessions", "27", "C-92"),
    ("ms_silent_untraced_then_trace", "25", "C-150"),
    ("msgpat_port_send_unfiltered", "25", "C-85"),
    ("fuzz_port_send_pattern_false_driver", "25", "C-85"),
    ("ms_silent_untraced_info", "25", "C-415"),
]
#: The other notes a case's prediction holds: ms_silent_untraced_then_trace asks trace_info (C-415,
#: step 3) before the step that crashes OTP 25 (C-150, step 4).
ALSO_NOTED = {"sess_gc_two_sessions": ["C-92"], "ms_silent_untraced_then_trace": ["C-415"]}


@pytest.mark.parametrize("case,number,clarification", PREDICTIONS, ids=[p[0] for p in PREDICTIONS])
def test_the_model_predicts_the_release_only_where_the_clarification_names_it(
        layout: corpus.Layout, case: str, number: str, clarification: str) -> None:
    documents = _sim(layout, case)
    assert _notes(layout, documents) == []
    predicted = _notes(layout, _sim(layout, case, "--release", number))
    # C-92's exact crash at the `gc` step comes with its range: sa's flag (step 3) to the `gc` step
    assert [n.clarification for n in predicted] == [clarification] + ALSO_NOTED.get(case, [])
    for other in ("25", "27", "29"):
        if other != number:
            assert _sim(layout, case, "--release", other) == documents


def test_c240_predicts_meta_nil_on_25_and_27_for_the_meta_item_asked_alone(layout: corpus.Layout) -> None:
    """C-210: on 25 and 27 exactly the six meta items of functions with another pattern become
    {meta,[]} (not the untraced function's, not the stopped counter's); 29 follows the documents."""
    documents = [ln for ln in _sim(layout, "status_info_meta_nil").splitlines() if not ln.startswith("%")]
    for number in ("25", "27"):
        text = _sim(layout, "status_info_meta_nil", "--release", number)
        assert [n.clarification for n in _notes(layout, text)] == ["C-210"]
        predicted = [ln for ln in text.splitlines() if not ln.startswith("%")]
        changed = [(d, p) for d, p in zip(documents, predicted, strict=True) if d != p]
        assert len(changed) == 6
        assert all(d.endswith("meta) -> {meta,false}") and p == d.replace("{meta,false}", "{meta,[]}")
                   for d, p in changed)
    assert _notes(layout, _sim(layout, "status_info_meta_nil", "--release", "29")) == []


def test_otp25_prediction_of_c41_drops_exactly_the_linked_process_lines(layout: corpus.Layout) -> None:
    documents = _sim(layout, "inherit_link_set_on_link").splitlines()
    predicted = _sim(layout, "inherit_link_set_on_link", "--release", "25").splitlines()
    assert [ln for ln in documents if ln not in predicted] == [
        "N enabled(getting_linked, <tracer>, <b>) -> trace",
        "N trace(getting_linked, <tracer>, <b>, <a>, #{})",
        "N enabled(register, <tracer>, <b>) -> trace",
        "N trace(register, <tracer>, <b>, bname, #{})",
        "I enabled(trace_status, <tracer>, <b>) -> trace",
        "N ctl erlang:trace_info(<b>,flags) -> {flags,[procs,set_on_link]}"]
    assert "N ctl erlang:trace_info(<b>,flags) -> {flags,[]}" in predicted


def _predicted_for_25_and_27(layout: corpus.Layout, case: str, clarification: str,
                             step: int) -> tuple[str, dict[str, str]]:
    """The case's golden stream (OTP 29's prediction too) and OTP 25's and 27's predictions, each
    following clarification from step on."""
    documents = _sim(layout, case)
    assert _notes(layout, documents) == [] and _sim(layout, case, "--release", "29") == documents
    predicted = {number: _sim(layout, case, "--release", number) for number in ("25", "27")}
    for number, text in predicted.items():
        assert [(n.release, n.clarification, n.step) for n in _notes(layout, text)] == [(int(number), clarification, step)]
    return documents, predicted


def test_c155_is_predicted_for_25_and_27_and_drops_exactly_the_getting_unlinked(layout: corpus.Layout) -> None:
    documents, predicted = _predicted_for_25_and_27(layout, "procs_link_dead_trapping", "C-155", 4)
    for text in predicted.values():
        assert [ln for ln in documents.splitlines() if ln not in text.splitlines()] == [
            "N enabled(getting_unlinked, <tracer>, <a>) -> trace",
            "N trace(getting_unlinked, <tracer>, <a>, <b>, #{})"]


def test_c210_is_predicted_for_25_and_27_and_changes_exactly_the_meta_items(layout: corpus.Layout) -> None:
    documents, predicted = _predicted_for_25_and_27(layout, "status_info_meta_none", "C-210", 4)
    for text in predicted.values():
        changed = [(a, b) for a, b in zip(documents.splitlines(), text.splitlines()) if a != b]
        assert len(changed) == 6 and all(a.endswith("meta) -> {meta,false}") and b == a[:-len("false}")] + "[]}"
                                          for a, b in changed)


def test_c85_is_predicted_for_25_and_adds_exactly_the_ports_sends_after_send_pattern_false(
        layout: corpus.Layout) -> None:
    """W8: OTP 25 traces a port's sends although the send pattern is false (step 8 sets it); the
    prediction adds the echo, the control reply and the timeout data, each in both branches of an
    either window where the port operation may run as a task or at once, and drops nothing."""
    case = "fuzz_port_send_pattern_false_driver"
    documents = [ln for ln in _sim(layout, case).splitlines() if not ln.startswith("%")]
    text = _sim(layout, case, "--release", "25")
    assert [(n.release, n.clarification, n.step) for n in _notes(layout, text)] == [(25, "C-85", 8)]
    predicted = [ln for ln in text.splitlines() if not ln.startswith("%")]
    assert [ln for ln in documents if ln not in predicted] == []
    added = [ln for ln in predicted if ln not in documents]
    assert added and all("enabled_send(send, 42, <port:" in ln or "trace(send, 42, <port:" in ln for ln in added)
    assert len(predicted) - len(documents) == 8


LISTING = ("C-41\tstream\t25\t25\tpasses no flags\nC-92\tcrash\t27\t27\tcrashes\n"
           "C-155\tstream\t25\t27\tno link\nC-7\tstream\t26\t-\tfrom 26\nC-8\tmay-crash\t-\t28\tup to 28\n")


def test_the_deviations_listing_names_the_releases_each_prediction_covers() -> None:
    table = release.deviations(LISTING)
    assert [(d.clarification, d.kind, d.first, d.last) for d in table] == [
        ("C-41", "stream", 25, 25), ("C-92", "crash", 27, 27), ("C-155", "stream", 25, 27),
        ("C-7", "stream", 26, None), ("C-8", "may-crash", None, 28)]
    assert [d.releases() for d in table] == ["25", "27", "25 to 27", "from 26", "up to 28"]
    assert release.predicted(table, 25) == {"C-41", "C-155", "C-8"}
    assert release.predicted(table, 27) == {"C-92", "C-155", "C-7", "C-8"}
    assert release.predicted(table, 29) == {"C-7"}
    assert release.predicted(table, 0) == frozenset()   # the documents
    assert release.clarification_of("C-41: OTP 25 passes no flags") == "C-41"
    assert release.clarification_of("see C-41") == "" and release.clarification_of("C-410x") == ""


def _lines(text: str) -> set[str]:
    """The stream lines of a model run, without their comments."""
    return {line.split(" %", 1)[0] for line in text.splitlines() if not line.startswith("%")}


#: Clarifications that expectations/otpN.toml records a difference for but the model does not predict,
#: with why no fuzz scenario can show them (a scenario that did would be reported as a disagreement).
#: (C-12, the guard BIFs of OTP 26, became a prediction for the releases up to 25; C-445, a match
#: spec map whose keys collide, one for 25 to 29.)
UNPREDICTED: dict[str, str] = {}


@pytest.mark.parametrize("otp_name", ["25", "27", "29"])
def test_expectations_hold_only_what_no_prediction_covers(layout: corpus.Layout, otp_name: str) -> None:
    """Every command judges a run against its release's prediction first (corpus.judged), so an
    expectation's `fail`, `crash` or `timeout` entry is for what the model cannot predict: its
    clarification is none the release is predicted to follow, and no fuzz scenario can show it (a
    scenario that did would be a disagreement the campaign could not explain)."""
    predicted = release.predicted(corpus.deviations(layout), int(otp_name))
    entries = expectations.load(expectations.path_for(layout.expectations, otp_name))
    recorded = {release.clarification_of(e.reason) for e in entries.values() if e.status != "predicted"}
    assert recorded & predicted == set()
    assert recorded - set(UNPREDICTED) == set()


def test_a_release_prediction_gives_otp_27s_lines(layout: corpus.Layout) -> None:
    """C-25 and C-90 are predicted for OTP 27 (the corpus run checks that the node does exactly that)."""
    for case, clarification in (("otp_sess_trace_info_on_load", "C-25"), ("sess_info_dead_and_bad", "C-90")):
        path = str(layout.case_file(case))
        documents, predicted = corpus.model(layout, "sim", path), corpus.model(layout, "sim", path, "--release", "27")
        assert _lines(documents) != _lines(predicted)
        assert clarification in [n.clarification for n in _notes(layout, predicted)]


@pytest.mark.parametrize("words", [["--release"], ["--release", "x"], ["--release", "0"], ["--explain", "--explain"],
                                   ["--release", "25", "--release", "27"], ["--bogus"]],
                         ids=["missing", "not_a_number", "zero", "twice_explain", "twice_release", "unknown"])
def test_bad_release_options_are_usage_errors(layout: corpus.Layout, words: list[str]) -> None:
    status, _, err = campaign.model_run(layout, "sim", str(layout.case_file("inherit_link_set_on_link")), *words)
    assert status == 2 and "usage" in err


#: Scenarios in shapes no expectation lists: OTP 25 must do exactly what C-41 predicts.
C41_SHAPES = {
    "linked_process_sends": ["process a b c", "trace b on all", "b link a", "a send c hello", "c recv"],
    "first_link_then_spawn_link": ["process a b", "trace a on procs set_on_first_link", "a link b",
                                   "a spawn_link e", "info a flags", "info e flags"],
    "linked_process_already_traced": ["process a b", "trace b on send", "trace a on procs set_on_link",
                                      "a link b", "b send a hi", "a recv", "info b flags"],
}


def _scenario(name: str, body: list[str], otp: int, features: tuple[str, ...] = ()) -> gen.Scenario:
    return gen.Scenario(f"fuzz_release_{name}", otp, features, ("tracer recorder", *body))


@pytest.mark.live
@pytest.mark.parametrize("name", list(C41_SHAPES), ids=list(C41_SHAPES))
def test_otp25_does_exactly_what_c41_predicts(layout: corpus.Layout, otp_for, tmp_path: Path, name: str) -> None:
    live = campaign.live_for(layout, otp_for("25"), corpus.host_include(), strict=False)
    item = campaign.as_generated(layout, _scenario(name, C41_SHAPES[name], 25), tmp_path)
    assert item is not None
    result = live.alone(item)
    assert result.status == "deviation", result.detail
    assert "C-41" in result.detail


@pytest.mark.live
@pytest.mark.parametrize("number", ["25", "27"])
def test_a_trapping_link_to_a_dead_process_does_exactly_what_c155_predicts(
        layout: corpus.Layout, otp_for, tmp_path: Path, number: str) -> None:
    live = campaign.live_for(layout, otp_for(number), corpus.host_include(), strict=False)
    body = ["process a b c", "trace a on procs 'receive'", "a trap_exit true", "b exit normal", "a link b",
            "c exit kill", "a link c", "a recv", "a recv", "a link b"]
    item = campaign.as_generated(layout, _scenario("link_dead_trapping", body, 25), tmp_path)
    assert item is not None
    result = live.alone(item)
    assert result.status == "deviation", result.detail
    assert "C-155" in result.detail


@pytest.mark.live
@pytest.mark.parametrize("number", ["25", "27"])
def test_a_meta_item_without_a_meta_pattern_does_exactly_what_c210_predicts(
        layout: corpus.Layout, otp_for, tmp_path: Path, number: str) -> None:
    live = campaign.live_for(layout, otp_for(number), corpus.host_include(), strict=False)
    body = ["process a", "info {tcs_target,id,1} meta", "pattern tcs_target:id/1 true local call_count",
            "a call tcs_target:id(1)", "info {tcs_target,id,1} meta", "info {tcs_target,id,1} call_count"]
    item = campaign.as_generated(layout, _scenario("meta_item_local_count", body, 25), tmp_path)
    assert item is not None
    result = live.alone(item)
    assert result.status == "deviation", result.detail
    assert "C-210" in result.detail


@pytest.mark.live
def test_otp27_crash_at_a_collection_in_two_sessions_is_c92(layout: corpus.Layout, otp_for, tmp_path: Path) -> None:
    live = campaign.live_for(layout, otp_for("27"), corpus.host_include(), strict=False)
    body = ["session sa tracer recorder", "process a b", "create sa", "trace b on garbage_collection",
            "trace sa b on garbage_collection", "a send b hi", "b recv", "b gc"]
    item = campaign.as_generated(layout, _scenario("gc_two_sessions", body, 27, ("sessions",)), tmp_path)
    assert item is not None
    result = live.alone(item)
    assert result.status == "deviation", result.detail
    assert "C-92" in result.detail and "last step started: 6" in result.detail


@pytest.mark.live
def test_otp27_crash_at_a_runtime_collection_in_two_sessions_is_c92_in_its_range(
        layout: corpus.Layout, otp_for, tmp_path: Path) -> None:
    """H2b/K4: no `gc` step; the runtime collects a at some step of the range 4-11 (sa's flag to a's
    exit), and the node dies there (15 of 15 fresh nodes at step 7), or it does not crash and agrees."""
    live = campaign.live_for(layout, otp_for("27"), corpus.host_include(), strict=False)
    body = ["session sa tracer recorder", "process a b", "create sa", "trace a on garbage_collection",
            "b call lists:seq(1,10)", "trace sa a on garbage_collection", *["a call lists:seq(1,40)"] * 6,
            "a exit normal", "b call lists:seq(1,20)"]
    item = campaign.as_generated(layout, _scenario("gc_runtime_two_sessions", body, 27, ("sessions", "gc")), tmp_path)
    assert item is not None
    result = live.alone(item)
    assert result.status in ("deviation", "pass"), result.detail
    if result.status == "deviation":
        assert "C-92 (OTP 27, steps 4-11)" in result.detail and "the lines before it agree" in result.detail


#: C-150's trigger: a meta match spec's {silent,true} in a process the legacy session does not trace.
_STRAY_SILENT = ["process a d", "pattern tcs_target:'_'/'_' [{'_',[],[{silent,true}]}] meta",
                 "d call tcs_target:id(1)"]
#: Shapes no expectation lists, with the step OTP 25 must crash at (C-150), or None where a step in
#: between clears the stray flag, so that OTP 25 must agree with the documents.
C150_SHAPES = {
    "all_processes_spec": (_STRAY_SILENT + ["a send a hi", "trace processes on send"], 4),
    "after_other_steps": (_STRAY_SILENT + ["trace a on send", "a send d hi", "d recv", "trace d on procs"], 6),
    "cleared_by_trace_off_silent": (_STRAY_SILENT + ["trace d off silent", "trace d on send", "d send a hi"], None),
    "cleared_by_silent_false": (_STRAY_SILENT + ["pattern tcs_target:id/1 [{'_',[],[{silent,false}]}] meta",
                                                 "d call tcs_target:id(2)", "trace d on send", "d send a hi"], None),
}


@pytest.mark.parametrize("name", list(C150_SHAPES), ids=list(C150_SHAPES))
def test_otp25_prediction_of_c150_ends_at_the_trace_step_only_while_the_flag_is_stray(
        layout: corpus.Layout, tmp_path: Path, name: str) -> None:
    body, step = C150_SHAPES[name]
    item = campaign.as_generated(layout, _scenario(name, body, 25), tmp_path)
    assert item is not None
    status, out, err = campaign.model_run(layout, "sim", str(item.path), "--release", "25")
    assert status == 0, err
    assert [(n.clarification, n.step, n.crash) for n in _notes(layout, out)] == (
        [("C-150", step, True)] if step else [])


@pytest.mark.live
@pytest.mark.parametrize("name", list(C150_SHAPES), ids=list(C150_SHAPES))
def test_otp25_does_exactly_what_c150_predicts(layout: corpus.Layout, otp_for, tmp_path: Path, name: str) -> None:
    body, step = C150_SHAPES[name]
    live = campaign.live_for(layout, otp_for("25"), corpus.host_include(), strict=False)
    item = campaign.as_generated(layout, _scenario(name, body, 25), tmp_path)
    assert item is not None
    result = live.alone(item)
    if step is None:
        assert result.status == "pass", result.detail
    else:
        assert result.status == "deviation", result.detail
        assert "C-150" in result.detail and f"last step started: {step}" in result.detail


def test_c415_is_predicted_at_the_info_step(layout: corpus.Layout) -> None:
    """Seed 20261209, group N2: OTP 25 shows the stray silent flag of C-150 in trace_info(P, flags)
    until `trace P off silent` or a {silent,false} clears it: the prediction changes only trace_info
    answers, from step 5 on (the corpus run checks the node does exactly that)."""
    case = "ms_silent_untraced_info"
    documents = _sim(layout, case).splitlines()
    predicted = _sim(layout, case, "--release", "25").splitlines()
    assert [(n.release, n.clarification, n.step) for n in _notes(layout, "\n".join(predicted))] == [(25, "C-415", 5)]
    differing = [b for a, b in zip(documents, predicted) if a != b and b.startswith("N ")]
    assert differing and all("trace_info(" in line and "{flags,[silent]}" in line for line in differing)


#: C-415's shapes: the steps after _STRAY_SILENT, and whether OTP 25's trace_info answers [silent].
C415_SHAPES = {
    "asked_at_once": (["info d flags"], True),
    "after_off_send": (["trace d off send", "info d flags"], True),
    "cleared_by_off_silent": (["trace d off silent", "info d flags"], False),
    "cleared_by_silent_false": (["pattern tcs_target:id/1 [{'_',[],[{silent,false}]}] meta",
                                 "d call tcs_target:id(2)", "info d flags"], False),
}


@pytest.mark.live
@pytest.mark.parametrize("name", list(C415_SHAPES), ids=list(C415_SHAPES))
def test_otp25_does_exactly_what_c415_predicts(layout: corpus.Layout, otp_for, tmp_path: Path, name: str) -> None:
    steps, silent = C415_SHAPES[name]
    live = campaign.live_for(layout, otp_for("25"), corpus.host_include(), strict=False)
    item = campaign.as_generated(layout, _scenario(f"c415_{name}", _STRAY_SILENT + steps, 25), tmp_path)
    assert item is not None
    result = live.alone(item)
    if silent:
        assert result.status == "deviation", result.detail
        assert "C-415" in result.detail
    else:
        assert result.status == "pass", result.detail


def test_c48_is_predicted_for_27_and_29_only_where_a_child_inherits_in_place_of_defaults(
        layout: corpus.Layout) -> None:
    """OTP 27 and 29's prediction of C-48 (a child that inherits gets its parent's flags in place of the
    defaults) applies to the same corpus cases on both (the corpus run checks the nodes do exactly
    what is predicted)."""
    paths = corpus.case_paths(layout)
    noted = {}
    for number in ("27", "29"):
        streams = corpus.model_each(layout, paths, "sim", "--release", number)
        noted[number] = {p.stem: {n.clarification for n in _notes(layout, text)} for p, text in zip(paths, streams)}
    c48 = {number: {case for case, names in noted[number].items() if "C-48" in names} for number in ("27", "29")}
    assert len(c48["27"]) >= 9 and c48["27"] == c48["29"]


def test_c360_is_predicted_for_25_only_and_drops_exactly_the_print_after_a_term_down(
        layout: corpus.Layout) -> None:
    """Seed 20261204, group X3: a 'DOWN' whose reason is a tuple leaves the receiver's seq_trace
    token on OTP 27 and 29 (the golden stream); OTP 25 clears it at the receipt (step 6), so the
    print after it asks the seq tracer nothing."""
    case = "seq_down_term_reason"
    documents = _sim(layout, case)
    assert _notes(layout, documents) == []
    assert _sim(layout, case, "--release", "27") == documents == _sim(layout, case, "--release", "29")
    text = _sim(layout, case, "--release", "25")
    assert [(n.release, n.clarification, n.step) for n in _notes(layout, text)] == [(25, "C-360", 6)]
    assert [ln for ln in documents.splitlines() if ln not in text.splitlines()] == [
        "N enabled(seq_trace, <tracer>, <d>) -> trace",
        "N enabled(seq_trace, <tracer>, <d>) -> trace",
        "N trace(seq_trace, <tracer>, 3, {print,{0,1},<d>,[],later}, #{})"]


def test_c360_is_not_noted_for_downs_with_immediate_reasons(layout: corpus.Layout) -> None:
    """The immediate reasons of seq_down_keeps_token never reach C-360's release prediction."""
    assert _notes(layout, _sim(layout, "seq_down_keeps_token", "--release", "25")) == []


def test_a_prediction_for_a_release_inside_a_range_says_it_is_inferred() -> None:
    """--otp PATH of a 26: C-155, seen on 25 and 27, is predicted for it, and the note says it was not seen there."""
    c155 = release.Deviation("C-155", "stream", 25, 27, "link/1 to a dead process ...")
    assert c155.covers(26) and not c155.seen_on(26) and c155.seen_on(25) and c155.seen_on(27)
    assert "inferred from the releases 25 to 27, not seen on 26" in release.Note(26, c155, 3).text()
    assert "inferred" not in release.Note(27, c155, 3).text()
    from_27 = release.Deviation("C-48", "stream", 27, None, "a child ...")
    assert from_27.seen_on(29) and not from_27.seen_on(28) and not from_27.covers(25)
