"""./tcs diff: what changed between two JSON reports, and its exit codes."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tcs_driver import cli, rundiff
from tcs_driver.results import CaseResult, to_json

SEND = "N trace(send, <tracer>, <a>, ping, #{extra=><b>})"
SEND_OTHER = "N trace_send(send, <tracer>, <a>, ping, #{extra=><b>})"
PROBE = "I enabled(trace_status, <tracer>, <a>) -> trace"


def _report(path: Path, otps: list[str], results: list[CaseResult]) -> Path:
    path.write_text(json.dumps(to_json(otps, results)))
    return path


def _old_new(tmp_path: Path, new_otp: str = "25") -> tuple[Path, Path]:
    old = _report(tmp_path / "old.json", ["25"], [
        CaseResult("stays", "pass", ["R"], "25", live=[PROBE, SEND]),
        CaseResult("breaks", "pass", ["R"], "25", live=[SEND]),
        CaseResult("heals", "fail", ["R"], "25", live=[SEND_OTHER]),
        CaseResult("gone", "pass", ["R"], "25"),
    ])
    new = _report(tmp_path / "new.json", [new_otp], [
        CaseResult("stays", "pass", ["R"], new_otp, live=[PROBE, PROBE, SEND]),
        CaseResult("breaks", "fail", ["R"], new_otp, detail="1 missing", live=[SEND_OTHER]),
        CaseResult("heals", "pass", ["R"], new_otp, live=[SEND]),
        CaseResult("added", "skip", ["R"], new_otp),
    ])
    return old, new


def test_changes_between_releases_are_paired_by_case(tmp_path: Path) -> None:
    old, new = _old_new(tmp_path, new_otp="29")
    d = rundiff.compare(rundiff.load(old), rundiff.load(new))
    assert d.pairing == "case by case, OTP 25 (old) against OTP 29 (new)"
    assert [k for k, _, _ in d.newly_failing] == ["breaks"]
    assert [k for k, _, _ in d.newly_passing] == ["heals"]
    assert [k for k, _ in d.only_old] == ["gone"]
    assert [k for k, _ in d.only_new_ok] == ["added"]
    assert [k for k, _ in d.streams_changed] == ["breaks", "heals"]  # the extra probe is informative
    assert d.unchanged == 1
    text = rundiff.render(d)
    assert "NEWLY FAILING (regressions) (1):\n  breaks: pass -> fail  (1 missing)" in text
    assert f"    -{SEND}\n    +{SEND_OTHER}" in text
    assert text.endswith("1 newly failing, 1 newly passing, 0 other status changes, 2 streams changed, 1 unchanged\n")


def test_strict_compares_informative_lines(tmp_path: Path) -> None:
    old, new = _old_new(tmp_path)
    d = rundiff.compare(rundiff.load(old), rundiff.load(new), strict=True)
    assert d.pairing == "by case and release"
    assert "stays (OTP 25)" in [k for k, _ in d.streams_changed]


def test_exit_codes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    old, new = _old_new(tmp_path)
    assert cli.main(["diff", str(old), str(new)]) == 1
    assert cli.main(["diff", str(old), str(old)]) == 0
    assert "0 newly failing" in capsys.readouterr().out
    assert cli.main(["diff", str(new), str(old)]) == 1  # 'heals' fails again in that direction


@pytest.mark.parametrize(("content", "message"), [
    pytest.param(None, "cannot read: No such file or directory", id="missing"),
    pytest.param('{"otp": ["25"], "results": [', r"bad\.json:1:\d+: not JSON", id="not-json"),
    pytest.param('{"cases": []}', "not a tcs results report", id="other-json"),
    pytest.param('{"otp": ["25"], "results": [{"case": "a", "status": "great", "otp": "25"}]}',
                 "result 1 is not a case result", id="bad-status"),
    pytest.param('{"otp": ["25"], "results": [{"case": "a", "status": "pass", "otp": "25", "live": "x"}]}',
                 "'live' is not a list of lines", id="bad-live"),
])
def test_bad_input_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str | None,
                           message: str) -> None:
    bad = tmp_path / "bad.json"
    if content is not None:
        bad.write_text(content)
    good, _ = _old_new(tmp_path)
    assert cli.main(["diff", str(bad), str(good)]) == 2
    err = capsys.readouterr().err
    assert str(bad) in err
    assert re.search(message, err), err
