"""The fixed-seed fuzz campaign: 200 generated scenarios per release, model against live.

It fails on any crash, timeout, refused scenario, lost result, scenario that
disagrees in a shared node but agrees alone, and on any disagreement that is
not exactly the release's own prediction (tcsref sim --release N, where a
clarification defines how the release deviates: tcs_driver/release.py). Only when it fails, the largest groups are shrunk (a bounded time
each) and the failure lists every group: its shape, its differing lines and
its minimal scenario (build/fuzz-campaign/otpN/minimal-cases/), or its first
scenario (build/fuzz-campaign/otpN/scenarios/) for the groups left unshrunk."""
from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

import pytest

from tcs_driver import corpus
from tcs_driver.fuzz import campaign, gen, report

from conftest import TEST_RELEASES

SEED = 20261123
COUNT = 200

#: The groups of fuzz/FINDINGS.md that the campaign of SEED still finds. While one is open the
#: campaign is opt-in (TCS_FUZZ_CAMPAIGN=1); once all are resolved, empty this tuple and the
#: campaign runs with every ./tcs test.
#: P5 and P6 were resolved on branch p5exit (RUN-KILLED-DIRTY-OUT, C-200): 6 consecutive runs of this
#: seed on 25, 27 and 29 had no disagreement, refusal, crash, timeout, lost or polluted scenario.
OPEN_GROUPS: tuple[str, ...] = ()
FULL_CAMPAIGN = not OPEN_GROUPS or os.environ.get("TCS_FUZZ_CAMPAIGN") == "1"
#: On a failure: how many of the largest groups are shrunk, and for how long each at most.
SHRINK_GROUPS = 8
SHRINK_SECONDS = 20.0


@pytest.mark.live
def test_a_short_campaign_loses_no_result(layout: corpus.Layout, otp_for, tmp_path: Path) -> None:
    """Whatever the scenarios do, every one generated gets an outcome on the release, none is
    lost and none is refused by the model (a refusal is a generator bug)."""
    release = TEST_RELEASES[0]
    result = campaign.run(layout, SEED, [otp_for(release)], count=20, minutes=None, where=tmp_path,
                          workers=2, shrink_seconds=0, say=lambda text: print(f"tcs: {text}", flush=True))
    assert len(result.generated) == 20
    assert result.lost == 0
    assert sum(report.counts(result)[release].values()) == 20
    assert [o.scenario for o in result.outcomes if o.status == "refused"] == []


@pytest.mark.live
@pytest.mark.skipif(not FULL_CAMPAIGN, reason=f"the fixed-seed campaign (seed {SEED}) still finds groups of "
                    f"fuzz/FINDINGS.md that are open: {', '.join(OPEN_GROUPS)}; run it with TCS_FUZZ_CAMPAIGN=1")
@pytest.mark.parametrize("release", TEST_RELEASES, ids=[f"otp{r}" for r in TEST_RELEASES])
def test_fixed_seed_campaign_has_no_unexplained_outcome(layout: corpus.Layout, otp_for, release: str) -> None:
    def say(text: str) -> None:
        print(f"tcs: {text}", flush=True)

    started = time.monotonic()
    otps = [otp_for(release)]
    # in the build, not in a temporary directory: the failure names the scenarios there
    where = layout.build / "fuzz-campaign" / f"otp{release}"
    shutil.rmtree(where, ignore_errors=True)  # an earlier run's
    result = campaign.run(layout, SEED, otps, count=COUNT, minutes=None, where=where, workers=2,
                          shrink_seconds=0, say=say)
    say(f"OTP {release}: the campaign of {COUNT} scenarios took {time.monotonic() - started:.0f} s")
    counts = report.counts(result)[release]
    assert len(result.generated) == COUNT
    assert result.lost == 0
    assert counts["agree"] + counts["explained"] + counts["skip"] > 0
    if result.groups:
        campaign.shrink_groups(layout, result, otps, where, seconds=SHRINK_SECONDS, workers=2, say=say,
                               most=SHRINK_GROUPS)
        report.write_minimal(layout, result, where / "minimal-cases")
    problems = [group_problem(g, where) for g in result.groups]
    problems += [f"refused: {o.scenario}: {o.detail}" for o in result.outcomes if o.status == "refused"]
    problems += [polluted_problem(o, where) for o in result.outcomes if o.polluted]
    assert problems == [], (f"OTP {release}: {counts}; {len(result.groups)} group(s); all shrunk with ./tcs fuzz "
                            f"--seed {SEED} --count {COUNT} --otp {release} --out DIR\n" + "\n".join(problems))


def group_problem(found: campaign.Group, scratch: Path) -> str:
    """One group of a failed campaign: how many, its shape, its minimal scenario (or its first one) and
    the differing lines there."""
    first = found.members[0]
    where = (f"minimal scenario {found.minimal_path}" if found.minimal_path
             else f"first scenario {scratch}/scenarios/{first.scenario}.tcs (not shrunk)")
    evidence = found.minimal_changed or first.changed or first.detail.splitlines()[:3]
    return (f"{found.status} x{len(found.members)} [{'; '.join(found.shape)}]: {where}\n    "
            + "\n    ".join(evidence[:8]))


def polluted_problem(outcome: campaign.Outcome, scratch: Path) -> str:
    """A scenario that disagreed in a shared node and agreed alone, with what the shared node did
    differently (the only evidence of a clean-up gap or a race: the run alone agreed)."""
    evidence = outcome.changed or outcome.detail.splitlines()[:3]
    return (f"disagrees in a shared node, agrees alone: {scratch}/scenarios/{outcome.scenario}.tcs; in the shared "
            f"node:\n    " + "\n    ".join(evidence[:12]))


def test_a_stream_the_driver_cannot_read_is_a_model_error_and_the_others_go_on(
        layout: corpus.Layout, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A model bug that writes an unreadable stream (fuzz seed 2026112938, scenario 119: a window never
    closed) makes that scenario refused with the reason, not a traceback that ends the campaign."""
    scenarios = [gen.scenario(SEED, i) for i in range(2)]
    items = []
    for index, scenario in enumerate(scenarios):
        path = tmp_path / f"{scenario.id}.tcs"
        path.write_text(scenario.text())
        items.append(campaign.Generated(index, scenario, path))
    real = corpus.model_batch
    unclosed = "A open w9 CALL-BUSY-LOOP 0..*: N enabled(call, <tracer>, <a>) -> trace"

    def batch(layout_: corpus.Layout, commands: list[list[str]]) -> list[tuple[int, str]]:
        answers = real(layout_, commands)
        status, golden = answers[0]         # the first scenario's sim: a window opened and never closed
        answers[0] = (status, golden.rstrip("\n") + "\n" + unclosed + "\n")
        return answers

    monkeypatch.setattr(corpus, "model_batch", batch)
    campaign._describe(layout, items)
    assert items[0].refused.startswith("model error: the model wrote a stream the driver cannot read: "), items[0]
    assert "allowance window w9 is never closed" in items[0].refused
    assert items[0].case is None
    assert not items[1].refused and items[1].case is not None and items[1].golden
