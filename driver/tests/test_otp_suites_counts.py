"""OTP_SUITES.md's counts are the sums of its rows: each suite's table of OTP tests, read row by row
(a row may stand for several tests, named in its first cell), against the suite's own counts table
and the table of all twelve in section 1.  A merge once left that table half of one side and half of
the other, and no reader saw it."""
from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

DOC = Path(__file__).resolve().parents[2] / "OTP_SUITES.md"
STATUSES = ("covered", "partly", "not expressible", "n/a")
SUITE = re.compile(r"`(?:erts/emulator|lib/kernel)/test/(\w+_SUITE)\.erl`")


def _cells(line: str) -> list[str]:
    """A table row's cells (a pipe written \\| is part of a cell, as GitHub reads it)."""
    return [cell.strip() for cell in re.split(r"(?<!\\)\|", line.strip().strip("|"))]


def _status(cell: str) -> str:
    found = next((s for s in STATUSES if cell.startswith(s)), None)
    assert found is not None, f"a row's status is none of {STATUSES}: {cell!r}"
    return found


def _tests_in_row(first: str) -> int:
    """The tests a row stands for: every `name/1` its first cell names."""
    return max(1, len(re.findall(r"`\w+/1`", first)))


def counted_rows(text: str) -> dict[str, Counter]:
    """Per suite, the tests of each status, summed over the rows of its table of OTP tests."""
    counts: dict[str, Counter] = {}
    suite = None
    in_table = False
    for line in text.splitlines():
        heading = SUITE.search(line) if line.startswith("#") else None
        if heading:
            suite = heading.group(1)
        if line.startswith("| OTP test"):
            in_table = True
            counts.setdefault(suite, Counter())
            continue
        if in_table and line.startswith("|---"):
            continue
        if in_table and line.startswith("|"):
            cells = _cells(line)
            if "not in `testcases()`" not in cells[0]:  # exported, but OTP does not run it: not counted
                counts[suite][_status(cells[3])] += _tests_in_row(cells[0])
            continue
        in_table = False
    return counts


def summary_table(text: str) -> dict[str, Counter]:
    """Section 1's table: per suite, its tests and the count of each status."""
    table: dict[str, Counter] = {}
    for line in text.splitlines():
        cells = _cells(line) if line.startswith("|") else []
        if len(cells) == 6 and re.match(r"(\w+_SUITE)\b", cells[0]):
            name = re.match(r"(\w+_SUITE)\b", cells[0]).group(1)
            numbers = [int(c) for c in cells[1:]]
            table[name] = Counter(dict(zip(("tests",) + STATUSES, numbers)))
    return table


def test_each_suite_table_sums_to_its_counts() -> None:
    text = DOC.read_text()
    rows = counted_rows(text)
    summary = summary_table(text)
    assert len(rows) == 12 and set(rows) == set(summary), (sorted(rows), sorted(summary))
    for suite, counted in rows.items():
        stated = summary[suite]
        assert {s: counted[s] for s in STATUSES} == {s: stated[s] for s in STATUSES}, suite
        assert sum(counted[s] for s in STATUSES) == stated["tests"], suite


def test_the_total_row_is_the_sum_of_the_suites() -> None:
    text = DOC.read_text()
    [total] = [_cells(line) for line in text.splitlines() if line.startswith("| **all twelve**")]
    sums = [sum(c[k] for c in summary_table(text).values()) for k in ("tests",) + STATUSES]
    assert [int(c.strip("*")) for c in total[1:]] == sums


def section_counts(text: str) -> dict[str, list[int]]:
    """The counts table under each "### Counts (suite)" heading: tests, covered, partly, not expressible."""
    found: dict[str, list[int]] = {}
    lines = text.splitlines()
    for at, line in enumerate(lines):
        heading = re.match(r"### Counts \((\w+_SUITE)\)", line)
        if heading:
            row = next(l for l in lines[at + 1:] if re.match(r"\| \d", l))
            found[heading.group(1)] = [int(c) for c in _cells(row)]
    return found


def test_each_section_counts_table_agrees() -> None:
    text = DOC.read_text()
    summary = summary_table(text)
    sections = section_counts(text)
    assert sections, "no section counts table found"
    for suite, numbers in sections.items():
        assert numbers == [summary[suite][k] for k in ("tests",) + STATUSES[:3]], suite
