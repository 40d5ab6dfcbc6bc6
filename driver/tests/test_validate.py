"""./tcs validate on every bundled tracer: each good one passes every check,
each deliberately defective one (nif_impls/defective) is flagged by the check
its source names and by no other, the recorder fails the two checks its
recording breaks by design.  Then the evidence of crashes and hangs, the
command line (reports, exit codes, bad input), and the reading of NIF tables.
No timing assertions: the cost check must only produce its medians."""
from __future__ import annotations

import html
import json
import os
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from conftest import TEST_RELEASES
from tcs_driver import corpus, node, provision
from tcs_driver.validate import bundled, engine, inputs, releases, report
from tcs_driver.validate.checks import (ALL_CHECK_NAMES, CHECK_NAMES, SANITIZE_CHECK, Bench, CheckResult, Stress,
                                        looks_like_callback, runtime_callbacks)

LAYOUT = corpus.default_layout()
#: Default time limits (a loaded CI machine must not look like a hang); the
#: benchmark small, run once.
QUICK = engine.Options(bench=Bench(1, 500, 500, budget=1000.0), parallel=2, stress=Stress(seconds=2.0),
                       heap_nif=LAYOUT.nifs / "tcs_validate_heap.so")
RECORDER = "recorder"
NAMES = [b.module for b in bundled.good(LAYOUT) + bundled.defective(LAYOUT)] + [RECORDER]


@pytest.fixture(scope="module")
def verdicts(layout, otp_node, tmp_path_factory) -> dict[str, tuple[bundled.Bundled, list[CheckResult]]]:
    """Every bundled tracer validated on the host's OTP, two at a time."""
    otp, _release, include = otp_node
    scratch = tmp_path_factory.mktemp("validate")
    recorder_tracer = bundled.recorder_tracer(layout, include, scratch)
    tracers = bundled.good(layout) + bundled.defective(layout) + [recorder_tracer]
    # A tracer that holds its scheduler in every call (a `latency` defect) slows every check: about 95 s,
    # where the others take 5. Started first, it no longer ends the fixture alone a minute after the rest.
    tracers.sort(key=lambda t: "latency" not in t.fails)

    def validate(tracer: bundled.Bundled) -> tuple[bundled.Bundled, list[CheckResult]]:
        where = scratch / tracer.module
        where.mkdir()
        prepared = inputs.prepare(tracer.module, str(tracer.nif), str(tracer.erl), None, None, where)
        return tracer, engine.validate(prepared, [otp], lambda o: corpus.runner_beams(layout, o), QUICK, lambda _: None)

    with ThreadPoolExecutor(max_workers=2) as pool:
        done = list(pool.map(validate, tracers))
    by_name = {t.module: (t, results) for t, results in done}
    by_name[RECORDER] = by_name.pop(recorder_tracer.module)
    return by_name


def _table(results: list[CheckResult]) -> str:
    return "\n".join(f"{r.check}: {r.status}: {r.summary}" for r in results)


@pytest.mark.live
@pytest.mark.parametrize("name", NAMES)
def test_bundled_tracer_fails_exactly_its_checks(name: str, verdicts) -> None:
    tracer, results = verdicts[name]
    assert [r.check for r in results] == list(CHECK_NAMES)
    failing = {r.check for r in results if r.status == "fail"}
    # memory runs with --sanitize only (test_validate_sanitize.py): every other check passes its defect.
    assert tracer.fails - {SANITIZE_CHECK} <= failing <= tracer.fails | tracer.may_fail, \
        f"{name} ({tracer.why}):\n{_table(results)}"
    shape = results[0]
    for r in results[1:]:
        # A check is skipped only when the runtime refuses the tracer, or when
        # no event reached it, and says so.
        assert r.status != "skip" or (shape.status == "fail" and "see shape" in r.summary) or \
            r.summary.startswith("vacuous: no event reached the tracer") or \
            (r.check == "leak" and r.summary.startswith("not judged: ")), _table(results)


@pytest.mark.live
def test_a_tracer_that_detaches_at_once_is_not_passed_by_live_or_cost(verdicts) -> None:
    live = _check(verdicts, "tcs_defect_always_remove", "live", status="skip")
    assert live.summary.startswith("vacuous: no event reached the tracer"), live.summary
    cost = _check(verdicts, "tcs_defect_always_remove", "cost", status="pass")
    assert cost.summary.startswith("nothing was traced: the tracer was not attached"), cost.summary
    for name in ("erl_msg_tracer", "tcs_good_tracer"):
        assert "nothing was traced" not in _check(verdicts, name, "cost", status="pass").summary
        assert "not verified" not in _check(verdicts, name, "live", status="pass").summary


