#!/usr/bin/python3
"""The cost of ./tcs validate --sanitize, rerunnable.

    /usr/bin/python3 bench/sanitize.py [--otp local] [--samples 3] [--tracer tcs_good_tracer]
                                       [--memcheck [--frames]] [--stress] [--json FILE]

On each release it validates one bundled tracer (tcs_good_tracer by
default) `samples` times with these checks, one at a time: tracee_untouched
(every input of enabled_answers and trace_accepts, each called once, on a
plain node; it also looks at the tracee after each call, so the ratios
understate the slowdown a little), memory with --src (the same inputs with an
ASan+UBSan build of the tracer loaded, asan.py) and, with --memcheck, memory
without --src (on a node under valgrind memcheck: many minutes per node), and with
--frames that check once more with valgrind's default --max-stackframe (2 MB) instead of
sanitize.MAX_STACKFRAME (why it is smaller: sanitize.py);
with --stress, also the stress check with --src: its plain node (stress) and
its race detector's node (stress (tsan): the traffic again on a node that
loads a ThreadSanitizer build of the tracer, tsan.py), both for the default
--stress-seconds, boot included.  It prints, per release, the median seconds of each check's node (start to
end, boot included) and the ratios to the plain node, all from this one run.
Numbers depend on the machine and its load; compare runs of one machine.
"""
from __future__ import annotations

import argparse
import contextlib
import dataclasses
import json
import statistics
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "driver"))

from tcs_driver import cli, corpus  # noqa: E402
from tcs_driver.validate import asan, bundled, engine, inputs, releases, sanitize, tsan  # noqa: E402
from tcs_driver.validate.checks import SANITIZE_CHECK  # noqa: E402

PLAIN = "tracee_untouched"
ASAN = "memory (asan)"
MEMCHECK = "memory (memcheck)"
MEMCHECK_FRAMES = "memory (2 MB frames)"
STRESS = "stress"
RACES = "stress (tsan)"


