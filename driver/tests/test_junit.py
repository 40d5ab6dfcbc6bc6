"""--junit for run, validate and fuzz: JUnit XML read back with junitparser (Debian's
python3-junitparser, a JUnit consumer): one testcase per case (or check) and
release, failures and errors with their evidence, skips with their reason."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tcs_driver import corpus, junit
from tcs_driver.fuzz import campaign, report, steer

junitparser = pytest.importorskip("junitparser", reason="reading JUnit XML back needs Debian's "
                                  "python3-junitparser (./tcs test installs it)")

LAYOUT = corpus.default_layout()


def _read(path: Path) -> dict[tuple[str, str], tuple[str, str, str]]:
    """(suite, testcase name) -> (outcome, message, text) as junitparser reads the file."""
    read = {}
    for suite in junitparser.JUnitXml.fromfile(str(path)):
        for case in suite:
            results = case.result
            outcome = "passed" if not results else {junitparser.Failure: "failure", junitparser.Error: "error",
                                                    junitparser.Skipped: "skipped"}[type(results[0])]
            read[(suite.name, case.name)] = (outcome, results[0].message if results else "",
                                             (results[0].text or "") if results else "")
    return read


def test_every_outcome_reads_back(tmp_path: Path) -> None:
    cases = [junit.Case("OTP 25", "tcs.run", "ok", "passed", seconds=0.5),
             junit.Case("OTP 25", "tcs.run", "bad", "failure", "differs", "-N a\n+N b"),
             junit.Case("OTP 27", "tcs.run", "died", "error", "crash", "node ended\x00 \x1b[0m"),
             junit.Case("OTP 27", "tcs.run", "later", "skipped", "needs OTP >= 27")]
    junit.write(tmp_path / "r.xml", "tcs run", cases)
    read = _read(tmp_path / "r.xml")
    assert read == {("OTP 25", "ok"): ("passed", "", ""),
                    ("OTP 25", "bad"): ("failure", "differs", "-N a\n+N b"),
                    ("OTP 27", "died"): ("error", "crash", "node ended [0m"),
                    ("OTP 27", "later"): ("skipped", "needs OTP >= 27", "")}
    xml = junitparser.JUnitXml.fromfile(str(tmp_path / "r.xml"))
    assert (xml.tests, xml.failures, xml.errors, xml.skipped) == (4, 1, 1, 1)
    with pytest.raises(ValueError):
        junit.Case("OTP 25", "tcs.run", "x", "flaky")


def _tcs(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(LAYOUT.repo / "driver"))
    return subprocess.run([sys.executable, "-m", "tcs_driver.cli", *args], capture_output=True, text=True,
                          cwd=cwd, env=env)


@pytest.mark.live
def test_run_writes_a_testcase_per_case_and_release(layout, otp_node, tmp_path: Path) -> None:
    done = _tcs("run", "--cases", "ev_send*", "--json", "r.json", "--junit", "r.xml", cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    read = _read(tmp_path / "r.xml")
    results = json.loads((tmp_path / "r.json").read_text())["results"]
    assert len(results) >= 2 and set(read) == {(f"OTP {r['otp']}", r["case"]) for r in results}, read
    assert {outcome for outcome, _, _ in read.values()} == {"passed"}


@pytest.mark.live
def test_validate_failure_carries_its_evidence(layout, otp_node, tmp_path: Path) -> None:
    name = "tcs_defect_bad_answer"
    done = _tcs("validate", "--module", name, "--nif", str(layout.nifs / f"{name}.so"),
                "--erl", str(layout.repo / "nif_impls" / "defective" / f"{name}.erl"),
                "--checks", "enabled_answers,dead_state", "--junit", "v.xml", cwd=tmp_path)
    assert done.returncode == 1, done.stdout + done.stderr
    read = _read(tmp_path / "v.xml")
    assert set(read) == {("OTP 25", c) for c in ("shape", "enabled_answers", "dead_state")}
    outcome, message, text = read[("OTP 25", "enabled_answers")]
    assert outcome == "failure" and "answered ok" in message and "answered ok" in text, read
    assert read[("OTP 25", "dead_state")][0] == "passed"


def _campaign(tmp_path: Path, lost: int) -> campaign.Campaign:
    """A finished fuzz campaign on one release: one scenario of each kind of outcome."""
    minimal = tmp_path / "fuzz_s9_g1.tcs"
    minimal.write_text("case fuzz_s9_g1\n")
    bad = campaign.Outcome("fuzz_9_1", "27", "disagree", ("+trace in",), ["+N trace(in, ...)"])
    outcomes = [campaign.Outcome("fuzz_9_0", "27", "agree"), bad,
                campaign.Outcome("fuzz_9_2", "27", "crash", detail="node ended: status 3\nmore"),
                campaign.Outcome("fuzz_9_3", "27", "agree", polluted=True, rerun_alone=True),
                campaign.Outcome("fuzz_9_4", "27", "skip", detail="needs OTP >= 27: trace sessions")]
    group = campaign.Group(("+trace in",), "disagree", [bad], minimal_path=minimal)
    return campaign.Campaign(9, ["27"], [], outcomes, [group], {"27": 1.0}, steer.Coverage(), steer.Coverage(),
                             lost=lost)


def test_fuzz_campaign_reads_back_with_groups_and_lost_results(tmp_path: Path) -> None:
    junit.write(tmp_path / "f.xml", "tcs fuzz seed 9", report.junit_cases(_campaign(tmp_path, lost=2)))
    read = _read(tmp_path / "f.xml")
    assert read[("OTP 27", "fuzz_9_0")] == ("passed", "", "")
    outcome, message, text = read[("OTP 27", "fuzz_9_1")]
    assert (outcome, message) == ("failure", "group 1: +trace in")
    assert "+N trace(in, ...)" in text and str(tmp_path / "fuzz_s9_g1.tcs") in text
    assert read[("OTP 27", "fuzz_9_2")][:2] == ("error", "node ended: status 3")
    assert read[("OTP 27", "fuzz_9_3")][:2] == ("failure", "disagrees in a shared node, agrees alone")
    assert read[("OTP 27", "fuzz_9_4")][:2] == ("skipped", "needs OTP >= 27: trace sessions")
    assert read[("campaign", "lost results")][:2] == ("error", "2 result(s) lost")
    clean = report.junit_cases(_campaign(tmp_path, lost=0))
    assert all(c.name != "lost results" for c in clean)


@pytest.mark.live
def test_fuzz_writes_a_testcase_per_scenario_and_release(layout, otp_node, tmp_path: Path) -> None:
    done = _tcs("fuzz", "--seed", "5", "--count", "3", "--shrink-seconds", "0", "--json", "f.json",
                "--junit", "f.xml", cwd=tmp_path)
    assert done.returncode in (0, 1), done.stdout + done.stderr
    read = _read(tmp_path / "f.xml")
    results = json.loads((tmp_path / "f.json").read_text())["results"]
    assert len(results) == 3 and set(read) == {(f"OTP {r['otp']}", r["scenario"]) for r in results}, read
    statuses = {r["scenario"]: r["status"] for r in results}
    for (_, scenario), (outcome, _, _) in read.items():
        assert outcome == report.JUNIT_OUTCOMES[statuses[scenario]], (scenario, outcome, statuses[scenario])
