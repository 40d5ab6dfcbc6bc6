"""./tcs diff: what changed between two JSON reports, and its exit codes."""
from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from conftest import TEST_RELEASES
from tcs_driver import cli, rundiff, stream
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


def test_an_interrupted_report_is_read_with_a_warning(tmp_path: Path) -> None:
    old, _ = _old_new(tmp_path)
    cut = tmp_path / "cut.json"
    cut.write_text(json.dumps(to_json(["25"], [CaseResult("stays", "pass", ["R"], "25", live=[PROBE, SEND])],
                                      incomplete="interrupted (Ctrl-C) after 1 result(s)")))
    d = rundiff.compare(rundiff.load(old), rundiff.load(cut))
    assert d.warnings == ["the new report is incomplete (interrupted (Ctrl-C) after 1 result(s)): cases it lacks "
                          "were not run"]
    assert rundiff.render(d).startswith("warning: the new report is incomplete")
    assert d.unchanged == 1 and d.regressions == 0


DEEP = 100_000


@pytest.mark.parametrize(("content", "message"), [
    pytest.param(None, "cannot read: No such file or directory", id="missing"),
    pytest.param(b'{"otp": ["25"], "results": [', r"bad\.json:1:\d+: not JSON", id="not-json"),
    pytest.param(b'{"cases": []}', "not a tcs results report", id="other-json"),
    pytest.param(b'{"otp": ["25"], "results": [{"case": "a", "status": "great", "otp": "25"}]}',
                 "result 1 is not a case result", id="bad-status"),
    pytest.param(b'{"otp": ["25"], "results": [{"case": "a", "status": "pass", "otp": "25", "live": "x"}]}',
                 "'live' is not a list of lines", id="bad-live"),
    pytest.param(b'{"otp": ["25"],\n "results": [{"case": "a\xff"}]}', r"bad\.json:2:25: invalid UTF-8 \(byte 0xFF\)",
                 id="not-utf8"),
    pytest.param(b"[" * DEEP + b"]" * DEEP, r"bad\.json:1:\d+: nesting too deep", id="deep-arrays"),
    pytest.param(b'{"otp": ' + b'{"a": ' * DEEP, r"bad\.json:1:\d+: nesting too deep", id="deep-objects"),
    pytest.param(b'{"otp": [{}], "results": []}', "'otp' is not a list of release names", id="bad-otp"),
    pytest.param(b'{"otp": ["25"], "results": [{"case": "a", "status": "pass", "otp": "25", "detail": [1]}]}',
                 "result 1 is not a case result", id="bad-detail"),
    pytest.param(b'{"otp": ["25"], "results": [{"case": "a", "status": "pass", "otp": "25", "live": ["X y"]}]}',
                 r"result 1 \(a, OTP 25\): live line 1: col 1: line does not start with", id="bad-live-line"),
])
def test_bad_input_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str], content: bytes | None,
                           message: str) -> None:
    bad = tmp_path / "bad.json"
    if content is not None:
        bad.write_bytes(content)
    good, _ = _old_new(tmp_path)
    assert cli.main(["diff", str(bad), str(good)]) == 2
    err = capsys.readouterr().err
    assert str(bad) in err
    assert re.search(message, err), err
    assert "Traceback" not in err


@pytest.mark.parametrize("seed", range(8))
def test_any_mutation_of_a_report_loads_or_is_refused_with_a_message(tmp_path: Path, seed: int) -> None:
    """Bytes flipped, cut or repeated anywhere: the report loads, or load raises ReportError, nothing else."""
    source = json.dumps(to_json(["25"], [CaseResult("stays", "pass", ["R"], "25", live=[PROBE, SEND]),
                                         CaseResult("breaks", "fail", ["R"], "25", detail="x", live=[SEND])]),
                        indent=1).encode()
    rng = random.Random(seed)
    refused = 0
    for attempt in range(150):
        data = bytearray(source)
        for _ in range(rng.randint(1, 4)):
            at = rng.randrange(len(data))
            choice = rng.randrange(4)
            if choice == 0:
                data[at] = rng.randrange(256)
            elif choice == 1:
                del data[at:at + rng.randint(1, 40)]
            elif choice == 2:
                data[at:at] = data[at:at + rng.randint(1, 40)] * rng.randint(1, 3)
            else:
                data[at:at] = rng.choice([b"[", b"{", b'"', b"\\", b"\xc3", b"null", b"I ", b"N "])
        path = tmp_path / f"m{attempt}.json"
        path.write_bytes(bytes(data))
        try:
            rundiff.compare(rundiff.load(path), rundiff.load(path))
        except rundiff.ReportError as why:
            assert str(path) in str(why)
            refused += 1
    assert refused > 0  # the mutations did reach the checks


@pytest.mark.live
def test_diff_reads_the_real_reports_of_the_whole_corpus(corpus_results, tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    """The reports ./tcs run --json writes for the whole corpus (this test run's own live results),
    one release per report and all in one: each round-trips, consecutive releases diff."""
    by_release = {release: list(corpus_results(release).values()) for release in TEST_RELEASES}
    paths = {release: _report(tmp_path / f"otp{release}.json", [release], results)
             for release, results in by_release.items()}
    every = _report(tmp_path / "all.json", TEST_RELEASES, [r for rs in by_release.values() for r in rs])
    made_informative = [line for rs in by_release.values() for r in rs for line in r.live
                        if line.startswith("I ") and stream.classify(line[2:]) == "N"]
    assert made_informative, "no line the run made informative: the test would not cover them"
    counts = {paths[release]: len(results) for release, results in by_release.items()}
    counts[every] = sum(counts.values())
    for path, count in counts.items():
        report = rundiff.load(path)
        same = rundiff.compare(report, report, strict=True)
        assert (same.regressions, same.status_changed, same.streams_changed) == (0, [], [])
        assert same.unchanged == len(report.entries) == count
    for old, new in zip(TEST_RELEASES, TEST_RELEASES[1:]):
        code = cli.main(["diff", str(paths[old]), str(paths[new])])
        out = capsys.readouterr()
        assert code in (0, 1), out.err
        assert out.out.startswith(f"paired case by case, OTP {old} (old) against OTP {new} (new)\n"), out.out[:300]
