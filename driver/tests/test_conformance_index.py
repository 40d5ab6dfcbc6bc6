"""CONFORMANCE.md is the index of the area files of conformance/: it lists every rule and every
clarification the area files define exactly once and under the area that defines it; no two areas
define one rule; the clarifications of an area stand in the order of their numbers, each with a
"Found by:" line and a title that says what it is; the index's expectations column is what
expectations/otpN.toml name."""
from __future__ import annotations

import re
import tomllib
from collections import Counter
from pathlib import Path

import pytest

from tcs_driver import conformance, corpus, rules

REPO = Path(__file__).resolve().parents[2]
INDEX = (REPO / conformance.INDEX).read_text()
AREAS = conformance.areas(REPO)

_CLARIFICATION = re.compile(r"^### (C-\d+): (.*)$", re.MULTILINE)
#: An area of the index: "### Title: [conformance/x.md](conformance/x.md)".
_INDEX_AREA = re.compile(r"^### .*\]\((conformance/[\w-]+\.md)\)$", re.MULTILINE)
_INDEX_RULES = re.compile(r"^Rules \((\d+)\): (.*)\.$", re.MULTILINE)
_INDEX_AREA_CLARIFICATIONS = re.compile(r"^Clarifications \((\d+)\): (.*)\.$", re.MULTILINE)
#: A row of the index's list of clarifications: "| C-n | [area](conformance/x.md) | title | expectations |".
_INDEX_CLARIFICATION = re.compile(r"^\| (C-\d+) \| \[[\w-]+\]\((conformance/[\w-]+\.md)\) \| (.*) \| (.*) \|$",
                                  re.MULTILINE)


def index_rules(index_text: str) -> list[tuple[str, str]]:
    """(rule, area file) for every rule the index lists, in its order, with repetitions."""
    listed = []
    for area, block in zip(_INDEX_AREA.findall(index_text), _INDEX_AREA.split(index_text)[2::2]):
        for count, names in _INDEX_RULES.findall(block):
            ids = re.findall(r"`([^`]+)`", names)
            assert len(ids) == int(count), f"{area}: the index says {count} rules and lists {len(ids)}"
            listed += [(rule, area) for rule in ids]
    return listed


def defined_rules() -> list[tuple[str, str]]:
    """(rule, area file) for every rule row of every area file."""
    return [(rule, path) for path, text in AREAS.items() for rule in rules.catalogue(conformance.with_cells(text))]


def defined_clarifications() -> list[tuple[str, str, str]]:
    """(C-n, area file, title) for every clarification heading of every area file, in file order."""
    return [(found.group(1), path, found.group(2))
            for path, text in AREAS.items() for found in _CLARIFICATION.finditer(text)]


def test_every_area_file_is_in_the_index() -> None:
    on_disk = sorted(f"conformance/{path.name}" for path in (REPO / "conformance").glob("*.md"))
    assert sorted(AREAS) == on_disk


def test_no_two_areas_define_one_rule() -> None:
    areas_of = Counter(rule for rule, _ in defined_rules())
    assert [rule for rule, count in areas_of.items() if count > 1] == []


def test_the_index_lists_every_rule_once_under_its_area() -> None:
    listed = index_rules(INDEX)
    assert [rule for rule, count in Counter(rule for rule, _ in listed).items() if count > 1] == []
    assert sorted(listed) == sorted(defined_rules())


def test_the_index_lists_every_clarification_once_under_its_area() -> None:
    listed = [(c, area) for c, area, _, _ in _INDEX_CLARIFICATION.findall(INDEX)]
    assert [c for c, count in Counter(c for c, _ in listed).items() if count > 1] == []
    assert sorted(listed) == sorted((c, area) for c, area, _ in defined_clarifications())
    defined_twice = Counter(c for c, _, _ in defined_clarifications())
    assert [c for c, count in defined_twice.items() if count > 1] == []