@pytest.mark.live
def test_a_check_on_fewer_inputs_says_so_in_its_verdict(verdicts) -> None:
    # trace_accepts fails on the inputs that crash: tracee_untouched runs without them
    untouched = _check(verdicts, "tcs_defect_trace_crash", "tracee_untouched", status="pass")
    assert "tracee_untouched ran on " in untouched.summary and "only those that passed enabled_answers, trace_accepts" \
        in untouched.summary and "the others are not verified" in untouched.summary, untouched.summary
    for check in ("enabled_answers", "enabled_pure", "trace_accepts", "tracee_untouched"):
        assert " ran on " not in _check(verdicts, "tcs_good_tracer", check, status="pass").summary


@pytest.mark.live
def test_every_check_is_the_defect_of_some_tracer(verdicts) -> None:
    flagged = {check for tracer, _ in verdicts.values() for check in tracer.fails}
    assert flagged == set(ALL_CHECK_NAMES)


@pytest.mark.live
def test_crash_names_the_callback_the_tag_and_the_last_output(verdicts) -> None:
    result = _check(verdicts, "tcs_defect_trace_crash", "trace_accepts")
    first = result.evidence[0]
    assert first.startswith("crash in trace(send, State, Tracee=pid"), first
    assert "timestamp => cpu_timestamp" in first and "SIGSEGV" in first
    assert "the node's last output:" in first and "TCS STEP t2 trace/send/pid" in first
    # the check went on in fresh nodes, without the inputs that crashed
    assert result.nodes > 1
    assert any("send_to_non_existing_process" in e for e in result.evidence[1:])


@pytest.mark.live
def test_hang_is_cut_by_the_callback_limit(verdicts) -> None:
    result = _check(verdicts, "tcs_defect_trace_hang", "trace_accepts")
    assert result.summary.startswith("hang in trace(seq_trace, State, {tcs,label}"), result.summary
    assert f"the {QUICK.limits.callback_s:g} s per-callback limit" in result.summary


@pytest.mark.live
def test_crash_in_live_traffic_names_the_phase_and_the_callbacks(verdicts) -> None:
    result = _check(verdicts, "tcs_defect_no_caller", "live")
    assert result.summary.startswith("crash in live garbage_collection: a process allocates"), result.summary
    assert "SIGSEGV" in result.summary
    assert any("enabled/3, trace/5" in e for e in result.evidence), result.evidence


@pytest.mark.live
def test_defects_are_described_with_their_inputs(verdicts) -> None:
    assert "enabled('receive', State, Tracee=pid): answered ok" in \
        _check(verdicts, "tcs_defect_bad_answer", "enabled_answers").summary
    assert "answered trace, then discard" in _check(verdicts, "tcs_defect_flaky_answer", "enabled_pure").summary
    assert "sent to the tracee: [{spawned," in \
        _check(verdicts, "tcs_defect_sends_to_tracee", "tracee_untouched").summary
    assert "enabled_sends/3" in _check(verdicts, "tcs_defect_misnamed", "shape").summary
    assert "the tracer is still attached" in _check(verdicts, "tcs_defect_dead_discard", "dead_state").summary
    assert "alive, yet the tracer was removed" in \
        _check(verdicts, "tcs_defect_always_remove", "dead_state").summary


@pytest.mark.live
def test_each_runtime_defect_class_is_named_in_its_verdict(verdicts) -> None:
    assert "[extra: a locally registered name, as Name ! Msg passes it]" in \
        _check(verdicts, "tcs_defect_name_recipient", "trace_accepts").summary
    assert "the highest scheduler]" in _check(verdicts, "tcs_defect_sched_off_by_one", "trace_accepts").summary
    unsafe = _check(verdicts, "tcs_defect_thread_unsafe", "stress").summary
    assert unsafe.startswith(("crash in stress", "garbage in a report")) and "schedulers at once" in unsafe, unsafe
    leak = _check(verdicts, "tcs_defect_leak", "leak").summary
    assert re.search(r"memory grows with events: erlang:memory\(system\) .*: \+\d+ bytes per event", leak), leak
    malloc_leak = _check(verdicts, "tcs_defect_malloc_leak", "leak").summary
    assert re.search(r"memory grows with events: malloc .*: \+\d+ bytes per event", malloc_leak), malloc_leak
    stall = _check(verdicts, "tcs_defect_stall", "latency").summary
    assert stall.startswith("trace(") and re.search(r"held its scheduler (4\d|5\d)\.\d ms", stall), stall
    assert _check(verdicts, "tcs_defect_stall", "cost").summary.startswith("over budget: ")


