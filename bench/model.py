#!/usr/bin/python3
"""The model's own speed, rerunnable: the corpus through tcsref, median of the samples.

    /usr/bin/python3 bench/model.py [--samples 7] [--tcsref PATH] [--baseline PATH]

Two figures per binary: the whole corpus in one process (`tcsref golden CASES
DIR`, parse and simulate every case) and one process per case (`tcsref sim`,
what ./tcs run pays per case), each the median wall time of the samples of
this run. With --baseline (e.g. a tcsref built from an older commit) both
binaries are timed in the same run, alternately, and the ratios printed.
Numbers depend on the machine and its load; compare runs of one machine.
"""
from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "driver"))

from tcs_driver import corpus  # noqa: E402


def timed(cmds: list[list[str]]) -> float:
    """Wall seconds to run the commands one after another (each must succeed)."""
    started = time.perf_counter()
    for cmd in cmds:
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - started


def main() -> int:
    args = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    args.add_argument("--samples", type=int, default=7)
    args.add_argument("--tcsref", help="the binary to time (default: the build's)")
    args.add_argument("--baseline", help="another tcsref to time alongside, e.g. one of an older commit")
    options = args.parse_args()
    layout = corpus.default_layout()
    binaries = {"tcsref": options.tcsref or str(layout.tcsref)}
    if options.baseline:
        binaries["baseline"] = options.baseline
    cases = [str(p) for p in corpus.case_paths(layout)]
    medians: dict[str, tuple[float, float]] = {}
    with tempfile.TemporaryDirectory() as out:
        samples: dict[str, tuple[list[float], list[float]]] = {name: ([], []) for name in binaries}
        for _ in range(options.samples):
            for name, binary in binaries.items():
                samples[name][0].append(timed([[binary, "golden", str(layout.cases), out]]))
                samples[name][1].append(timed([[binary, "sim", case] for case in cases]))
        for name, (whole, each) in samples.items():
            medians[name] = statistics.median(whole), statistics.median(each)
    print(f"{len(cases)} cases, median of {options.samples} samples")
    print(f"{'binary':<10} {'corpus, 1 process':>18} {'per case (sim)':>16}")
    for name, (whole, each) in medians.items():
        print(f"{name:<10} {whole * 1000:>15.0f} ms {each / len(cases) * 1000:>13.2f} ms")
    if "baseline" in medians:
        (whole, each), (base_whole, base_each) = medians["tcsref"], medians["baseline"]
        print(f"{'ratio':<10} {base_whole / whole:>17.1f}x {base_each / each:>15.1f}x   (baseline / tcsref)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
