"""The rule catalogue: parsing the rows of conformance/, and every rule exercised by the corpus."""
from __future__ import annotations

import pytest

from conftest import CASES
from tcs_driver import conformance, corpus, rules
from tcs_driver.fuzz import steer

CATALOGUE = """
| ID | statement | source | model |
|---|---|---|---|
| FALLBACK-ENABLED | enabled_X or enabled | 000 | `dispatch_enabled` (`ref/dispatch.c`) |
| EV-SEND | send event, `[a\\|b]` | 003 | `messages_send`, `fire` (`ref/messages.c`), `opts_build` (`ref/opts.c`) |
| EV-NONE | no model | 003 |
not a row | EV-X | y |
"""

SOURCES = {
    "ref/dispatch.c": "const char *dispatch_enabled(unsigned callbacks, Category c)\n{\n",
    "ref/messages.c": "bool messages_send(Model *m, int p,\n                   const Step *st)\n"
                      "static void fire(Model *m)\n{\n",
    "ref/opts.c": "Term *opts_build(Arena *a);\n",   # a declaration, not a definition
}


def test_catalogue_reads_rows_in_order() -> None:
    assert list(rules.catalogue(CATALOGUE)) == ["FALLBACK-ENABLED", "EV-SEND", "EV-NONE"]
    assert rules.catalogue(CATALOGUE)["EV-SEND"] == "send event, `[a\\|b]`"   # \\| stays in the cell


def test_catalogue_rejects_a_rule_defined_twice() -> None:
    with pytest.raises(ValueError, match="EV-SEND is defined twice"):
        rules.catalogue(CATALOGUE + "| EV-SEND | again | 003 |\n")


def test_model_cells_name_functions_and_files() -> None:
    refs = rules.model_refs(CATALOGUE)
    assert refs["EV-SEND"] == [("messages_send", "ref/messages.c"), ("fire", "ref/messages.c"),
                               ("opts_build", "ref/opts.c")]
    assert refs["EV-NONE"] == []


def test_model_problems_name_what_is_wrong() -> None:
    problems = rules.model_problems(rules.model_refs(CATALOGUE), SOURCES)
    assert problems == {"EV-SEND": "names opts_build, which ref/opts.c does not define",
                        "EV-NONE": "names no model function"}
    assert rules.model_problems({"A-1": [("f", "ref/gone.c")]}, SOURCES) == \
        {"A-1": "names ref/gone.c, which does not exist"}


def test_every_model_cell_names_a_defined_function(layout: corpus.Layout) -> None:
    text = conformance.text(layout.repo)
    assert rules.model_problems(rules.model_refs(text), corpus.model_sources(layout)) == {}


def test_check_finds_uncovered_and_unknown_rules() -> None:
    report = rules.check(["A-1", "B-2"], {"case_x": ["A-1", "C-3"]})
    assert report.uncovered == ["B-2"]
    assert report.unknown == {"C-3": ["case_x"]}
    assert not report.ok
    text = rules.render(report)
    assert "no case exercises B-2" in text and "unknown rule C-3 named by case_x" in text
    assert not rules.check(["A-1"], {"case_x": ["A-1"]}, {"A-1": "names no model function"}).ok


def test_every_rule_has_a_case_and_every_named_rule_exists(layout: corpus.Layout) -> None:
    catalogue = rules.catalogue(conformance.text(layout.repo))
    report = rules.check(catalogue, {case.id: case.rules for case in CASES})
    assert report.ok, rules.render(report)


def test_every_rule_the_model_cites_is_in_the_catalogue(layout: corpus.Layout) -> None:
    catalogue = rules.catalogue(conformance.text(layout.repo))
    cited: set[str] = set()
    for explained in corpus.model_each(layout, [case.path for case in CASES], "sim", "--explain"):
        cited.update(steer.explained_rules(explained))  # each line's rules and the "% decided" ones
    assert cited, "--explain cited no rule"
    assert sorted(cited - set(catalogue)) == []