@pytest.mark.live
def test_stress_and_leak_measure_on_good_tracers(verdicts) -> None:
    for name in ("tcs_good_tracer", "tcs_good_threaded"):
        stress = _check(verdicts, name, "stress", status="pass")
        assert stress.data["reports"] > 0 and stress.data["schedulers"] >= 1, stress.data
        leak = _check(verdicts, name, "leak", status="pass")
        assert "bytes per event" in leak.summary and "malloc " in leak.summary, leak.summary


@pytest.mark.live
def test_shape_warns_of_meta_tracing_with_trace_call(verdicts) -> None:
    assert engine.META_TRACE_CALL in _check(verdicts, "tcs_good_tracer", "shape", status="pass").evidence
    assert engine.META_TRACE_CALL not in _check(verdicts, "erl_msg_tracer", "shape", status="pass").evidence


@pytest.mark.live
def test_cost_reports_medians_and_ratios(verdicts) -> None:
    for name in ("erl_msg_tracer", "tcs_good_tracer"):
        data = _check(verdicts, name, "cost", status="pass").data
        for key in ("enabled_ns", "trace_ns", "event_untraced_ns", "event_module_ns", "event_builtin_ns",
                    "module_vs_untraced", "builtin_vs_untraced", "module_vs_builtin"):
            assert isinstance(data[key], float) and data[key] >= 0, (name, key, data)


def _check(verdicts, name: str, check: str, status: str = "fail") -> CheckResult:
    result = next(r for r in verdicts[name][1] if r.check == check)
    assert result.status == status, _table(verdicts[name][1])
    return result


# --- the command line -----------------------------------------------------------------

def _tcs(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(LAYOUT.repo / "driver"))
    return subprocess.run([sys.executable, "-m", "tcs_driver.cli", "validate", *args],
                          capture_output=True, text=True, cwd=cwd, env=env)


def _msg_tracer(*extra: str) -> list[str]:
    return ["--module", "erl_msg_tracer", "--nif", str(LAYOUT.nifs / "erl_msg_tracer.so"),
            "--erl", str(LAYOUT.repo / "nif_impls" / "erl_msg_tracer" / "erl_msg_tracer.erl"), *extra]


