"""Tests of tcs_driver.results: counts, the JSON schema, the terminal table and exit codes."""

from __future__ import annotations

import json

import pytest

from tcs_driver.results import STATUSES, CaseResult, exit_code, per_rule, render_table, summarise, to_json


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
    assert list(report) == ["otp", "summary", "results"]
    assert report["otp"] == "25"
    assert report["summary"] == summarise(sample())
    assert [r["case"] for r in report["results"]] == sorted(r.case for r in sample())
    for row in report["results"]:
        assert list(row) == ["case", "status", "rules", "otp", "detail"]
    assert report["results"][0] == {
        "case": "fallback_send", "status": "fail", "rules": ["FALLBACK-ENABLED", "EV-SEND"],
        "otp": "25", "detail": "1 missing\nsecond line",
    }
    assert json.loads(json.dumps(report)) == report


def test_to_json_omits_streams() -> None:
    r = CaseResult("c", "fail", ["R"], "26", golden=["N ctl f() -> 1"], live=[])
    assert "golden" not in to_json("26", [r])["results"][0]


def test_render_table() -> None:
    text = render_table(sample())
    lines = text.splitlines()
    assert lines[0].split() == ["CASE", "STATUS", "OTP", "RULES", "DETAIL"]
    assert lines[2].split()[:3] == ["fallback_send", "fail", "25"]
    assert lines[2].endswith("1 missing")  # only the first line of the detail
    assert "second line" not in text
    rule_header = lines.index(next(ln for ln in lines if ln.startswith("RULE ")))
    assert lines[rule_header].split() == ["RULE", *STATUSES]
    assert "EV-SEND  1  1  0  0  0  0".split() in [ln.split() for ln in lines]
    assert lines[-1] == "cases 6, pass 1, fail 1, deviation 1, skip 1, crash 1, timeout 1"


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
