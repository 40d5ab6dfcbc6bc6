"""Per-release expectations: the file format, the verdict a case gets, and that every entry
names a real case and a clarification CONFORMANCE.md has."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from conftest import CASES
from tcs_driver import corpus, expectations

GOOD = "# comment\n\ncase_a\tdeviation\tC-41\tOTP passes nothing on\n"


def test_parse_reads_entries_and_skips_comments() -> None:
    found = expectations.parse(GOOD, "x.tsv")
    assert list(found) == ["case_a"]
    assert found["case_a"] == expectations.Expectation("case_a", "deviation", "C-41", "OTP passes nothing on")


@pytest.mark.parametrize("text, message", [
    ("case_a\tdeviation\tC-41\n", "x.tsv:1: expected 4 tab-separated fields"),
    ("case_a\tdeviation\t\treason\n", "x.tsv:1: expected 4 tab-separated fields"),
    ("case_a\tpass\tC-41\treason\n", "x.tsv:1: status must be one of deviation"),
    ("case_a\tdeviation\tEV-SEND\treason\n", "x.tsv:1: clarification must be C-n, not 'EV-SEND'"),
    (GOOD + GOOD.splitlines()[2] + "\n", "x.tsv:4: case case_a is listed twice"),
])
def test_parse_names_the_bad_line(text: str, message: str) -> None:
    with pytest.raises(expectations.ExpectationError, match=re.escape(message)):
        expectations.parse(text, "x.tsv")


def test_a_release_without_a_file_expects_nothing(tmp_path: Path) -> None:
    assert expectations.load(tmp_path, 99) == {}
    (tmp_path / "expectations").mkdir()
    expectations.path_for(tmp_path, 99).write_text(GOOD)
    assert set(expectations.load(tmp_path, 99)) == {"case_a"}


def test_verdicts() -> None:
    listed = expectations.parse(GOOD, "x.tsv")["case_a"]
    assert expectations.verdict(True, None, 25) == ("pass", "")
    assert expectations.verdict(False, None, 25) == ("fail", "")
    status, why = expectations.verdict(False, listed, 25)
    assert (status, why) == ("deviation", "C-41: OTP passes nothing on\n")
    status, why = expectations.verdict(True, listed, 25)
    assert status == "fail" and "the expectation is stale" in why and "OTP 25" in why


def test_every_expectation_names_a_case_and_a_clarification(layout: corpus.Layout) -> None:
    conformance = (layout.repo / "CONFORMANCE.md").read_text()
    clarifications = set(re.findall(r"^### (C-\d+):", conformance, re.MULTILINE))
    case_ids = {case.id for case in CASES}
    for path in sorted((layout.repo / "expectations").glob("otp*.tsv")):
        release = int(path.stem[3:])
        for entry in expectations.load(layout.repo, release).values():
            assert entry.case in case_ids, f"{path.name}: no case {entry.case}"
            assert entry.clarification in clarifications, f"{path.name}: no {entry.clarification}"
