#!/usr/bin/python3
"""The throughput benchmark of ./tcs fuzz, rerunnable (also: ./tcs bench ...).

    ./tcs bench [--otp 25,27,29] [--count 100] [--runs 3] [--workers 2] [--baseline TREE] [--json FILE]

Each run generates `--count` scenarios of its own seed (the run number) and
replays them on each release, `--workers` nodes side by side, without
shrinking. Two rates per run, in scenarios per minute:

- live, per release: the scenarios over the wall time of that release's live
  side (recorder variants, node starts, replay, judging, replaying
  disagreements alone);
- model: the scenarios over the rest (corpus coverage, generation of the
  candidates, steering, the model's golden streams, metadata and plans);
- CPU bound: the scenarios per minute per release that the run's CPU time (the
  driver's and every process it waited for: nodes, tcsref, the compiler; both
  sides; split evenly among the releases) allows on two cores: what a quiet
  machine of two cores could do at most, where the wall-time rates above
  depend on the load of the machine.

It prints the median of the runs per figure. With --baseline (a checkout of
an earlier commit, e.g. `git worktree add /tmp/base main`; the bench builds
it in its own build/) both trees run every seed, alternately, each run in a
process of its own, and the ratios this tree / baseline of the medians are
printed. Numbers depend on the machine and its load; compare figures of one
run.
"""
from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]


def one_run(tree: Path, seed: int, otp: str, count: int, workers: int) -> dict[str, object]:
    """One campaign of `tree`'s driver (imported from there), measured; the child side of the bench."""
    sys.path.insert(0, str(tree / "driver"))
    from tcs_driver import cli, corpus  # noqa: E402  (the tree's own)
    from tcs_driver.fuzz import campaign, report  # noqa: E402
    layout = corpus.default_layout()
    cli.build(layout)
    otps = cli.select_otps(otp)
    with tempfile.TemporaryDirectory(prefix="tcs-bench-fuzz-", dir=layout.build) as scratch:
        cpu_before, started = cpu_seconds(), time.monotonic()
        result = campaign.run(layout, seed, otps, count=count, minutes=None, where=Path(scratch),
                              workers=workers, shrink_seconds=0, say=lambda text: None)
        total, cpu = time.monotonic() - started, cpu_seconds() - cpu_before
    model_seconds = total - sum(result.seconds.values())
    return {"live": report.throughput(result), "model": 60 * len(result.generated) / max(1e-9, model_seconds),
            # each release's share of the CPU time taken as equal
            "cpu_bound": 2 * 60 * len(result.generated) / max(1e-9, cpu / len(otps)),
            "live_seconds": result.seconds, "model_seconds": model_seconds, "cpu_seconds": cpu,
            "scenarios": len(result.generated)}


def cpu_seconds() -> float:
    """User and system time of this process and of the processes it has waited for."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def measured(tree: Path, seed: int, options: argparse.Namespace) -> dict[str, object]:
    """one_run in a process of its own (so that each tree imports its own driver)."""
    done = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--child", str(tree), "--seed", str(seed),
                           "--otp", options.otp, "--count", str(options.count), "--workers", str(options.workers)],
                          capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"bench: the run of {tree} (seed {seed}) failed:\n{done.stderr.strip()[-3000:]}")
    return json.loads(done.stdout.splitlines()[-1])


def figures(runs: list[dict[str, object]]) -> dict[str, float]:
    """The medians of the runs: live per release ("OTP 25 live") and the model's."""
    out = {f"OTP {o} live": round(statistics.median(float(r["live"][o]) for r in runs), 1)  # type: ignore[index]
           for o in runs[0]["live"]}  # type: ignore[union-attr]
    out["model"] = round(statistics.median(float(r["model"]) for r in runs), 1)  # type: ignore[arg-type]
    out["CPU bound"] = round(statistics.median(float(r["cpu_bound"]) for r in runs), 1)  # type: ignore[arg-type]
    return out


def main() -> int:
    args = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                   formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    args.add_argument("--otp", default="local", help="releases, as for ./tcs run (default: the host's)")
    args.add_argument("--count", type=int, default=100, help="scenarios per run (default 100)")
    args.add_argument("--runs", type=int, default=3, help="runs, each with its own seed (default 3)")
    args.add_argument("--workers", type=int, default=2, help="nodes side by side per release (default 2)")
    args.add_argument("--baseline", type=Path, help="an earlier checkout to compare with (ratios)")
    args.add_argument("--json", help="write the medians (and ratios) as JSON to this file")
    args.add_argument("--child", type=Path, help=argparse.SUPPRESS)
    args.add_argument("--seed", type=int, default=1, help=argparse.SUPPRESS)
    options = args.parse_args()
    if options.child:
        print(json.dumps(one_run(options.child, options.seed, options.otp, options.count, options.workers)))
        return 0
    if options.count < 1 or options.runs < 1 or options.workers < 1:
        args.error("--count, --runs and --workers must be positive")
    if options.baseline and not (options.baseline / "driver" / "tcs_driver").is_dir():
        args.error(f"--baseline {options.baseline}: not a checkout of this project (no driver/tcs_driver)")
    trees = {"this tree": HERE} | ({"baseline": options.baseline.resolve()} if options.baseline else {})
    runs: dict[str, list[dict[str, object]]] = {name: [] for name in trees}
    for seed in range(1, options.runs + 1):
        # alternately, so that a change of the machine's load falls on both
        for name, tree in (trees.items() if seed % 2 else reversed(trees.items())):
            runs[name].append(got := measured(tree, seed, options))
            rates = ", ".join(f"OTP {o} {v:.0f}/min" for o, v in got["live"].items())  # type: ignore[union-attr]
            print(f"run {seed} ({name}): live {rates}; model {float(got['model']):.0f}/min; "  # type: ignore[arg-type]
                  f"CPU bound {float(got['cpu_bound']):.0f}/min per release", flush=True)  # type: ignore[arg-type]
    medians = {name: figures(r) for name, r in runs.items()}
    print(f"medians of {options.runs} run(s) of {options.count} scenarios, {options.workers} node(s) per release "
          "(scenarios per minute):")
    for key in medians["this tree"]:
        line = f"  {key:12s} this tree {medians['this tree'][key]:8.1f}"
        if "baseline" in medians:
            base = medians["baseline"][key]
            line += f"   baseline {base:8.1f}   ratio {medians['this tree'][key] / max(base, 1e-9):5.2f}"
        print(line)
    if options.json:
        Path(options.json).write_text(json.dumps({"medians": medians, "runs": runs, "count": options.count,
                                                  "workers": options.workers}, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
