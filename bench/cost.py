#!/usr/bin/python3
"""The cost benchmark of ./tcs validate on the bundled tracers, rerunnable.

    /usr/bin/python3 bench/cost.py [--samples 7] [--size 20000] [--json FILE]

For each bundled tracer that loads as a tracer (the good ones, the recorder)
it runs validate's cost check alone, on the host's OTP, and prints one table:
medians over the samples of one run (time per enabled call, per trace call,
per send untraced / traced with the tracer / traced with the built-in process
tracer) and the ratios.  Numbers depend on the machine and its load; compare
runs of one machine.  The same check for your own tracer:
    ./tcs validate --module M --nif M.so --erl M.erl --checks cost
"""
from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "driver"))

from tcs_driver import cli, corpus, node  # noqa: E402
from tcs_driver.validate import bundled, engine, inputs  # noqa: E402
from tcs_driver.validate.checks import Bench  # noqa: E402

COLUMNS = [("enabled_ns", "enabled ns"), ("trace_ns", "trace ns"), ("event_untraced_ns", "send ns"),
           ("event_module_ns", "traced ns"), ("event_builtin_ns", "built-in ns"),
           ("module_vs_untraced", "traced/send"), ("builtin_vs_untraced", "built-in/send"),
           ("module_vs_builtin", "traced/built-in")]


def main() -> int:
    args = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    args.add_argument("--samples", type=int, default=Bench.samples)
    args.add_argument("--size", type=int, default=Bench.calls)
    args.add_argument("--json", help="write the medians as JSON to this file")
    options = args.parse_args()
    layout = corpus.default_layout()
    cli.build(layout)
    otp, release, include = node.probe_local()
    run = engine.Options(checks=("shape", "cost"), bench=Bench(options.samples, options.size, options.size))
    rows = {}
    with tempfile.TemporaryDirectory(prefix="tcs-bench-") as scratch:
        tracers = bundled.good(layout) + [bundled.recorder_tracer(layout, include, Path(scratch))]
        for tracer in tracers:
            where = Path(scratch) / tracer.module
            where.mkdir()
            prepared = inputs.prepare(tracer.module, str(tracer.nif), str(tracer.erl), None, None, where)
            results = engine.validate(prepared, [otp], lambda o: corpus.runner_beams(layout, o), run, lambda _: None)
            cost = next(r for r in results if r.check == "cost")
            if cost.status != "pass":
                print(f"{tracer.module}: {cost.summary}", file=sys.stderr)
                return 1
            rows[tracer.module] = cost.data
    print(f"OTP {release}, {options.samples} samples of {options.size} calls or sends; medians")
    widths = [max(len(h), 9) for _, h in COLUMNS]
    print(f"{'tracer':<16} " + " ".join(h.rjust(w) for (_, h), w in zip(COLUMNS, widths)))
    for name, data in rows.items():
        cells = [f"{data[k]:.2f}" if "_vs_" in k else f"{data[k]:.0f}" for k, _ in COLUMNS]
        print(f"{name:<16} " + " ".join(c.rjust(w) for c, w in zip(cells, widths)))
    if options.json:
        Path(options.json).write_text(json.dumps({"otp": str(release), "samples": options.samples,
                                                  "size": options.size, "tracers": rows}, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
