#!/usr/bin/python3
"""The live throughput benchmark of ./tcs fuzz, rerunnable.

    /usr/bin/python3 bench/fuzz.py [--otp 25,27,29] [--count 100] [--runs 3] [--workers 2] [--json FILE]

Each run generates `--count` scenarios of its own seed (the run number) and
replays them on each release, `--workers` nodes side by side, without
shrinking; it prints per release the median over the runs of live scenarios
per minute (wall time of that release's live runs: node start, replay,
judging, replaying disagreements alone) and the model's scenarios per minute
(generation, steering and the model's golden streams). Numbers depend on the
machine and its load; compare runs of one machine.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "driver"))

from tcs_driver import cli, corpus  # noqa: E402
from tcs_driver.fuzz import campaign, report  # noqa: E402


def main() -> int:
    args = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    args.add_argument("--otp", default="local", help="releases, as for ./tcs run (default: the host's)")
    args.add_argument("--count", type=int, default=100, help="scenarios per run (default 100)")
    args.add_argument("--runs", type=int, default=3, help="runs, each with its own seed (default 3)")
    args.add_argument("--workers", type=int, default=2, help="nodes side by side per release (default 2)")
    args.add_argument("--json", help="write the medians as JSON to this file")
    options = args.parse_args()
    layout = corpus.default_layout()
    cli.build(layout)
    otps = cli.select_otps(options.otp)
    live: dict[str, list[float]] = {o.name: [] for o in otps}
    model: list[float] = []
    for run in range(1, options.runs + 1):
        with tempfile.TemporaryDirectory(prefix="tcs-bench-fuzz-", dir=layout.build) as scratch:
            started = time.monotonic()
            result = campaign.run(layout, run, otps, count=options.count, minutes=None, where=Path(scratch),
                                  workers=options.workers, shrink_seconds=0, say=lambda text: None)
            total = time.monotonic() - started
        for otp, speed in report.throughput(result).items():
            live[otp].append(speed)
        model.append(60 * len(result.generated) / max(1e-9, total - sum(result.seconds.values())))
        print(f"run {run}: " + ", ".join(f"OTP {o} {s[-1]:.0f}/min" for o, s in live.items())
              + f", model {model[-1]:.0f}/min", flush=True)
    medians = {o: round(statistics.median(s), 1) for o, s in live.items()}
    print(f"median of {options.runs} runs of {options.count} scenarios, {options.workers} node(s) per release:")
    for otp, value in medians.items():
        print(f"  OTP {otp}: {value} live scenarios/min")
    print(f"  model (generation, steering, golden): {statistics.median(model):.0f} scenarios/min")
    if options.json:
        Path(options.json).write_text(json.dumps({"live_per_minute": medians,
                                                  "model_per_minute": round(statistics.median(model), 1),
                                                  "runs": options.runs, "count": options.count,
                                                  "workers": options.workers}, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
