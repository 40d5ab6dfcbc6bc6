#!/usr/bin/python3
"""The model on long scenarios: time, peak memory and stream lines per second of `tcsref sim`.

    /usr/bin/python3 bench/stream.py [--sends 25000,100000,200000,1000000] [--runs 3]
                                     [--shape send|pingpong] [--tcsref PATH] [--baseline PATH]

Each size is a scenario generated on the fly into a temporary directory (never committed):
process a sends to b, traced on both sides. Shape `send` (the issue's measure): a sends N
times, b's mailbox holds every message (the live state grows with N). Shape `pingpong`: each
send is followed by `b recv` (2N steps, the live state stays the same): the model's memory
should not grow with N there. Figures are medians of the runs: wall seconds, peak RSS (the
process's own, from wait4), stream lines per second. With --baseline (a tcsref of an older
commit) both binaries are run on each scenario, alternately. Machine load changes the times:
compare runs of one machine.
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def scenario_text(name: str, sends: int, shape: str) -> str:
    """A case of `sends` sends from a to b, each followed by b's receive for shape pingpong."""
    head = (f"case {name}\nrules EV-SEND EV-RECEIVE\ndesc \"a sends to b {sends} times ({shape})\"\n"
            "otp 25\nfeatures send receive\n\ntracer recorder\n\nprocess a b\n"
            "trace a on send\ntrace b on 'receive'\n")
    step = "a send b m{}\n" if shape == "send" else "a send b m{}\nb recv\n"
    return head + "".join(step.format(i) for i in range(sends))


def write_scenario(directory: Path, sends: int, shape: str) -> Path:
    """The scenario's file in directory (the case id is the file stem)."""
    name = f"long_{shape}_{sends}"
    path = directory / f"{name}.tcs"
    path.write_text(scenario_text(name, sends, shape))
    return path


def run_once(binary: str, case: Path, out: Path) -> tuple[float, float, int]:
    """Wall seconds, peak RSS in MB and stream lines of one `tcsref sim case`."""
    with out.open("wb") as sink:
        started = time.perf_counter()
        proc = subprocess.Popen([binary, "sim", str(case)], stdout=sink)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - started
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        raise SystemExit(f"{binary} sim {case}: exit status {proc.returncode}")
    with out.open("rb") as f:
        lines = sum(chunk.count(b"\n") for chunk in iter(lambda: f.read(1 << 20), b""))
    return wall, usage.ru_maxrss / 1024, lines


def main() -> int:
    args = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    args.add_argument("--sends", default="25000,100000,200000,1000000",
                      help="comma-separated numbers of sends, one scenario each")
    args.add_argument("--runs", type=int, default=3)
    args.add_argument("--shape", choices=("send", "pingpong"), default="send")
    args.add_argument("--tcsref", default=str(ROOT / "build" / "tcsref"), help="the binary to time")
    args.add_argument("--baseline", help="another tcsref to time alongside, e.g. one of an older commit")
    options = args.parse_args()
    binaries = {"tcsref": options.tcsref, **({"baseline": options.baseline} if options.baseline else {})}
    sizes = [int(n) for n in options.sends.split(",")]
    print(f"shape {options.shape}, median of {options.runs} runs, load average {os.getloadavg()[0]:.1f}")
    print(f"{'binary':<9} {'sends':>9} {'steps':>9} {'lines':>9} {'seconds':>8} {'peak MB':>8} {'lines/s':>11}")
    with tempfile.TemporaryDirectory() as tmp:
        directory = Path(tmp)
        for sends in sizes:
            case = write_scenario(directory, sends, options.shape)
            steps = sends if options.shape == "send" else 2 * sends
            runs: dict[str, list[tuple[float, float, int]]] = {name: [] for name in binaries}
            for _ in range(options.runs):
                for name, binary in binaries.items():
                    runs[name].append(run_once(binary, case, directory / "stream.out"))
            for name, samples in runs.items():
                wall = statistics.median(s[0] for s in samples)
                peak = statistics.median(s[1] for s in samples)
                lines = samples[0][2]
                print(f"{name:<9} {sends:>9} {steps:>9} {lines:>9} {wall:>8.2f} {peak:>8.1f} {lines / wall:>11,.0f}")
            case.unlink()
    print(f"load average after: {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
