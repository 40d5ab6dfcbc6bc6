"""`tcsref batch` (PROTOCOLS.md): many sim/plan/meta commands in one process, each answer byte for
byte what the single command prints, whatever came before it; and ./tcs bench, which relies on it."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tcs_driver import corpus

from conftest import CASES

#: A sample of the corpus, every 20th case: the single commands cost a process each.
SAMPLE = CASES[::20]
COMMANDS = (["sim"], ["sim", "--explain"], ["plan"], ["meta"])


def single(layout: corpus.Layout, request: list[str]) -> tuple[int, str]:
    """What one `tcsref` run answers: its status and stdout, or its error message."""
    done = subprocess.run([str(layout.tcsref), *request], capture_output=True, text=True)
    return done.returncode, done.stdout if done.returncode == 0 else done.stderr.strip()


def request(command: list[str], path: Path) -> list[str]:
    """The command line of a command on one case."""
    return [command[0], str(path), *command[1:]]


@pytest.mark.parametrize("case", SAMPLE, ids=[c.id for c in SAMPLE])
def test_batch_answers_like_the_single_commands(layout: corpus.Layout, case: corpus.Case) -> None:
    # the case's commands after those of another case, so that an answer that leaked state would show
    other = CASES[0].path
    requests = [request(c, other) for c in COMMANDS] + [request(c, case.path) for c in COMMANDS]
    answers = corpus.model_batch(layout, requests)
    assert answers[len(COMMANDS):] == [single(layout, r) for r in requests[len(COMMANDS):]]


def test_batch_answers_errors_in_place_and_goes_on(layout: corpus.Layout, tmp_path: Path) -> None:
    broken = tmp_path / "broken.tcs"
    broken.write_text("case broken\nrules\n")
    good = CASES[0].path
    answers = corpus.model_batch(layout, [["meta", str(broken)], ["plan", str(tmp_path / "missing.tcs")],
                                          ["frobnicate", str(good)], ["meta", str(good)]])
    assert [status for status, _ in answers] == [2, 2, 2, 0]
    assert answers[0] == single(layout, ["meta", str(broken)])
    assert answers[0][1].startswith(f"{broken}:")
    assert "not a batch command" in answers[2][1]
    assert answers[3] == single(layout, ["meta", str(good)])


def test_tcs_bench_takes_the_benchmark_options(layout: corpus.Layout) -> None:
    done = subprocess.run([str(layout.repo / "tcs"), "bench", "--help"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert all(option in done.stdout for option in ("--otp", "--count", "--runs", "--workers", "--baseline"))


def test_tcs_bench_refuses_a_baseline_that_is_no_checkout(layout: corpus.Layout, tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, str(layout.repo / "bench" / "fuzz.py"), "--baseline", str(tmp_path)],
                          capture_output=True, text=True)
    assert done.returncode == 2
    assert "not a checkout of this project" in done.stderr
