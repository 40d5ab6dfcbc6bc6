"""The rule catalogue: parsing CONFORMANCE.md rows, and every rule exercised by the corpus."""
from __future__ import annotations

import pytest

from conftest import CASES
from tcs_driver import corpus, rules

CATALOGUE = """
| ID | statement | source |
|---|---|---|
| FALLBACK-ENABLED | enabled_X or enabled | 000 |
| EV-SEND | send event | 003 |
not a row | EV-X | y |
"""


def test_catalogue_reads_rows_in_order() -> None:
    assert list(rules.catalogue(CATALOGUE)) == ["FALLBACK-ENABLED", "EV-SEND"]
    assert rules.catalogue(CATALOGUE)["EV-SEND"] == "send event"


def test_catalogue_rejects_a_rule_defined_twice() -> None:
    with pytest.raises(ValueError, match="EV-SEND is defined twice"):
        rules.catalogue(CATALOGUE + "| EV-SEND | again | 003 |\n")


def test_check_finds_uncovered_and_unknown_rules() -> None:
    report = rules.check(["A-1", "B-2"], {"case_x": ["A-1", "C-3"]})
    assert report.uncovered == ["B-2"]
    assert report.unknown == {"C-3": ["case_x"]}
    assert not report.ok
    text = rules.render(report)
    assert "no case exercises B-2" in text and "unknown rule C-3 named by case_x" in text


def test_every_rule_has_a_case_and_every_named_rule_exists(layout: corpus.Layout) -> None:
    catalogue = rules.catalogue((layout.repo / "CONFORMANCE.md").read_text())
    report = rules.check(catalogue, {case.id: case.rules for case in CASES})
    assert report.ok, rules.render(report)


def test_every_rule_the_model_cites_is_in_the_catalogue(layout: corpus.Layout) -> None:
    catalogue = rules.catalogue((layout.repo / "CONFORMANCE.md").read_text())
    cited: set[str] = set()
    for case in CASES:
        explained = corpus.model(layout, "sim", str(case.path), "--explain")
        for line in explained.splitlines()[1:]:
            cited.update(line.rsplit("  % ", 1)[1].split())
    assert cited, "--explain cited no rule"
    assert sorted(cited - set(catalogue)) == []