@pytest.mark.live
def test_command_writes_json_and_html_and_exits_0_on_pass(layout, otp_node, tmp_path: Path) -> None:
    done = _tcs(*_msg_tracer("--checks", "enabled_answers,dead_state", "--json", "r.json", "--html", "r.html"),
                cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "verdict: PASS" in done.stdout and "time limits:" in done.stdout
    report = json.loads((tmp_path / "r.json").read_text())
    assert report["verdict"] == "pass" and report["module"] == "erl_msg_tracer"
    assert [c["check"] for c in report["checks"]] == ["shape", "enabled_answers", "dead_state"]
    assert set(report["limits"]) == {"per_callback_s", "per_action_s", "per_check_node_s"}
    page = (tmp_path / "r.html").read_text()
    assert page.startswith("<!DOCTYPE html>") and "<table>" in page and "dead_state" in page


@pytest.mark.live
def test_command_exits_1_when_a_check_fails(layout, otp_node, tmp_path: Path) -> None:
    name = "tcs_defect_bad_answer"
    done = _tcs("--module", name, "--nif", str(layout.nifs / f"{name}.so"),
                "--erl", str(layout.repo / "nif_impls" / "defective" / f"{name}.erl"),
                "--checks", "enabled_answers", "--json", "r.json", cwd=tmp_path)
    assert done.returncode == 1, done.stdout + done.stderr
    assert json.loads((tmp_path / "r.json").read_text())["verdict"] == "fail"


@pytest.mark.live
def test_state_without_harness_process_skips_dead_state(layout, otp_node, tmp_path: Path) -> None:
    done = _tcs(*_msg_tracer("--state", "{config, [1, 2]}", "--checks", "dead_state", "--json", "r.json"),
                cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    dead_state = json.loads((tmp_path / "r.json").read_text())["checks"][1]
    assert dead_state["status"] == "skip" and "'$harness'" in dead_state["summary"], dead_state


@pytest.mark.live
def test_state_that_lost_its_harness_process_is_warned_about(layout, otp_node, tmp_path: Path) -> None:
    # what `--state "{'$harness', 1}"` becomes in a POSIX shell
    done = _tcs(*_msg_tracer("--state", "{'', 1}", "--checks", "dead_state", "--json", "r.json"), cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "warning: --state {'', 1} has no '$harness' (it has ''" in done.stderr, done.stderr
    report = json.loads((tmp_path / "r.json").read_text())
    assert report["warnings"] and "dead_state is skipped" in report["warnings"][0]
    assert report["checks"][1]["status"] == "skip"
    assert inputs.state_warnings("{'$harness', 1}") == [] and inputs.state_warnings(None) == []


@pytest.mark.live
def test_callback_written_in_erlang_is_pointed_out(layout, otp_node, tmp_path: Path) -> None:
    example = (layout.repo / "nif_impls" / "erl_msg_tracer" / "erl_msg_tracer.erl").read_text()
    exports = "-export([enabled/3, trace/5, load/0])."
    assert exports in example
    (tmp_path / "erl_msg_tracer.erl").write_text(
        example.replace(exports, "-export([enabled/3, trace/5, load/0, enabled_send/3]).")
        + "\nenabled_send(_, _, _) -> trace.\n")
    done = _tcs("--module", "erl_msg_tracer", "--nif", str(layout.nifs / "erl_msg_tracer.so"),
                "--erl", str(tmp_path / "erl_msg_tracer.erl"), "--checks", "shape", "--json", "r.json",
                cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    shape = json.loads((tmp_path / "r.json").read_text())["checks"][0]
    assert any(e.startswith("enabled_send/3 is exported by the module but is not a NIF")
               for e in shape["evidence"]), shape


@pytest.mark.live
@pytest.mark.parametrize("args, message", [
    (["--module", "erl_msg_tracer", "--nif", "missing.so", "--erl", "x.erl"], "--nif missing.so: no such file"),
    (_msg_tracer("--state", "{unclosed, "), "--state:1:"),
    (_msg_tracer("--checks", "enabled_answers,speed"), "unknown check(s) speed"),
    (["--module", "tcs_good_tracer", "--nif", str(LAYOUT.nifs / "erl_msg_tracer.so"),
      "--erl", str(LAYOUT.repo / "nif_impls" / "erl_msg_tracer" / "erl_msg_tracer.erl")],
     "is the source of module erl_msg_tracer"),
    (["--module", "erl_msg_tracer", "--nif", str(LAYOUT.nifs / "tcs_good_tracer.so"),
      "--erl", str(LAYOUT.repo / "nif_impls" / "erl_msg_tracer" / "erl_msg_tracer.erl")],
     "the library is for module tcs_good_tracer, not erl_msg_tracer"),
], ids=["missing-file", "bad-state", "unknown-check", "module-mismatch", "library-of-another-module"])
def test_bad_input_exits_2_and_writes_nothing(layout, otp_node, tmp_path: Path, args, message) -> None:
    done = _tcs(*args, "--json", "r.json", "--html", "r.html", cwd=tmp_path)
    assert done.returncode == 2, done.stdout + done.stderr
    assert message in done.stderr, done.stderr
    assert list(tmp_path.iterdir()) == []


@pytest.mark.live
def test_beam_of_another_module_is_bad_input(layout, otp_node, tmp_path: Path) -> None:
    subprocess.run(["erlc", "-o", str(tmp_path), str(layout.repo / "nif_impls" / "good" / "tcs_good_tracer.erl")],
                   check=True)
    done = _tcs("--module", "erl_msg_tracer", "--nif", str(layout.nifs / "erl_msg_tracer.so"),
                "--beam", str(tmp_path / "tcs_good_tracer.beam"), cwd=tmp_path)
    assert done.returncode == 2, done.stdout + done.stderr
    assert "holds module tcs_good_tracer" in done.stderr


# --- reading NIF tables (no node) --------------------------------------------------------

@pytest.mark.parametrize("name, arity, looks", [
    ("enabled", 3, False), ("trace_send", 5, False), ("enabled_running_procs", 3, False),
    ("enabled_sends", 3, True), ("trace_gc", 5, True), ("enable_send", 3, True),
    ("trace", 6, True), ("enabled", 4, True),
    ("trace_info", 1, False), ("tracer_stats", 0, False), ("load", 0, False), ("enabled_flag", 1, False),
])
def test_looks_like_callback(name: str, arity: int, looks: bool) -> None:
    assert (looks_like_callback(name, arity) is not None) == looks


@pytest.mark.parametrize("name, arity, receiver", [
    ("enabled_spawn", 3, "spawn events go to enabled_procs/3"),
    ("trace_gc", 5, "go to trace_garbage_collection/5"),
    ("trace_link", 5, "go to trace_procs/5 or trace_ports/5"),
    ("enabled_exit", 3, "go to enabled_procs/3"),
    ("enabled_sends", 3, "nearest: enabled_send/3"),
])
def test_misnamed_callback_hint_names_the_callback_that_receives_the_events(name: str, arity: int,
                                                                            receiver: str) -> None:
    hint = looks_like_callback(name, arity)
    assert hint is not None and receiver in hint, hint


def test_runtime_callbacks_follow_the_nif_table() -> None:
    assert runtime_callbacks(["send"], {("enabled", 3), ("trace", 5)}) == "enabled/3, trace/5"
    assert runtime_callbacks(["send", "receive"], {("enabled", 3), ("trace", 5), ("trace_send", 5)}) == \
        "enabled/3, trace_send/5, trace/5"


def test_every_defective_tracer_names_a_check(layout) -> None:
    for tracer in bundled.defective(layout):
        assert tracer.fails and tracer.fails | tracer.may_fail <= set(ALL_CHECK_NAMES), tracer
        assert tracer.erl.exists(), tracer


def test_workdir_of_a_chroot_release_lies_inside_its_root(tmp_path: Path) -> None:
    (tmp_path / "tmp").mkdir()
    otp = node.Otp("27", ["chroot", str(tmp_path), "erl"], root=tmp_path)
    with releases.workdir(otp) as work:
        assert work.host.parent == tmp_path / "tmp"
        assert work.node_path(work.beams) == f"/tmp/{work.host.name}/beam"
    assert not work.host.exists()
    with releases.workdir(node.Otp("local", ["erl"])) as local:
        assert local.node_path(local.tracer_dir) == str(local.tracer_dir)


@pytest.mark.live
@pytest.mark.parametrize("release", [r for r in TEST_RELEASES if int(r) in provision.SUITES])
def test_good_tracer_passes_every_check_on_other_releases(release: str, layout, otp_for, tmp_path) -> None:
    tracer = next(t for t in bundled.good(layout) if t.module == "tcs_good_tracer")
    prepared = inputs.prepare(tracer.module, str(tracer.nif), str(tracer.erl), None, None, tmp_path)
    results = engine.validate(prepared, [otp_for(release)], lambda o: corpus.runner_beams(layout, o), QUICK,
                              lambda _: None)
    assert [r.check for r in results] == list(CHECK_NAMES)
    assert {r.otp for r in results} == {release}
    assert [r for r in results if r.status != "pass"] == [], _table(results)


# --- the HTML report ----------------------------------------------------------------------

def _page(results: list[CheckResult], tmp_path: Path) -> str:
    tracer = inputs.Tracer("t", tmp_path / "t.so", tmp_path / "t.beam", "t.erl", None)
    return report.render_html(report.Report(tracer, ["25"], engine.Limits(), Bench(), results))


def test_html_lists_every_misnamed_nif_and_explains_the_evidence_ids(tmp_path: Path) -> None:
    shape = CheckResult("shape", "25", "fail", "NIF enabled_sends/3 looks like a callback", [],
                        data={"nifs": ["enabled/3", "enabled_sends/3", "trace/5", "trace_spawn/5", "version/0"]})
    page = _page([shape], tmp_path)
    for nif, what in [("enabled_sends/3", "nearest: enabled_send/3"), ("trace_spawn/5", "trace_procs/5"),
                      ("enabled/3", "a callback of erl_tracer"), ("version/0", "not a callback")]:
        assert re.search(f"<code>{re.escape(nif)}</code></td><td class=\"\\w+\">[^<]*{re.escape(what)}", page), nif
    for identifier, _ in report.EVIDENCE_IDS:
        assert f"<dt><code>{html.escape(identifier)}</code></dt>" in page


@pytest.mark.live
def test_html_shows_crash_evidence_line_by_line(verdicts, tmp_path: Path) -> None:
    crash = _check(verdicts, "tcs_defect_trace_crash", "trace_accepts")
    page = _page([crash], tmp_path)
    evidence = re.search(r"<details open><summary>evidence \((\d+) lines\)</summary><pre>(.*?)</pre>", page, re.S)
    assert evidence, page
    lines = evidence.group(2).splitlines()
    assert int(evidence.group(1)) == len(lines) > 3
    assert any(line.strip().startswith("TCS STEP t2 trace/send/pid") for line in lines), lines
    # the summary cell holds the first line only
    assert "the node&#x27;s last output:</td>" in page or "last output:<details" in page, page