def test_each_area_of_the_index_names_its_clarifications_in_order() -> None:
    named = {}
    for area, block in zip(_INDEX_AREA.findall(INDEX), _INDEX_AREA.split(INDEX)[2::2]):
        for count, ids in _INDEX_AREA_CLARIFICATIONS.findall(block.split("\n## ", 1)[0]):
            named[area] = ids.split(", ")
            assert len(named[area]) == int(count), f"{area}: the index says {count} and lists {len(named[area])}"
    defined: dict[str, list[str]] = {}
    for c, area, _ in defined_clarifications():
        defined.setdefault(area, []).append(c)
    assert named == defined


def test_the_index_gives_each_clarification_its_title() -> None:
    titles = {c: title.replace("|", "\\|") for c, _, title in defined_clarifications()}
    assert {c: title for c, _, title, _ in _INDEX_CLARIFICATION.findall(INDEX)} == titles


@pytest.mark.parametrize("area", sorted(AREAS))
def test_clarifications_stand_in_order_with_where_they_were_found(area: str) -> None:
    text = AREAS[area]
    numbers = [int(c[2:]) for c, _ in _CLARIFICATION.findall(text)]
    assert numbers == sorted(numbers)
    for found in _CLARIFICATION.finditer(text):
        after = text[found.end():].lstrip("\n").split("\n", 1)[0]
        assert after.startswith("Found by: "), f"{found.group(1)} has no Found by line"
        assert not re.search(r"\((?:fuzz|[\w.]*_SUITE)\b", found.group(2)), \
            f"{found.group(1)}'s title says where it was found"


def test_the_releases_column_is_what_the_predictions_and_expectations_name(layout) -> None:
    predicted: dict[str, list[str]] = {}
    for deviation in corpus.deviations(layout):
        ranges = predicted.setdefault(deviation.clarification, [])
        if deviation.releases() not in ranges:
            ranges.append(deviation.releases())
    named: dict[str, Counter[int]] = {}
    for path in sorted((REPO / "expectations").glob("otp*.toml")):
        release = int(path.stem.removeprefix("otp"))
        for entry in tomllib.loads(path.read_text()).values():
            clarification = re.match(r"(C-\d+):", entry["reason"])
            assert clarification, f"{path.name}: a reason names no clarification"
            named.setdefault(clarification.group(1), Counter())[release] += 1
    wanted = {}
    for c in set(predicted) | set(named):
        parts = [f"predicted: {', '.join(predicted[c])}"] if c in predicted else []
        if c in named:
            parts.append("expectations: " + ", ".join(f"{r} ({n})" for r, n in sorted(named[c].items())))
        wanted[c] = "; ".join(parts)
    column = {c: cell for c, _, _, cell in _INDEX_CLARIFICATION.findall(INDEX) if cell.strip()}
    assert column == wanted


NOTED = """| ID | statement | source | model |
|---|---|---|---|
| A-1 | (below the table) | 003 | `f` (`ref/a.c`) |
| B-2 | short | (below the table) | `g` (`ref/b.c`) |

- **A-1**, statement: a long statement, `x \\| y`
- **B-2**, source: a long source
"""


def test_a_long_cell_is_put_back_from_its_note() -> None:
    assert conformance.with_cells(NOTED) == (
        "| ID | statement | source | model |\n|---|---|---|---|\n"
        "| A-1 | a long statement, `x \\| y` | 003 | `f` (`ref/a.c`) |\n"
        "| B-2 | short | a long source | `g` (`ref/b.c`) |\n\n")
    assert rules.catalogue(conformance.with_cells(NOTED))["A-1"] == "a long statement, `x \\| y`"


@pytest.mark.parametrize("broken", [NOTED.replace("- **B-2**, source: a long source\n", ""),
                                    NOTED.replace("| B-2 | short | (below the table) |", "| B-2 | short | 003 |")],
                         ids=["cell-without-note", "note-without-cell"])
def test_a_note_and_its_cell_come_in_pairs(broken: str) -> None:
    with pytest.raises(ValueError):
        conformance.with_cells(broken)


def test_the_joined_text_starts_with_the_documents_and_holds_every_area() -> None:
    text = conformance.text(REPO)
    assert text.startswith(conformance.preamble(INDEX))
    assert "`000` is" in conformance.preamble(INDEX)
    assert all(conformance.with_cells(area) in text for area in AREAS.values())
