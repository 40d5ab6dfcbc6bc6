"""validate's probe of erlang/otp#11624 (two sessions tracing garbage_collection on one process crash the
emulator; C-92): stress leaves garbage_collection out of its extra sessions, and says that OTP is at fault,
exactly on the releases where the catalogue's reproducer otp_bugs/gh11624_legacy.erl is present."""
from __future__ import annotations

from pathlib import Path

import pytest

from conftest import TEST_RELEASES
from test_otp_bugs import EXPECTED
from tcs_driver import corpus
from tcs_driver.validate import bundled, engine, inputs
from tcs_driver.validate.checks import Stress

#: Full OTP version (the catalogue's columns) -> the verdict of the legacy-session reproducer.
VERDICTS = EXPECTED["gh11624_legacy"]


@pytest.mark.live
@pytest.mark.parametrize("release", TEST_RELEASES)
def test_stress_names_the_otp_fault_where_the_release_has_it(release: str, layout, otp_for, tmp_path: Path) -> None:
    tracer = next(t for t in bundled.good(layout) if t.module == "tcs_good_tracer")
    prepared = inputs.prepare(tracer.module, str(tracer.nif), str(tracer.erl), None, None, tmp_path)
    options = engine.Options(checks=("shape", "stress"), parallel=1, stress=Stress(seconds=1.0))
    [_, stress] = engine.validate(prepared, [otp_for(release)], lambda o: corpus.runner_beams(layout, o), options,
                                  lambda _: None)
    [verdict] = [v for version, v in VERDICTS.items() if version.split(".")[0] == release]
    named = [line for line in stress.evidence if "erlang/otp#11624" in line and "not the tracer's" in line]
    assert stress.status == "pass", stress.summary
    assert bool(named) == (verdict == "present"), (verdict, stress.evidence)
