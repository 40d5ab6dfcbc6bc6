"""Tests of tcs_driver.results: counts, the JSON schema, the terminal table and exit codes."""

from __future__ import annotations

import json

import pytest

from tcs_driver.results import (STATUSES, CaseResult, by_case, counts_text, exit_code, per_rule, releases,
                                render_table, rule_matrix, summarise, to_json)


def sample() -> list[CaseResult]:
    """Return a small run with every interesting status, deliberately out of case order."""
    return [
        CaseResult("send_basic", "pass", ["EV-SEND", "OPTS-EXTRA"], "25"),
        CaseResult("fallback_send", "fail", ["FALLBACK-ENABLED", "EV-SEND"], "25", detail="1 missing\nsecond line"),
        CaseResult("return_from", "deviation", ["ENABLED-RETURN-FROM"], "25", detail="C-1"),
        CaseResult("gc_minor", "skip", ["FALLBACK-CATEGORY"], "25"),
        CaseResult("link_pair", "crash", ["EV-LINK", "EV-LINK"], "25"),
        CaseResult("recv_after", "timeout", ["EV-RECEIVE-TIMEOUT"], "25"),
    ]


def test_summarise_counts() -> None:
    assert summarise(sample()) == {
        "cases": 6, "pass": 1, "fail": 1, "deviation": 1, "skip": 1, "crash": 1, "timeout": 1,
    }
    assert list(summarise([])) == ["cases", *STATUSES]
    assert summarise([]) == dict.fromkeys(["cases", *STATUSES], 0)


def test_per_rule_counts() -> None:
    rules = per_rule(sample())
    assert list(rules) == sorted(rules)
    assert rules["EV-SEND"] == {"pass": 1, "fail": 1, "deviation": 0, "skip": 0, "crash": 0, "timeout": 0}
    assert rules["EV-LINK"]["crash"] == 1  # named twice by one case, counted once
    assert sum(rules["OPTS-EXTRA"].values()) == 1


def test_to_json_schema() -> None:
    report = to_json("25", sample())
    assert list(report) == ["otp", "complete", "summary", "by_otp", "results"]
    assert report["otp"] == ["25"] and report["complete"] is True
    assert report["summary"] == summarise(sample())
    assert report["by_otp"] == {"25": summarise(sample())}
    assert [r["case"] for r in report["results"]] == sorted(r.case for r in sample())
    for row in report["results"]:
        assert list(row) == ["case", "status", "rules", "otp", "detail", "changed", "live", "replayed_alone",
                             "shared_run"]
    assert report["results"][0] == {
        "case": "fallback_send", "status": "fail", "rules": ["FALLBACK-ENABLED", "EV-SEND"],
        "otp": "25", "detail": "1 missing\nsecond line", "changed": [], "live": [],
        "replayed_alone": False, "shared_run": None,
    }
    assert json.loads(json.dumps(report)) == report


def test_to_json_says_a_result_was_replayed_alone_and_what_the_shared_node_showed() -> None:
    shared = CaseResult("a", "fail", ["R"], "25", "1 missing", live=["N x"], changed=["-N y"])
    alone = CaseResult("a", "pass", ["R"], "25", live=["N x", "N y"], rerun_alone=True, shared_run=shared)
    [row] = to_json("25", [alone])["results"]
    assert row["status"] == "pass" and row["replayed_alone"] is True
    assert row["shared_run"] == {"case": "a", "status": "fail", "rules": ["R"], "otp": "25", "detail": "1 missing",
                                 "changed": ["-N y"], "live": ["N x"]}


def test_to_json_of_an_interrupted_run_is_marked_incomplete() -> None:
    report = to_json("25", sample()[:1], incomplete="interrupted (Ctrl-C) after 1 result(s)")
    assert report["complete"] is False
    assert report["incomplete"] == "interrupted (Ctrl-C) after 1 result(s)"
    assert report["summary"]["cases"] == 1


