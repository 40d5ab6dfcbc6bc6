"""./tcs validate: checks a third-party erl_tracer module on live nodes and
reports one verdict per check, with evidence, and an overall verdict.

    ./tcs validate --module NAME --nif PATH.so (--erl PATH.erl | --beam PATH.beam)
                   [--state TERM] [--otp ...] [--json FILE] [--html FILE] [--sanitize [--src FILE.c ...]]
    ./tcs validate --module NAME --app _build/default/lib   (a tracer as it ships)

Exit status: 0 every check passes (or cannot apply, and says why), 1 the
tracer fails a check, 2 bad input (nothing is written then)."""
from __future__ import annotations

import argparse
import dataclasses
import os
import tempfile
from pathlib import Path
from typing import Callable

from .. import corpus, junit, node, provision, shard
from . import asan, engine, inputs, releases, report, sanitize, tsan
from .checks import ALL_CHECK_NAMES, CHECK_NAMES, SANITIZE_CHECK, Bench, Limits, Stress


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The command line of ./tcs validate."""
    parser.add_argument("--module", required=True, help="the tracer's Erlang module name")
    parser.add_argument("--nif", help="the tracer's NIF library (.so); not needed with --app when "
                        "the module loads its library from its application (code:priv_dir/1)")
    parser.add_argument("--app", action="append", default=[], metavar="DIR",
                        help="an OTP application directory (with ebin/, priv/) or a directory of them "
                        "(rebar3's _build/PROFILE/lib); repeatable. Its ebin/ is on the nodes' code path; "
                        "the module's beam is found there unless --erl/--beam is given")
    source = parser.add_mutually_exclusive_group()
    source.add_argument("--erl", help="the module's source (.erl); compiled with erlc")
    source.add_argument("--beam", help="the compiled module (.beam)")
    parser.add_argument("--state", help="the tracer state, an Erlang term; the atom '$harness' in it "
                        "stands for a process of the harness (default: that process)")
    parser.add_argument("--otp", default="local", help="OTP release(s): 'local' (default), its number, "
                        "or 'all'")
    parser.add_argument("--checks", default=",".join(CHECK_NAMES),
                        help=f"comma-separated checks to run (shape always runs): {', '.join(ALL_CHECK_NAMES)} "
                        "(default: all but memory)")
    parser.add_argument("--sanitize", action="store_true",
                        help="add the memory check: every direct-call input again, on a node under valgrind "
                        "memcheck, which finds reads of uninitialised memory and outside heap blocks in the "
                        "tracer's library: with --src, on an AddressSanitizer+UndefinedBehaviorSanitizer build "
                        "of the tracer (seconds per release; needs clang); without, under valgrind memcheck "
                        "(minutes per release; installs valgrind into the OTP roots), which also finds "
                        "reads of uninitialised memory")
    parser.add_argument("--src", action="append", default=[], metavar="FILE.c",
                        help="the tracer library's C sources (repeatable; each file's directory is on the "
                        "include path): --sanitize builds them with ASan and UBSan for the memory check instead "
                        "of running memcheck, and with ThreadSanitizer for a second stress node that names "
                        "racing accesses of the tracer's code")
    parser.add_argument("--json", help="write the report as JSON to this file")
    parser.add_argument("--html", help="write the report as a self-contained HTML page to this file")
    parser.add_argument("--junit", help="write JUnit XML for CI to this file (a testcase per check and release)")
    parser.add_argument("--callback-timeout", type=float, default=Limits.callback_s,
                        help="seconds one direct callback call may take (default %(default)s; "
                        "a live action may take 5 times as long)")
    parser.add_argument("--check-timeout", type=float, default=Limits.check_s,
                        help="seconds one node of one check may take (default %(default)s)")
    parser.add_argument("--bench-samples", type=int, default=Bench.samples,
                        help="cost: samples per median, odd (default %(default)s)")
    parser.add_argument("--bench-size", type=int, default=Bench.calls,
                        help="cost: calls or sends per sample (default %(default)s)")
    parser.add_argument("--budget", type=float, default=Bench.budget,
                        help="cost: how many times the built-in tracer's cost per traced send, measured in "
                        "the same run, a send traced by this tracer may cost (default %(default)s)")
    parser.add_argument("--stress-seconds", type=float, default=Stress.seconds,
                        help="stress: seconds of traffic on every scheduler per release (default %(default)s; "
                        "the first quarter is the leak check's warm-up)")
    parser.add_argument("--latency-ms", type=float, default=Stress.latency_ms,
                        help="latency: milliseconds a callback may hold its scheduler (default %(default)s)")
    parser.add_argument("--parallel", type=int, default=os.cpu_count() or 2,
                        help="nodes run at once (default: the number of CPUs)")
    shard.add_argument(parser, "the checks (shape runs in every shard; checks judged on what another "
                       "saw stay together: " + "; ".join(", ".join(g) for g in TOGETHER) + ")")


#: Checks that run in one shard: enabled_pure is judged on the inputs enabled_answers saw answered,
#: tracee_untouched and latency on those both enabled_answers and trace_accepts passed; stress and
#: leak judge one stress node's run (engine.py).
TOGETHER: tuple[tuple[str, ...], ...] = (
    ("enabled_answers", "enabled_pure", "trace_accepts", "tracee_untouched", "latency"), ("stress", "leak"))


def shard_checks(checks: tuple[str, ...], part: shard.Shard) -> tuple[str, ...]:
    """Guarantees: the checks of `checks` shard `part` runs, in order: the split is over units, each a
    check or a group of TOGETHER, in ALL_CHECK_NAMES order; shape is none of them (every shard runs it)."""
    units: list[tuple[str, ...]] = []
    for check in ALL_CHECK_NAMES:
        unit = next((group for group in TOGETHER if check in group), (check,))
        chosen = tuple(c for c in unit if c in checks and c != "shape")
        if chosen and chosen not in units:
            units.append(chosen)
    return tuple(c for unit in part.select(units) for c in unit)


def main(args: argparse.Namespace, layout: corpus.Layout, say: Callable[[str], None]) -> int:
    """Runs the command; returns the exit status."""
    try:
        options = _options(args)
        otps = releases.available(args.otp, say)
        sources = _sources(args.src, args.nif)
        if SANITIZE_CHECK in options.checks and (not sources or asan.unavailable()):
            if sources:
                say(f"warning: --src: {asan.unavailable()}; the memory check runs under valgrind memcheck")
            for otp in otps:
                sanitize.install(otp, say)
    except (inputs.BadInput, releases.Unavailable, node.NoErlang, provision.ProvisionError) as why:
        say(f"bad input: {why}" if isinstance(why, inputs.BadInput) else str(why))
        return 2
    with tempfile.TemporaryDirectory(prefix="tcs-validate-input-") as scratch:
        try:
            tracer = inputs.prepare(args.module, args.nif, args.erl, args.beam, args.state, Path(scratch),
                                    args.app)
            tracer = _sanitizer_builds(tracer, sources, options.checks, Path(scratch), say)
            warnings = inputs.state_warnings(tracer.state)
            for warning in warnings:
                say(f"warning: {warning}")
            say(f"validating {tracer.module} on OTP {', '.join(o.name for o in otps)}, "
                "each check in nodes of its own")
            options = dataclasses.replace(options, heap_nif=layout.nifs / "tcs_validate_heap.so")
            results = engine.validate(tracer, otps, lambda otp: corpus.runner_beams(layout, otp), options, say)
        except inputs.BadInput as why:
            say(f"bad input: {why}")
            return 2
    done = report.Report(tracer, [o.name for o in otps], options.limits, options.bench, results,
                         tuple(warnings), options.stress)
    print(report.render_text(done), end="")
    if args.json:
        report.write_json(done, args.json)
        say(f"wrote {args.json}")
    if args.html:
        report.write_atomically(args.html, report.render_html(done))
        say(f"wrote {args.html}")
    if args.junit:
        junit.write(Path(args.junit), f"tcs validate {tracer.module}", report.junit_cases(done))
        say(f"wrote {args.junit}")
    return 0 if done.verdict == "pass" else 1


def _sanitizer_builds(tracer: inputs.Tracer, sources: tuple[Path, ...], checks: tuple[str, ...], scratch: Path,
                      say: Callable[[str], None]) -> inputs.Tracer:
    """The tracer with the sanitizers' builds of --src that --sanitize uses: ASan+UBSan for memory, TSan
    for stress's race detector (each left out, with a warning, when its compiler is missing)."""
    if not sources:
        return tracer
    if SANITIZE_CHECK in checks and not asan.unavailable():
        tracer = dataclasses.replace(tracer, sanitized=asan.build(sources, corpus.host_include(),
                                                                  scratch / f"{tracer.module}.asan.so"))
    if "stress" in checks and SANITIZE_CHECK in checks:
        if why := tsan.unavailable():
            say(f"warning: --src: {why}; stress runs without its race detector")
        else:
            tracer = dataclasses.replace(tracer, race_build=tsan.build(sources, corpus.host_include(),
                                                                       scratch / f"{tracer.module}.tsan.so"))
    return tracer


