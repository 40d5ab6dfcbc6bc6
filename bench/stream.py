#!/usr/bin/python3
"""The model on long scenarios: time, peak memory and stream lines per second of `tcsref sim`.

    ./tcs bench stream [--steps 100000,200000,500000,1000000] [--runs 3] [--shape send,pingpong]
                       [--tcsref PATH] [--baseline PATH] [--json FILE]

(or /usr/bin/python3 bench/stream.py with the same options). Each size is a scenario of that
many steps, generated on the fly into a temporary directory (never committed): process a
sends to b, traced on both sides. Shape `send` (the issue's measure): a sends, b's mailbox
holds every message (the live state grows with the steps). Shape `pingpong`: each send is
followed by `b recv` (the live state stays the same): the model's memory must not grow with
the steps there, and the last line of each binary says by how much it did.

Figures are medians of the runs: wall seconds, CPU seconds (user and system, of the model
alone: what a quiet machine would take), peak resident memory, stream lines per second of
wall time and of CPU time. The peak is the child's own (ru_maxrss from wait4); a child starts from a copy
of this script's memory, so no figure is below this script's resident size at the fork (the
floor the header prints). With --baseline (a tcsref of an older commit) both binaries are run
on each scenario, alternately. Wall times depend on the load of the machine: compare runs of
one machine, or the CPU seconds.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHAPES = ("send", "pingpong")


@dataclass(frozen=True)
class Sample:
    """One run of `tcsref sim`: wall and CPU seconds, peak resident MB, stream lines."""
    wall: float
    cpu: float
    peak_mb: float
    lines: int


def write_scenario(directory: Path, steps: int, shape: str) -> Path:
    """The scenario of `steps` steps in directory (the case id is the file stem), written a
    block at a time: this process never holds its text, which would raise the floor."""
    name = f"long_{shape}_{steps}"
    path = directory / f"{name}.tcs"
    step = "a send b m{}\n" if shape == "send" else "a send b m{}\nb recv\n"
    sends = steps if shape == "send" else steps // 2
    with path.open("w") as f:
        f.write(f"case {name}\nrules EV-SEND EV-RECEIVE\ndesc \"a sends to b {sends} times ({shape})\"\n"
                "otp 25\nfeatures send receive\n\ntracer recorder\n\nprocess a b\n"
                "trace a on send\ntrace b on 'receive'\n")
        for first in range(0, sends, 10000):
            f.write("".join(step.format(i) for i in range(first, min(sends, first + 10000))))
    return path


def run_once(argv: list[str], out: Path) -> Sample:
    """argv run with its stdout to out: a child forked from this process (not spawned: a spawned
    child's peak counts this process's whole past), measured by wait4."""
    with out.open("wb") as sink:
        started = time.perf_counter()
        pid = os.fork()
        if pid == 0:
            try:
                os.dup2(sink.fileno(), 1)
                os.execv(argv[0], argv)
            finally:
                os._exit(127)
        _, status, usage = os.wait4(pid, 0)
        wall = time.perf_counter() - started
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{' '.join(argv)}: exit status {os.waitstatus_to_exitcode(status)}")
    with out.open("rb") as f:
        lines = sum(chunk.count(b"\n") for chunk in iter(lambda: f.read(1 << 20), b""))
    return Sample(wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, lines)


def median(samples: list[Sample]) -> Sample:
    """The median of each figure (the lines are the same in every run)."""
    return Sample(statistics.median(s.wall for s in samples), statistics.median(s.cpu for s in samples),
                  statistics.median(s.peak_mb for s in samples), samples[0].lines)


def main() -> int:
    args = argparse.ArgumentParser(prog="./tcs bench stream", description=__doc__.splitlines()[0])
    args.add_argument("--steps", default="100000,200000,500000,1000000",
                      help="comma-separated numbers of steps, one scenario each")
    args.add_argument("--runs", type=int, default=3)
    args.add_argument("--shape", default=",".join(SHAPES), help="send, pingpong or both (comma-separated)")
    args.add_argument("--tcsref", default=str(ROOT / "build" / "tcsref"), help="the binary to time")
    args.add_argument("--baseline", help="another tcsref to time alongside, e.g. one of an older commit")
    args.add_argument("--json", help="write the figures to this file as well")
    options = args.parse_args()
    shapes = options.shape.split(",")
    if any(shape not in SHAPES for shape in shapes) or options.runs < 1:
        args.error(f"--shape takes {', '.join(SHAPES)}; --runs at least 1")
    binaries = {"tcsref": options.tcsref, **({"baseline": options.baseline} if options.baseline else {})}
    sizes = [int(n) for n in options.steps.split(",")]
    rows: list[dict[str, object]] = []
    with tempfile.TemporaryDirectory(prefix="tcs-bench-stream-") as tmp:
        directory = Path(tmp)
        floor = run_once(["/bin/true"], directory / "floor.out").peak_mb
        print(f"median of {options.runs} runs, load average {os.getloadavg()[0]:.1f}, "
              f"peak MB floor {floor:.1f} (this script's memory at the fork)")
        for shape in shapes:
            print(f"\nshape {shape}\n{'binary':<9} {'steps':>9} {'lines':>9} {'wall s':>7} {'CPU s':>7} "
                  f"{'peak MB':>8} {'lines/s':>11} {'lines/CPU s':>12}")
            for steps in sizes:
                case = write_scenario(directory, steps, shape)
                runs: dict[str, list[Sample]] = {name: [] for name in binaries}
                for _ in range(options.runs):
                    for name, binary in binaries.items():
                        runs[name].append(run_once([binary, "sim", str(case)], directory / "stream.out"))
                case.unlink()
                for name, samples in runs.items():
                    m = median(samples)
                    rows.append({"binary": name, "shape": shape, "steps": steps, **asdict(m)})
                    print(f"{name:<9} {steps:>9} {m.lines:>9} {m.wall:>7.2f} {m.cpu:>7.2f} {m.peak_mb:>8.1f} "
                          f"{m.lines / m.wall:>11,.0f} {m.lines / max(m.cpu, 1e-6):>12,.0f}")
            for name in binaries if len(sizes) > 1 else ():
                peaks = [r["peak_mb"] for r in rows if r["binary"] == name and r["shape"] == shape]
                print(f"{name}: peak MB at {sizes[-1]:,} steps / at {sizes[0]:,}: {peaks[-1] / peaks[0]:.2f}")
    print(f"\nload average after: {os.getloadavg()[0]:.1f}")
    if options.json:
        Path(options.json).write_text(json.dumps({"floor_mb": floor, "runs": options.runs, "results": rows},
                                                 indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
