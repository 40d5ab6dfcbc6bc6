"""The model streams a case (ref/run/run.c, run_file): its memory is the case's live state, not its
length, measured by bench/stream.py (the peak resident memory of the model's process, from wait4:
a measurement, not a timing); and a problem anywhere in a long case still ends the run with exit
status 2, FILE:LINE:COL and no stream at all, the problem the whole file's parse would name."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tcs_driver import corpus

BENCH = Path(__file__).resolve().parents[2] / "bench" / "stream.py"


def peaks(layout: corpus.Layout, tmp_path: Path, shape: str, steps: list[int]) -> dict[int, float]:
    """The peak MB of one `tcsref sim` per number of steps, on bench/stream.py's scenario of shape."""
    report = tmp_path / f"{shape}.json"
    subprocess.run([sys.executable, str(BENCH), "--steps", ",".join(map(str, steps)), "--runs", "1",
                    "--shape", shape, "--tcsref", str(layout.tcsref), "--json", str(report)],
                   check=True, capture_output=True)
    return {row["steps"]: row["peak_mb"] for row in json.loads(report.read_text())["results"]}


def test_memory_does_not_grow_with_the_steps(layout: corpus.Layout, tmp_path: Path) -> None:
    # each send received at once: the live state stays the same from the first step to the last
    # (a model that kept 8 bytes a step would take 7 MB more at a million steps)
    peak = peaks(layout, tmp_path, "pingpong", [100_000, 1_000_000])
    assert peak[1_000_000] <= 1.5 * peak[100_000], peak


def test_two_hundred_thousand_sends_fit_in_128_mb(layout: corpus.Layout, tmp_path: Path) -> None:
    # every message stays in the receiver's mailbox: the live state grows, and the model holds it
    assert peaks(layout, tmp_path, "send", [200_000])[200_000] <= 128


HEADER = ("case long\nrules EV-SEND\ndesc \"d\"\notp 25\nfeatures send\n\ntracer recorder\n\n"
          "process a b\ntrace a on send\n")  # ten lines: the first step is on line 11
SENDS = "a send b ok\n" * 50_000


@pytest.mark.parametrize("text, problem", [
    (HEADER + SENDS + "a snd b ok\n", ":50011:3: unknown step 'snd'"),
    # a blocked process steps: the model refuses it after 50,000 steps ran
    (HEADER + SENDS + "a recv\na send b x\n" + "b recv\n" * 1000,
     ":50012:1: a step by a process blocked in a receive is not supported by model v1"),
    # ... but a problem of the parse further on comes first, as when the whole file was parsed first
    (HEADER + SENDS + "a recv\na send b x\n" + SENDS + "a send zz ok\n", ":100013:8: undeclared process 'zz'"),
    (HEADER + "a snd b ok\n" + SENDS + "a send b 'x\x00'\n", ":1:1: file contains a NUL byte"),
], ids=["parse_at_the_end", "model_midway", "parse_after_model", "nul_after_parse"])
def test_a_problem_anywhere_leaves_no_stream(layout: corpus.Layout, tmp_path: Path, text: str,
                                             problem: str) -> None:
    case = tmp_path / "long.tcs"
    case.write_text(text)
    done = subprocess.run([str(layout.tcsref), "sim", str(case)], capture_output=True, text=True)
    assert (done.returncode, done.stdout, done.stderr) == (2, "", f"{case}{problem}\n")
