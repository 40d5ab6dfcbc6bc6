"""The conformance catalogue as its readers see it: CONFORMANCE.md is the index, the rules and
clarifications are in the area files of conformance/ it links to. `text` joins them, with each
long cell put back from its note under the table, so that the rule catalogue, the book and the
refusals table read one document with one row per rule."""
from __future__ import annotations

import re
from pathlib import Path
from typing import Final

INDEX: Final[str] = "CONFORMANCE.md"
#: A link of the index to an area file: "](conformance/calls.md)".
_AREA_LINK = re.compile(r"\]\((conformance/[\w-]+\.md)\)")
#: What a rule's cell says when its text is too long for the table and stands under it.
BELOW: Final[str] = "(below the table)"
#: That text under the table: "- **RULE-ID**, statement: ..." (or "source").
_NOTE = re.compile(r"^- \*\*([A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+)\*\*, (statement|source): (.*)$")
#: The column of a rule row ("| ID | statement | source | model |", split at its bars) a note fills.
_COLUMN: Final[dict[str, int]] = {"statement": 2, "source": 3}


def area_paths(index_text: str) -> list[str]:
    """The area files the index links to (paths relative to the repository), in the order of
    their first link, each once."""
    return list(dict.fromkeys(_AREA_LINK.findall(index_text)))


def preamble(index_text: str) -> str:
    """What the index says before its first section: the documents the rules cite."""
    return index_text.split("\n## ", 1)[0]


def with_cells(area_text: str) -> str:
    """The area's text with each BELOW cell holding the text of its note, and the notes left out;
    ValueError for a note no BELOW cell takes or a BELOW cell without its note."""
    lines = area_text.split("\n")
    notes = {(found.group(1), _COLUMN[found.group(2)]): found.group(3)
             for found in map(_NOTE.match, lines) if found}
    used: set[tuple[str, int]] = set()
    out = []
    for line in lines:
        if _NOTE.match(line):
            continue
        cells = re.split(r"(?<!\\)\|", line) if line.startswith("|") else []
        for column in _COLUMN.values():
            if len(cells) > column + 1 and cells[column].strip() == BELOW:
                key = (cells[1].strip(), column)
                if key not in notes:
                    raise ValueError(f"{key[0]}: a cell says {BELOW} and no note under the table fills it")
                cells[column] = f" {notes[key]} "
                used.add(key)
        out.append("|".join(cells) if cells else line)
    if unused := sorted(set(notes) - used):
        raise ValueError(f"notes under a table that no cell takes: {unused}")
    return "\n".join(out)


def joined(index_text: str, areas: list[str]) -> str:
    """The index's preamble followed by the text of each area file (its long cells put back), in
    the index's order."""
    return "\n".join([preamble(index_text).rstrip("\n") + "\n", *map(with_cells, areas)])


def areas(repo: Path) -> dict[str, str]:
    """Area file (relative path) -> its text, in the index's order."""
    return {path: (repo / path).read_text() for path in area_paths((repo / INDEX).read_text())}


def text(repo: Path) -> str:
    """The whole catalogue of the repository at repo: the index's preamble and every area file."""
    return joined((repo / INDEX).read_text(), list(areas(repo).values()))
