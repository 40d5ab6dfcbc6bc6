#!/usr/bin/python3
"""The cost of ./tcs validate --sanitize, rerunnable.

    /usr/bin/python3 bench/sanitize.py [--otp local] [--samples 3] [--tracer tcs_good_tracer] [--json FILE]

On each release it validates one bundled tracer (tcs_good_tracer by
default) `samples` times with two checks, one at a time: memory (the
--sanitize check: every input of enabled_answers and trace_accepts, on a
node under valgrind memcheck) and tracee_untouched (the same inputs, each
called once, on a plain node; it also looks at the tracee after each call,
so the ratio understates the slowdown a little).  It prints, per release, the
median seconds of each check's node (start to end, boot included) and the
ratio sanitize / plain, all from this one run.  Numbers depend on the machine
and its load; compare runs of one machine.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "driver"))

from tcs_driver import cli, corpus  # noqa: E402
from tcs_driver.validate import bundled, engine, inputs, releases, sanitize  # noqa: E402
from tcs_driver.validate.checks import SANITIZE_CHECK  # noqa: E402

PLAIN = "tracee_untouched"


def main() -> int:
    args = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    args.add_argument("--otp", default="local", help="releases, as for ./tcs validate (default: local)")
    args.add_argument("--samples", type=int, default=3, help="runs of each check per release (default 3)")
    args.add_argument("--tracer", default="tcs_good_tracer", help="a bundled tracer (default tcs_good_tracer)")
    args.add_argument("--json", help="write the figures as JSON to this file")
    options = args.parse_args()
    layout = corpus.default_layout()
    cli.build(layout)
    say = lambda text: print(f"bench: {text}", file=sys.stderr, flush=True)  # noqa: E731
    tracer = next((t for t in bundled.good(layout) + bundled.defective(layout) if t.module == options.tracer), None)
    if tracer is None or options.samples < 1:
        print(f"--tracer {options.tracer}: not a bundled tracer, or --samples below 1", file=sys.stderr)
        return 2
    figures: dict[str, dict[str, object]] = {}
    with tempfile.TemporaryDirectory(prefix="tcs-bench-sanitize-") as scratch:
        prepared = inputs.prepare(tracer.module, str(tracer.nif), str(tracer.erl), None, None, Path(scratch))
        for otp in releases.available(options.otp, say):
            sanitize.install(otp, say)
            if why := sanitize.unavailable(otp):
                say(f"OTP {otp.name} left out: {why}")
                continue
            seconds: dict[str, list[float]] = {SANITIZE_CHECK: [], PLAIN: []}
            for sample in range(options.samples):
                for check in (PLAIN, SANITIZE_CHECK):
                    run = engine.Options(checks=("shape", check), parallel=1)
                    results = engine.validate(prepared, [otp], lambda o: corpus.runner_beams(layout, o), run,
                                              lambda _: None)
                    result = next(r for r in results if r.check == check)
                    if result.status != "pass":
                        print(f"OTP {otp.name} {check}: {result.status}: {result.summary}", file=sys.stderr)
                        return 1
                    seconds[check].append(result.seconds)
                    say(f"OTP {otp.name} sample {sample + 1}/{options.samples}: {check} {result.seconds:.1f} s")
            medians = {check: statistics.median(values) for check, values in seconds.items()}
            figures[otp.name] = {"seconds": seconds, "median_s": medians,
                                 "ratio": round(medians[SANITIZE_CHECK] / medians[PLAIN], 1)}
    print(f"{tracer.module}, {options.samples} samples per check; medians of one run, seconds per node")
    print(f"{'OTP':<8} {'plain s':>9} {'sanitize s':>11} {'ratio':>7}")
    for name, data in figures.items():
        medians = data["median_s"]
        assert isinstance(medians, dict)
        print(f"{name:<8} {medians[PLAIN]:>9.1f} {medians[SANITIZE_CHECK]:>11.1f} {data['ratio']:>7.1f}")
    if options.json:
        Path(options.json).write_text(json.dumps({"tracer": tracer.module, "samples": options.samples,
                                                  "releases": figures}, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
