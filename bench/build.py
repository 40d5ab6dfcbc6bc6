#!/usr/bin/python3
"""The cost of the build step every ./tcs command runs first, on a tree that is up to date.

    /usr/bin/python3 bench/build.py [--samples 5]

Two ways, alternately, after one build that brings the tree up to date: `cmake` is
`cmake --build` on it (what every command paid before the build fingerprint,
driver/tcs_driver/buildstamp.py), `driver` is the driver's build step as `./tcs` runs it
(a Python process calling cli.build: the fingerprint check, and CMake only when it differs).
Each figure is the median of the samples: wall seconds and CPU seconds (user + system of the
process and its children). Numbers depend on the machine and its load.
"""
from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "driver"))

from tcs_driver import cli, corpus  # noqa: E402


def timed(cmd: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Wall and CPU seconds of one run of cmd (which must succeed)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> int:
    args = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    args.add_argument("--samples", type=int, default=5)
    samples = args.parse_args().samples
    where = corpus.default_layout()
    cli.build(where)
    env = {**os.environ, "PYTHONPATH": str(REPO / "driver")}
    ways = {
        "cmake": ["cmake", "--build", str(where.build), "-j", str(os.cpu_count() or 2)],
        "driver": [sys.executable, "-c", "from tcs_driver import cli, corpus; cli.build(corpus.default_layout())"],
    }
    runs: dict[str, list[tuple[float, float]]] = {way: [] for way in ways}
    for _ in range(samples):
        for way, cmd in ways.items():
            runs[way].append(timed(cmd, env))
    print(f"no-op build, medians of {samples} runs ({os.cpu_count()} cores, load {os.getloadavg()[0]:.1f})")
    for way, times in runs.items():
        wall = statistics.median(t[0] for t in times)
        cpu = statistics.median(t[1] for t in times)
        print(f"  {way:<7} wall {wall:6.3f} s   cpu {cpu:6.3f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
