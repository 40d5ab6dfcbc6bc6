"""The corpus: every case replayed on the live node and compared with its golden
stream; the golden files are fresh and reproducible; bad input and crashing
tracers are handled as the README promises."""
from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from conftest import CASES
from tcs_driver import corpus, node

LIVE_OK = {"pass", "deviation", "skip"}


def _marks(case: corpus.Case) -> list[pytest.MarkDecorator]:
    return [pytest.mark.live, pytest.mark.otp25] + [getattr(pytest.mark, f) for f in case.features]


@pytest.mark.parametrize("case", [pytest.param(c, id=c.id, marks=_marks(c)) for c in CASES])
def test_case_agrees_with_live_node(case: corpus.Case, layout: corpus.Layout, otp_node) -> None:
    otp, release, include = otp_node
    result = corpus.run_case(layout, case, otp, release, include)
    if result.status == "skip":
        pytest.skip(result.detail)
    assert result.status in LIVE_OK, f"{case.id}: {result.status}\n{result.detail}"


def test_corpus_is_large_enough() -> None:
    assert len(CASES) >= 40, f"only {len(CASES)} cases"


def test_golden_files_are_fresh(layout: corpus.Layout) -> None:
    done = subprocess.run([str(layout.tcsref), "golden", str(layout.cases), str(layout.golden), "--check"],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


def test_golden_generation_is_byte_identical(layout: corpus.Layout, tmp_path: Path) -> None:
    outputs = []
    for run in ("first", "second"):
        out = tmp_path / run
        out.mkdir()
        subprocess.run([str(layout.tcsref), "golden", str(layout.cases), str(out)], check=True,
                       capture_output=True)
        outputs.append({p.name: p.read_bytes() for p in sorted(out.iterdir())})
    assert outputs[0] == outputs[1]
    assert len(outputs[0]) == len(CASES)


def test_malformed_case_is_rejected_with_position(layout: corpus.Layout, tmp_path: Path) -> None:
    cases = tmp_path / "cases"
    golden = tmp_path / "golden"
    cases.mkdir()
    golden.mkdir()
    good = (layout.cases / "fallback_send_none.tcs").read_text()
    (cases / "fallback_send_none.tcs").write_text(good)
    (cases / "broken.tcs").write_text(good.replace("fallback_send_none", "broken")
                                      .replace("a send b ping", "a send b {ping"))
    done = subprocess.run([str(layout.tcsref), "golden", str(cases), str(golden)],
                          capture_output=True, text=True)
    assert done.returncode == 2
    assert f"{cases / 'broken.tcs'}:" in done.stderr
    line_col = done.stderr.split("broken.tcs:", 1)[1].split(":")[:2]
    assert all(part.isdigit() for part in line_col), done.stderr
    assert list(golden.iterdir()) == [], "a golden file was written despite the error"


def test_crashing_tracer_is_a_crash_and_the_run_goes_on(layout: corpus.Layout, otp_node) -> None:
    otp, release, include = otp_node
    case = next(c for c in CASES if c.id == "fallback_send_none")
    plan = corpus.model(layout, "plan", str(case.path))
    crashed = node.run_plan(otp, plan, layout.beams, layout.nifs / "tcs_gate",
                            "tcs_crashing_tracer", layout.nifs / "tcs_crashing_tracer")
    assert crashed.status == "crash"
    assert "last step started" in crashed.detail
    assert "TCS STEP" in crashed.detail, "the node's last output is missing"
    after = corpus.run_case(layout, case, otp, release, include)
    assert after.status == "pass", after.detail
