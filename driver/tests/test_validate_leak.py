"""The leak check's judgement (engine.judge_leak), on the samples the stress node reports: before,
half-way and after the measured part, each after quiescence. A leak grows in both halves; a growth
that does not come with events lands in one and must not fail a correct tracer."""
from __future__ import annotations

import pytest

from tcs_driver.validate import engine
from tcs_driver.validate.checks import Stress

LIMITS = Stress()
MB = 1 << 20


def samples(actions: tuple[int, int, int], system: tuple[int, int, int],
            malloc: tuple[int, int, int] = (0, 0, 0)) -> dict:
    """The DATA of a stress node: actions and memory at the three points, 10 events per action."""
    data: dict = {"events_per_action": 10}
    for point, n, s, m in zip(("before", "middle", "after"), actions, system, malloc):
        data.update({f"{point}_actions": n, f"{point}_system": s, f"{point}_malloc": m, f"{point}_rss": 0})
    return data


@pytest.mark.parametrize("name, data, status", [
    # 100 bytes per event in each half: the shape of tcs_defect_leak
    ("steady_leak", samples((0, 50_000, 100_000), (100 * MB, 100 * MB + 50 * MB, 100 * MB + 100 * MB)), "fail"),
    ("steady_malloc_leak", samples((0, 50_000, 100_000), (MB, MB, MB), (MB, 33 * MB, 65 * MB)), "fail"),
    # 6.6 MB in one half, nothing in the other: the false alarm seen once under load
    ("one_off_growth", samples((0, 20_000, 39_000), (50 * MB, 50 * MB, 50 * MB + 6_600_000)), "pass"),
    ("one_off_then_freed", samples((0, 20_000, 39_000), (50 * MB, 57 * MB, 50 * MB)), "pass"),
    # both halves at 16 bytes per event but 3.2 MB in all: under the floor
    ("small_below_floor", samples((0, 10_000, 20_000), (MB, MB + 1_600_000, MB + 3_200_000)), "pass"),
    ("flat", samples((0, 50_000, 100_000), (MB, MB, MB)), "pass"),
    ("slow_tracer", samples((0, 900, 50_000), (MB, 90 * MB, 99 * MB)), "skip"),
], ids=lambda v: v if isinstance(v, str) else "")
def test_leak_verdict(name: str, data: dict, status: str) -> None:
    verdict, summary, _evidence = engine.judge_leak(data, LIMITS)
    assert verdict == status, (name, summary)


def test_a_leak_names_both_halves() -> None:
    verdict, summary, _ = engine.judge_leak(
        samples((0, 50_000, 100_000), (MB, MB + 50_000_000, MB + 100_000_000)), LIMITS)
    assert verdict == "fail"
    assert "+100 bytes per event (halves: +100, +100)" in summary, summary
