#!/usr/bin/python3
"""How fast ./tcs try and ./tcs book are, rerunnable.

    /usr/bin/python3 bench/workshop.py [--otp 25,27,29] [--repeat 3] [--results R.json] [--book-dir DIR]
                                       [--try-only]

`try`: one scenario (written to a temporary directory, as in a workshop) through the model and
live on each release, `--repeat` times; each time as `./tcs try` does it after its build step:
the releases checked, the scenario through the model, a fresh node per release (in parallel).
Prints each time and the median.

`book`: the site for the whole corpus from the results of R.json (./tcs run --json), or, without
--results, from a corpus run on the same releases (timed apart); prints the time to generate and
write the pages, their number and size.  Numbers depend on the machine and its load; compare runs
of one machine."""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "driver"))

from tcs_driver import cli, corpus, node  # noqa: E402
from tcs_driver.results import releases  # noqa: E402
from tcs_driver.workshop import book, try_  # noqa: E402

SCENARIO = """case     bench_try
rules    EV-SEND EV-RECEIVE
desc     "a scenario written on the spot: a send and its receive, both traced"
otp      25
features send receive

tracer recorder

process a b
trace a on send
trace b on 'receive'
a send b ping
b recv
"""


def cpu_seconds() -> float:
    """CPU time of this process and of its children that have ended (the model, the nodes)."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def say(text: str) -> None:
    print(f"bench: {text}", file=sys.stderr, flush=True)


def main() -> int:
    args = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    try_.add_otp_argument(args)
    args.add_argument("--repeat", type=int, default=3, help="runs of try (default 3)")
    args.add_argument("--results", action="append", help="results for the book (./tcs run --json)")
    args.add_argument("--book-dir", help="keep the book here (default: a temporary directory)")
    args.add_argument("--try-only", action="store_true", help="time try only, not the book")
    options = args.parse_args()
    layout = corpus.default_layout()
    cli.build(layout)
    with tempfile.TemporaryDirectory(prefix="tcs-bench-") as scratch:
        path = Path(scratch) / "bench_try.tcs"
        path.write_text(SCENARIO)
        times, cpu, otps = [], [], []
        for _ in range(options.repeat):
            started, used = time.monotonic(), cpu_seconds()
            otps, include = try_.releases(options.otp, lambda text: None)
            tried = try_.run(layout, path, otps, strict=False, include=include)
            times.append(time.monotonic() - started)
            cpu.append(cpu_seconds() - used)
            if any(not v.agrees for v in tried.views):
                say("the scenario does not agree everywhere: " + ", ".join(f"{v.otp} {v.status}" for v in tried.views))
        names = ", ".join(v.otp for v in tried.views)
        print(f"try, one scenario on OTP {names}: " + ", ".join(f"{t:.2f}s" for t in times)
              + f"; median {statistics.median(times):.2f}s (CPU, nodes included: median "
              f"{statistics.median(cpu):.2f}s; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)")

        if options.try_only:
            return 0
        if options.results:
            results = book.results_from_files(options.results)
            origin = "from " + ", ".join(options.results)
        else:
            started = time.monotonic()
            ready = [o if isinstance(o, node.Otp) else o() for o in otps]
            results = book.entries_of(cli.run_corpus(layout, "*", ready, False, False))
            print(f"corpus run for the book on OTP {names}: {time.monotonic() - started:.1f}s")
            origin = "the benchmark's corpus run"
        out = Path(options.book_dir) if options.book_dir else Path(scratch) / "book"
        started, used = time.monotonic(), cpu_seconds()
        site = book.build(layout, results, releases(results), origin)
        book.write_site(out, site)
        took, took_cpu = time.monotonic() - started, cpu_seconds() - used
        size = sum(f.stat().st_size for f in out.rglob("*") if f.is_file())
        print(f"book of {len(site)} pages for {len(corpus.case_paths(layout))} cases on OTP "
              f"{', '.join(releases(results))}: {took:.1f}s (CPU {took_cpu:.1f}s; load average "
              f"{os.getloadavg()[0]:.1f}), {size / 1e6:.1f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
