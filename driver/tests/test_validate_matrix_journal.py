"""bench/validate_matrix.py's journal (issue 24): the matrix of about 20 hours is made over several
sittings, each run appended as it ends; a later sitting skips what the journal holds."""
from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

import validate_matrix  # noqa: E402


def _run(tracer: str, mode: str, release: str, rep: int) -> dict:
    return {"tracer": tracer, "kind": "good", "mode": mode, "expected": "PASS", "release": release,
            "rep": rep, "failed": [], "seconds": 1.0, "verdict": "PASS", "right": True}


def test_a_journal_gives_back_its_runs_in_order() -> None:
    runs = [_run("tcs_good_tracer", "default", "25", 0), _run("tcs_good_tracer", "sanitize", "29", 3)]
    text = "".join(json.dumps(r) + "\n" for r in runs)
    assert validate_matrix.journal_runs(text) == runs


def test_a_line_cut_short_by_an_interruption_is_dropped() -> None:
    whole = _run("tcs_good_tracer", "default", "27", 1)
    text = json.dumps(whole) + "\n" + json.dumps(_run("tcs_good_tracer", "default", "27", 2))[:40]
    assert validate_matrix.journal_runs(text) == [whole]


def test_a_run_is_known_by_tracer_mode_release_and_repetition() -> None:
    one = _run("tcs_defect_leak", "default", "25", 4)
    assert validate_matrix.run_key(one) == ("tcs_defect_leak", "default", "25", 4)
    assert validate_matrix.run_key(one) != validate_matrix.run_key(_run("tcs_defect_leak", "default", "25", 5))