def _sources(given: list[str], nif: str | None) -> tuple[Path, ...]:
    """The --src files, checked: they exist, and --nif names the library they stand in for."""
    if given and nif is None:
        raise inputs.BadInput("--src needs --nif: the sanitized build stands in for that library")
    missing = [s for s in given if not Path(s).is_file()]
    if missing:
        raise inputs.BadInput(f"--src {missing[0]}: no such file")
    return tuple(Path(s).resolve() for s in given)


def _options(args: argparse.Namespace) -> engine.Options:
    checks = tuple(c.strip() for c in args.checks.split(",") if c.strip())
    unknown = [c for c in checks if c not in ALL_CHECK_NAMES]
    if unknown:
        raise inputs.BadInput(f"--checks: unknown check(s) {', '.join(unknown)}; "
                              f"the checks are {', '.join(ALL_CHECK_NAMES)}")
    if args.sanitize and SANITIZE_CHECK not in checks:
        checks += (SANITIZE_CHECK,)
    if args.bench_samples < 1 or args.bench_samples % 2 == 0:
        raise inputs.BadInput(f"--bench-samples {args.bench_samples}: must be odd and positive")
    if args.bench_size < 1 or args.callback_timeout <= 0 or args.check_timeout <= 0 or args.parallel < 1:
        raise inputs.BadInput("--bench-size, --parallel and the timeouts must be positive")
    if args.budget <= 0 or args.stress_seconds <= 0 or args.latency_ms <= 0:
        raise inputs.BadInput("--budget, --stress-seconds and --latency-ms must be positive")
    if args.shard != shard.WHOLE:
        checks = shard_checks(checks, args.shard)
    return engine.Options(checks=("shape",) + checks,
                          limits=Limits(args.callback_timeout, args.check_timeout),
                          bench=Bench(args.bench_samples, args.bench_size, args.bench_size, args.budget),
                          parallel=args.parallel,
                          stress=Stress(seconds=args.stress_seconds, latency_ms=args.latency_ms))