def test_to_json_several_releases() -> None:
    run = [CaseResult("a", "pass", ["R"], "29"), CaseResult("a", "skip", ["R"], "25"),
           CaseResult("b", "fail", ["R"], "29", changed=["-N x", "+N y"], live=["N y"]),
           CaseResult("b", "pass", ["R"], "25", live=["N x"])]
    report = to_json(["25", "29"], run)
    assert report["otp"] == ["25", "29"]
    assert [(r["case"], r["otp"]) for r in report["results"]] == [("a", "25"), ("a", "29"), ("b", "25"), ("b", "29")]
    assert report["by_otp"]["25"]["skip"] == 1 and report["by_otp"]["29"]["fail"] == 1
    assert report["summary"]["cases"] == 4
    assert report["results"][3]["changed"] == ["-N x", "+N y"] and report["results"][3]["live"] == ["N y"]


def test_matrices() -> None:
    run = [CaseResult("a", "pass", ["R", "S"], "29"), CaseResult("a", "skip", ["R"], "27"),
           CaseResult("b", "fail", ["R"], "29"), CaseResult("b", "pass", ["R"], "27")]
    assert releases(run) == ["27", "29"]
    assert {case: {o: r.status for o, r in row.items()} for case, row in by_case(run).items()} == {
        "a": {"27": "skip", "29": "pass"}, "b": {"27": "pass", "29": "fail"}}
    matrix = rule_matrix(run)
    assert list(matrix) == ["R", "S"]
    assert matrix["R"]["29"] == {"pass": 1, "fail": 1, "deviation": 0, "skip": 0, "crash": 0, "timeout": 0}
    assert matrix["S"]["27"] == dict.fromkeys(STATUSES, 0)  # the rule has no case result on 27
    assert counts_text(matrix["R"]["29"]) == "1 pass, 1 fail"
    assert counts_text(matrix["S"]["27"]) == "-"


def test_render_table() -> None:
    text = render_table(sample())
    lines = text.splitlines()
    assert lines[0].split() == ["CASE", "OTP", "25", "DETAIL"]
    assert lines[2].split()[:2] == ["fallback_send", "fail"]
    assert lines[2].endswith("25: 1 missing")  # only the first line of the detail
    assert "second line" not in text
    rule_header = lines.index(next(ln for ln in lines if ln.startswith("RULE ")))
    assert lines[rule_header].split() == ["RULE", "OTP", "25"]
    assert "EV-SEND  1 pass, 1 fail".split() in [ln.split() for ln in lines]
    assert lines[-1] == "OTP 25: cases 6, pass 1, fail 1, deviation 1, skip 1, crash 1, timeout 1"


def test_render_table_several_releases() -> None:
    run = [CaseResult("a", "pass", ["R"], "29"), CaseResult("a", "deviation", ["R"], "25", detail="C-9 x")]
    lines = render_table(run).splitlines()
    assert lines[0].split() == ["CASE", "OTP", "25", "OTP", "29", "DETAIL"]
    assert lines[2].split() == ["a", "deviation", "pass", "25:", "C-9", "x"]
    assert lines[-2:] == ["OTP 25: cases 1, pass 0, fail 0, deviation 1, skip 0, crash 0, timeout 0",
                          "OTP 29: cases 1, pass 1, fail 0, deviation 0, skip 0, crash 0, timeout 0"]


def test_default_lists_are_independent() -> None:
    a = CaseResult("a", "pass", [], "25")
    b = CaseResult("b", "pass", [], "25")
    a.golden.append("N ctl f() -> 1")
    assert b.golden == []


def test_unknown_status_rejected() -> None:
    with pytest.raises(ValueError, match="unknown status 'passed'"):
        CaseResult("a", "passed", [], "25")


@pytest.mark.parametrize(
    ("statuses", "code"),
    [
        pytest.param([], 0, id="empty"),
        pytest.param(["pass"], 0, id="pass"),
        pytest.param(["pass", "deviation", "skip"], 0, id="ok-statuses"),
        pytest.param(["pass", "fail"], 1, id="fail"),
        pytest.param(["crash"], 1, id="crash"),
        pytest.param(["skip", "timeout"], 1, id="timeout"),
    ],
)
def test_exit_code(statuses: list[str], code: int) -> None:
    assert exit_code([CaseResult(f"c{i}", s, [], "25") for i, s in enumerate(statuses)]) == code
