"""OTP_BUGS.md against the releases: each reproducer's verdict on each release is the catalogue's.

The catalogue's table gives, for every bug with a reproducer (`otp_bugs/<id>.erl`), what
it does on each release here; `otp_bugs/check.sh` runs the reproducers live. The live
test fails when a release does something else than the catalogue says, so the catalogue
cannot drift from the releases (nor from their versions: the table's columns name them)."""
from __future__ import annotations

import re
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CATALOGUE = ROOT / "OTP_BUGS.md"
REPRODUCERS = ROOT / "otp_bugs"
RUNNER = REPRODUCERS / "check.sh"
#: A release column of the catalogue, or of the runner's header: a full OTP version.
VERSION = re.compile(r"^\d+(\.\d+)+$")
REPRODUCER = re.compile(r"otp_bugs/(\w+)\.erl")

#: Bug id -> {full OTP version: verdict}.
Verdicts = dict[str, dict[str, str]]


def catalogue_verdicts(text: str) -> Verdicts:
    """The release cells of the catalogue's rows that name a reproducer."""
    rows = [[cell.strip() for cell in line.strip().strip("|").split("|")]
            for line in text.splitlines() if line.startswith("|") and not line.startswith("|---")]
    header, body = rows[0], rows[1:]
    columns = [(i, name) for i, name in enumerate(header) if VERSION.match(name)]
    verdicts: Verdicts = {}
    for row in body:
        found = [m.group(1) for cell in row if (m := REPRODUCER.search(cell))]
        if found:
            verdicts[found[0]] = {name: row[i] for i, name in columns}
    return verdicts


def runner_verdicts(output: str) -> Verdicts:
    """The runner's table: a header `otp V1 V2 ...`, then one `ID VERDICT ...` line per bug."""
    lines = [line.split() for line in output.splitlines() if line.strip()]
    versions = lines[0][1:]
    return {row[0]: dict(zip(versions, row[1:])) for row in lines[1:]}


EXPECTED = catalogue_verdicts(CATALOGUE.read_text())


def test_catalogue_and_reproducers_agree() -> None:
    """Every reproducer has a row, and every row's reproducer exists."""
    assert sorted(EXPECTED) == sorted(p.stem for p in REPRODUCERS.glob("*.erl"))


def test_catalogue_cells_are_verdicts() -> None:
    """A checked row says present, absent or n/a on every release; never a guess."""
    assert {cell for row in EXPECTED.values() for cell in row.values()} <= {"present", "absent", "n/a"}


def test_parsers_read_the_runner_table() -> None:
    output = "otp        25.2.3   27.3.4.1 29.1.2\ngh6448     present  absent   absent\n"
    assert runner_verdicts(output) == {"gh6448": {"25.2.3": "present", "27.3.4.1": "absent", "29.1.2": "absent"}}


@pytest.fixture(scope="module")
def observed(otp_for: Callable[[str], object]) -> Verdicts:
    """Every reproducer run once on OTP 25, 27 and 29 (the roots provisioned first)."""
    for release in ("27", "29"):
        otp_for(release)
    done = subprocess.run([str(RUNNER)], capture_output=True, text=True, timeout=300, check=True)
    return runner_verdicts(done.stdout)


@pytest.mark.parametrize("bug", sorted(EXPECTED))
def test_release_does_what_the_catalogue_says(bug: str, observed: Verdicts) -> None:
    assert observed[bug] == EXPECTED[bug], f"{bug}: the releases did {observed[bug]}, OTP_BUGS.md says {EXPECTED[bug]}"
