"""fuzz/FINDINGS.md is the index of fuzz/findings-log.md: every group a table of the log lists has
its row in the index, linked to the section of the log that tells it, every link of the index
reaches a heading of the log, and every clarification the index names is in the catalogue."""
from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

from tcs_driver import conformance

REPO = Path(__file__).resolve().parents[2]
INDEX = (REPO / "fuzz" / "FINDINGS.md").read_text()
LOG = (REPO / "fuzz" / "findings-log.md").read_text()
#: The log's tables that list no groups: measurements per release, per seed, of throughput.
_MEASUREMENTS = ("OTP", "seed (tree)", "OTP 25, scenarios")
#: A row of the index: "| group | seed | status | clarification | case | [section](findings-log.md#anchor) |".
_INDEX_ROW = re.compile(r"^\| (.+?) \|.*\| \[[^\]]*\]\(findings-log\.md#([\w-]+)\) \|$", re.MULTILINE)


def anchor(heading: str, seen: Counter[str]) -> str:
    """GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens, and
    "-N" for the Nth repetition."""
    slug = re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")
    seen[slug] += 1
    return slug if seen[slug] == 1 else f"{slug}-{seen[slug] - 1}"


def log_groups(log: str) -> tuple[list[tuple[str, str]], set[str]]:
    """(group, anchor of its section) for every group row of the log's tables, and every anchor."""
    seen: Counter[str] = Counter()
    groups, anchors, section, header = [], set(), "", None
    for line in log.splitlines():
        if line.startswith("#"):
            section, header = anchor(line.lstrip("#"), seen), None
            anchors.add(section)
        elif not line.startswith("|"):
            header = None
        else:
            first = re.split(r"(?<!\\)\|", line.strip().strip("|"))[0].strip()
            if header is None:
                header = first
            elif not set(first) <= set("-: ") and not header.startswith(_MEASUREMENTS) and first != "case":
                groups.append((first, section))
    return groups, anchors


def test_every_group_of_the_log_is_in_the_index() -> None:
    groups, _ = log_groups(LOG)
    assert len(groups) > 100, "the log's tables were not read"
    assert sorted(_INDEX_ROW.findall(INDEX)) == sorted(groups)


def test_every_link_of_the_index_reaches_a_section_of_the_log() -> None:
    _, anchors = log_groups(LOG)
    assert sorted({a for _, a in _INDEX_ROW.findall(INDEX)} - anchors) == []


def test_every_clarification_the_index_names_is_in_the_catalogue() -> None:
    defined = set(re.findall(r"^### (C-\d+):", conformance.text(REPO), re.MULTILINE))
    named = set(re.findall(r"\bC-\d+\b", INDEX))
    assert sorted(named - defined) == []