def main() -> int:
    args = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    args.add_argument("--otp", default="local", help="releases, as for ./tcs validate (default: local)")
    args.add_argument("--samples", type=int, default=3, help="runs of each check per release (default 3)")
    args.add_argument("--tracer", default="tcs_good_tracer", help="a bundled tracer (default tcs_good_tracer)")
    args.add_argument("--memcheck", action="store_true", help="also the memory check under memcheck (slow)")
    args.add_argument("--frames", action="store_true",
                      help="with --memcheck: also memcheck with valgrind's default --max-stackframe")
    args.add_argument("--stress", action="store_true", help="also stress and its race detector's node (TSan)")
    args.add_argument("--json", help="write the figures as JSON to this file")
    options = args.parse_args()
    layout = corpus.default_layout()
    cli.build(layout)
    say = lambda text: print(f"bench: {text}", file=sys.stderr, flush=True)  # noqa: E731
    tracer = next((t for t in bundled.good(layout) + bundled.defective(layout) if t.module == options.tracer), None)
    if tracer is None or options.samples < 1:
        print(f"--tracer {options.tracer}: not a bundled tracer, or --samples below 1", file=sys.stderr)
        return 2
    if why := asan.unavailable() or (options.stress and tsan.unavailable()):
        print(f"no ASan or TSan build: {why}", file=sys.stderr)
        return 2
    kinds = (PLAIN, ASAN) + ((MEMCHECK,) if options.memcheck else ()) + \
        ((MEMCHECK_FRAMES,) if options.memcheck and options.frames else ()) + \
        ((STRESS, RACES) if options.stress else ())
    figures: dict[str, dict[str, object]] = {}
    with tempfile.TemporaryDirectory(prefix="tcs-bench-sanitize-") as scratch:
        prepared = inputs.prepare(tracer.module, str(tracer.nif), str(tracer.erl), None, None, Path(scratch))
        source = tracer.erl.with_suffix(".c")
        built = asan.build((source,), corpus.host_include(), Path(scratch) / f"{tracer.module}.asan.so")
        raced = (tsan.build((source,), corpus.host_include(), Path(scratch) / f"{tracer.module}.tsan.so")
                 if options.stress else None)
        for otp in releases.available(options.otp, say):
            if options.memcheck:
                sanitize.install(otp, say)
                if why := sanitize.unavailable(otp):
                    say(f"OTP {otp.name} left out: {why}")
                    continue
            seconds: dict[str, list[float]] = {kind: [] for kind in kinds}
            # what memcheck left out as OTP's own, per memcheck kind: the noise --max-stackframe cuts
            noise: dict[str, list[tuple[int, int, int]]] = {k: [] for k in (MEMCHECK, MEMCHECK_FRAMES) if k in kinds}
            for sample in range(options.samples):
                for kind in kinds:
                    if kind == RACES:
                        continue  # the same run as STRESS
                    check = PLAIN if kind == PLAIN else STRESS if kind == STRESS else SANITIZE_CHECK
                    given = dataclasses.replace(prepared, sanitized=built if kind == ASAN else None,
                                                race_build=raced if kind == STRESS else None)
                    run = engine.Options(checks=("shape", check), parallel=1)
                    with default_frames(kind == MEMCHECK_FRAMES):
                        results = engine.validate(given, [otp], lambda o: corpus.runner_beams(layout, o), run,
                                                  lambda _: None)
                    result = next(r for r in results if r.check == check)
                    if result.status != "pass":
                        print(f"OTP {otp.name} {kind}: {result.status}: {result.summary}", file=sys.stderr)
                        return 1
                    measured = {kind: result.seconds}
                    if kind in noise:
                        noise[kind].append((int(result.data["suppressed"]), int(result.data["otp_errors"]),
                                            int(result.data["in_bounds"])))
                    if kind == STRESS:
                        race_s = float(result.data["race_detector_s"])
                        measured = {STRESS: result.seconds - race_s, RACES: race_s}
                    for name, value in measured.items():
                        seconds[name].append(value)
                        say(f"OTP {otp.name} sample {sample + 1}/{options.samples}: {name} {value:.1f} s")
            medians = {kind: statistics.median(values) for kind, values in seconds.items()}
            figures[otp.name] = {"seconds": seconds, "median_s": medians,
                                 "ratio": {kind: round(medians[kind] / medians[PLAIN], 2) for kind in kinds[1:]},
                                 "otp_noise": {kind: [{"suppressed": a, "otp_errors": b, "in_bounds": c}
                                                      for a, b, c in samples] for kind, samples in noise.items()}}
    print(f"{tracer.module}, {options.samples} samples per check; medians of one run, seconds per node "
          "(boot included), ratio to the plain node")
    print(f"{'OTP':<8} " + " ".join(f"{kind:>18}" for kind in kinds) + " " +
          " ".join(f"{'x ' + kind:>20}" for kind in kinds[1:]))
    for name, data in figures.items():
        medians, ratios = data["median_s"], data["ratio"]
        assert isinstance(medians, dict) and isinstance(ratios, dict)
        print(f"{name:<8} " + " ".join(f"{medians[kind]:>18.2f}" for kind in kinds) + " " +
              " ".join(f"{ratios[kind]:>20.2f}" for kind in kinds[1:]))
    for name, data in figures.items():
        noise_of = data["otp_noise"]
        assert isinstance(noise_of, dict)
        for kind, samples in noise_of.items():
            print(f"{name:<8} {kind}: left out as OTP's own, medians: " + ", ".join(
                f"{statistics.median(s[key] for s in samples):,.0f} {key}"
                for key in ("suppressed", "otp_errors", "in_bounds")))
    if options.json:
        Path(options.json).write_text(json.dumps({"tracer": tracer.module, "samples": options.samples,
                                                  "releases": figures}, indent=2) + "\n")
    return 0


@contextlib.contextmanager
def default_frames(on: bool) -> Iterator[None]:
    """While on: the memcheck node starts as sanitize.command says, but without its --max-stackframe,
    so with valgrind's default (the one difference this benchmark measures)."""
    if not on:
        yield
        return
    command = sanitize.command
    ours = f"--max-stackframe={sanitize.MAX_STACKFRAME}"

    def frames(*args: Any) -> Any:
        wrap = command(*args)
        assert ours in wrap.before
        return dataclasses.replace(wrap, before=[a for a in wrap.before if a != ours])
    sanitize.command = frames
    try:
        yield
    finally:
        sanitize.command = command


if __name__ == "__main__":
    sys.exit(main())
