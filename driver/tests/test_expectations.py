"""Per-release expectations: the file format, its errors (FILE:LINE:COL), and how a result is judged."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from conftest import CASES
from tcs_driver import corpus, expectations
from tcs_driver.conformance import text as conformance_text
from tcs_driver.results import CaseResult

ENTRY = '''# documented differences
[ev_send_terms]
status = "fail"
rule = "EV-SEND"
reason = "C-9: the release sends the term differently"
evidence = ["-N trace(send, <tracer>, <a>, x, #{extra=><b>})",
            "+N trace(send, <tracer>, <a>, y, #{extra=><b>})"]

[ms_heads]
status = "crash"
rule = "CTL-PATTERN"
reason = "C-10: the node aborts"
evidence = ["Segmentation fault"]
'''


def _load(tmp_path: Path, text: str | bytes) -> dict[str, expectations.Expectation]:
    path = tmp_path / "otp29.toml"
    path.write_bytes(text.encode() if isinstance(text, str) else text)
    return expectations.load(path)


def test_load(tmp_path: Path) -> None:
    entries = _load(tmp_path, ENTRY)
    assert sorted(entries) == ["ev_send_terms", "ms_heads"]
    e = entries["ev_send_terms"]
    assert (e.status, e.rule) == ("fail", "EV-SEND")
    assert e.evidence[0].startswith("-N trace(send")
    assert e.where == f"{tmp_path / 'otp29.toml'}:2:1"
    assert expectations.load(tmp_path / "absent.toml") == {}


@pytest.mark.parametrize(("text", "message"), [
    pytest.param("[a]\nstatus = \n", r"otp29.toml:2:\d+: ", id="toml-syntax"),
    pytest.param('\n[a]\nstatus = "fail"\n', r"otp29.toml:2:1: \[a\] lacks evidence, reason, rule", id="missing"),
    pytest.param(ENTRY.replace('status = "crash"', 'status = "pass"'),
                 r"otp29.toml:9:1: \[ms_heads\] status 'pass' is not one of fail, crash, timeout", id="status"),
    pytest.param(ENTRY.replace('rule = "EV-SEND"', 'rule = "EV-SEND"\nrules = 1'),
                 r"otp29.toml:2:1: \[ev_send_terms\] has unknown key\(s\) rules", id="unknown-key"),
    pytest.param(ENTRY.replace('evidence = ["Segmentation fault"]', "evidence = []"),
                 r"\[ms_heads\] evidence must be a non-empty list of strings", id="no-evidence"),
    pytest.param(ENTRY.replace('reason = "C-10: the node aborts"', 'reason = " "'),
                 r"\[ms_heads\] reason must be a non-empty string", id="blank-reason"),
    pytest.param("a = 1\n", r"otp29.toml:1:1: a must be a table", id="not-a-table"),
    pytest.param(ENTRY.encode().replace(b"C-9: the", b"C-9: th\xe9"), r"otp29.toml:5:18: invalid UTF-8 \(byte 0xE9\)",
                 id="latin1"),
    pytest.param("[a]\nevidence = " + "[" * 100_000, r"otp29.toml:2:\d+: nesting too deep", id="deep"),
])
def test_load_errors(tmp_path: Path, text: str | bytes, message: str) -> None:
    with pytest.raises(expectations.ExpectationError, match=message):
        _load(tmp_path, text)


def _fail(changed: list[str]) -> CaseResult:
    return CaseResult("ev_send_terms", "fail", ["EV-SEND"], "29", "the diff", changed=changed)


def test_documented_difference_is_a_deviation(tmp_path: Path) -> None:
    entry = _load(tmp_path, ENTRY)["ev_send_terms"]
    judged = expectations.apply(_fail(list(entry.evidence)), entry)
    assert judged.status == "deviation"
    assert judged.detail.startswith(f"documented at {entry.where} (EV-SEND): C-9")
    assert judged.detail.endswith("the diff")


def test_other_difference_stays_a_failure(tmp_path: Path) -> None:
    entry = _load(tmp_path, ENTRY)["ev_send_terms"]
    judged = expectations.apply(_fail(["-N trace(send, <tracer>, <a>, x, #{extra=><b>})"]), entry)
    assert judged.status == "fail"
    assert "differs from its documented deviation" in judged.detail


def test_stale_expectation_is_a_failure(tmp_path: Path) -> None:
    entry = _load(tmp_path, ENTRY)["ev_send_terms"]
    judged = expectations.apply(CaseResult("ev_send_terms", "pass", ["EV-SEND"], "29"), entry)
    assert judged.status == "fail"
    assert judged.detail.startswith(f"stale expectation: {entry.where} says this case gives fail")


def test_crash_expectation_matches_the_node_output(tmp_path: Path) -> None:
    entry = _load(tmp_path, ENTRY)["ms_heads"]
    crash = CaseResult("ms_heads", "crash", [], "29", "node ended ...\nSegmentation fault (core dumped)")
    assert expectations.apply(crash, entry).status == "deviation"
    other = CaseResult("ms_heads", "crash", [], "29", "node ended ...\nAbort")
    assert expectations.apply(other, entry).status == "crash"


def test_no_entry_leaves_the_result_alone() -> None:
    result = _fail(["+N x"])
    assert expectations.apply(result, None) is result


def test_unknown_cases(tmp_path: Path) -> None:
    entries = _load(tmp_path, ENTRY)
    assert expectations.unknown_cases(entries, {"ev_send_terms"}) == [
        f"{entries['ms_heads'].where}: no case ms_heads in cases/"]


def test_the_repository_files_are_valid(layout: corpus.Layout) -> None:
    corpus.check_expectations(layout, ["25", "27", "29"])
    assert {p.name for p in layout.expectations.glob("*.toml")} >= {"otp25.toml", "otp27.toml", "otp29.toml"}
    assert CASES, "no corpus"


def test_skip_reason_in_words() -> None:
    case = corpus.Case(Path("x.tcs"), "x", [], 27, ["sessions", "send"], "recorder", [])
    assert corpus.skip_reason(case, 25) == "needs OTP >= 27: trace sessions (the trace module); this node is OTP 25"
    assert corpus.skip_reason(case, 27) is None
    plain = corpus.Case(Path("y.tcs"), "y", [], 29, ["send"], "recorder", [])
    assert corpus.skip_reason(plain, 27) == "needs OTP >= 29; this node is OTP 27"


def test_a_live_run_is_judged_against_the_release_file(layout: corpus.Layout, otp_node, tmp_path: Path) -> None:
    """run_cases reads expectations/otp<N>.toml: here an entry for a case that agrees, so it is stale."""
    otp, _, include = otp_node

    class Elsewhere(corpus.Layout):
        @property
        def expectations(self) -> Path:
            return tmp_path

    (tmp_path / f"otp{otp.name}.toml").write_text(ENTRY.replace("[ev_send_terms]", "[fallback_send_none]"))
    case = next(c for c in CASES if c.id == "fallback_send_none")
    [result] = corpus.run_cases(Elsewhere(layout.repo, layout.build), [case], otp, include)
    assert result.status == "fail"
    assert result.detail.startswith(f"stale expectation: {tmp_path / f'otp{otp.name}.toml'}:2:1")


def test_every_entry_names_a_clarification_and_a_rule(layout: corpus.Layout) -> None:
    """Each entry's reason starts with a clarification the catalogue (conformance/) has, and its rule is in the catalogue."""
    conformance = conformance_text(layout.repo)
    clarifications = set(re.findall(r"^### (C-\d+):", conformance, re.MULTILINE))
    rules = set(re.findall(r"^\| ([A-Z][A-Z0-9-]+) \|", conformance, re.MULTILINE))
    for path in sorted(layout.expectations.glob("otp*.toml")):
        for entry in expectations.load(path).values():
            named = re.match(r"(C-\d+):", entry.reason)
            assert named and named.group(1) in clarifications, f"{entry.where}: reason names no known C-n"
            assert entry.rule in rules, f"{entry.where}: no rule {entry.rule} in conformance/"
