"""The tree of cases (cases/README.md, "The tree of cases"): every case in an area the README
describes, with its origin header on its first line, found by id wherever it is, and no two
cases with one id."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from tcs_driver import corpus
from tcs_driver.layout import REPO

#: The five forms of the origin header (cases/README.md, "Origin").
ORIGIN = re.compile(r"% origin: (?:fuzz seed \d+ (?:group \w+|scenario fuzz_\w+)"
                    r"|written after fuzz seed \d+ group \w+"
                    r"|OTP \w+_SUITE(?::\w+)?"
                    r"|(?:issue \d+, )?written from \S.* \(rule [A-Z][A-Z0-9-]+\))")


def readme_areas() -> set[str]:
    """The directories the README's table describes."""
    text = (REPO / "cases" / "README.md").read_text()
    return set(re.findall(r"^\| `([a-z-]+)/` \|", text, re.MULTILINE))


def tree(tmp_path: Path, files: dict[str, str]) -> corpus.Layout:
    """A layout whose cases/ holds the given files (relative path -> text)."""
    for name, text in files.items():
        (tmp_path / "cases" / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "cases" / name).write_text(text)
    return corpus.Layout(tmp_path, tmp_path / "build")


def test_every_case_is_in_an_area_the_readme_describes(layout: corpus.Layout) -> None:
    areas = {path.relative_to(layout.cases).parts[:-1] for path in corpus.case_paths(layout)}
    assert {len(area) for area in areas} == {1}, "a case outside cases/<area>/, or in a deeper directory"
    assert {area for (area,) in areas} == readme_areas()


def test_every_case_says_its_origin_on_its_first_line(layout: corpus.Layout) -> None:
    wrong = [f"{path.relative_to(layout.repo)}: {first!r}" for path in corpus.case_paths(layout)
             if not ORIGIN.fullmatch(first := path.read_text().split("\n", 1)[0])]
    assert wrong == []


@pytest.mark.parametrize("header", [
    "% origin: fuzz seed 20261211 group P3", "% origin: fuzz seed 2 scenario fuzz_2_7",
    "% origin: written after fuzz seed 20261208 group M1", "% origin: OTP tracer_SUITE:send",
    "% origin: OTP trace_call_memory_SUITE", "% origin: written from 003 process/4 (rule FLAGS-OFF)",
    "% origin: issue 26, written from Clarification C-12 (rule MS-GUARD-ARITH)",
], ids=["fuzz", "fuzz-scenario", "after-fuzz", "otp", "otp-suite", "document", "issue"])
def test_the_documented_origin_forms_are_recognised(header: str) -> None:
    assert ORIGIN.fullmatch(header)


@pytest.mark.parametrize("header", [
    "% origin:", "% origin: fuzz", "% origin: written from 003 process/4", "% from fuzz seed 1 group A",
], ids=["empty", "no-seed", "no-rule", "not-origin"])
def test_other_first_lines_are_not_origins(header: str) -> None:
    assert not ORIGIN.fullmatch(header)


def test_a_case_is_found_by_id_in_its_area(tmp_path: Path) -> None:
    layout = tree(tmp_path, {"calls/c1.tcs": "x", "ports/p1.tcs": "x", "README.md": "x"})
    assert layout.case_file("p1") == tmp_path / "cases" / "ports" / "p1.tcs"
    assert not layout.case_file("nope").exists()
    assert [p.stem for p in corpus.case_paths(layout)] == ["c1", "p1"]
    assert [p.stem for p in corpus.case_paths(layout, "p*")] == ["p1"]


def test_cases_are_ordered_by_id_across_areas_and_hidden_ones_left_out(tmp_path: Path) -> None:
    layout = tree(tmp_path, {"z/a1.tcs": "x", "a/b1.tcs": "x", ".old/a0.tcs": "x", "a/.a2.tcs": "x"})
    assert [p.relative_to(layout.cases).as_posix() for p in corpus.case_paths(layout)] == ["z/a1.tcs", "a/b1.tcs"]


def test_two_cases_with_one_id_are_refused(tmp_path: Path) -> None:
    layout = tree(tmp_path, {"calls/twin.tcs": "x", "ports/twin.tcs": "x", "ports/single.tcs": "x"})
    with pytest.raises(corpus.ModelError, match=r"calls/twin\.tcs and \S+ports/twin\.tcs: two cases with one id"):
        corpus.case_paths(layout, "single")


def test_a_case_with_tries_is_one_whose_release_may_crash(layout: corpus.Layout) -> None:
    """`tries N` (cases/README.md, "Header") is for a case of a race: on some release the model's own
    prediction must say its node may crash, or the tries would be asked for and never given."""
    with_tries = [c for c in corpus.load_cases(layout, corpus.case_paths(layout)) if c.tries > 1]
    assert with_tries, "no case says tries: this test checks nothing"
    table = corpus.deviations(layout)
    never = [c.id for c in with_tries
             if not any(n.may_crash for release in ("25", "27", "29")
                        for n in corpus.release.notes(corpus.model(layout, "sim", str(c.path), "--release", release),
                                                      table))]
    assert never == []
