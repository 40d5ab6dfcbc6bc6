"""`./tcs`: the one entry point (README.md). Set-up of Debian packages is done
by the ./tcs shell wrapper before this module runs."""
from __future__ import annotations

import argparse
import contextlib
import dataclasses
import importlib.util
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from . import (buildstamp, conformance, corpus, expectations, fuzzing, junit, locking, merge, node, provision,
               recorder, reftree, report_html, rules, rundiff, shard, textfile, validate)
from .results import CaseResult, exit_code, from_json, junit_cases, render_table, to_json
from .workshop import book, try_
from .fuzz import command as fuzz_command
from .fuzz import merge as fuzz_merge
from .fuzz import report as fuzz_report



def say(text: str) -> None:
    """Progress for the user, on stderr so stdout stays parseable."""
    print(f"tcs: {text}", file=sys.stderr, flush=True)


def build(where: corpus.Layout, *, coverage: bool = False) -> None:
    """Configures (once) and builds the model, the NIFs and the runner with CMake; runs side by
    side in one tree take turns (one CMake at a time in a build directory)."""
    with locking.held(where.build / ".tcs-build.lock"):
        build_unlocked(where, coverage=coverage)


def build_unlocked(where: corpus.Layout, *, coverage: bool) -> None:
    """build() once the build directory is this process's."""
    if not (where.build / "CMakeCache.txt").exists():
        say(f"configuring the build in {where.build}")
        configure = ["cmake", "-S", str(where.repo), "-B", str(where.build), "-DCMAKE_BUILD_TYPE=Release"]
        if coverage:
            configure.append("-DTCS_COVERAGE=ON")
        checked(configure)
    if buildstamp.up_to_date(where.repo, where.build):
        return
    tree = buildstamp.sources(where.repo, where.build)
    say("building (cmake --build)")
    checked(["cmake", "--build", str(where.build), "-j", str(os.cpu_count() or 2)])
    buildstamp.record(where.build, tree)


def checked(cmd: list[str]) -> None:
    """Runs a build command quietly; on failure shows its output and exits 2."""
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode != 0:
        sys.stderr.write(done.stdout + done.stderr)
        say(f"failed: {' '.join(cmd)}")
        sys.exit(2)


def select_otps(spec: str) -> list[node.Otp]:
    """The OTP releases asked for with --otp, provisioned and checked; exits 2 when one is not available."""
    try:
        return provision.otps(spec, say)
    except (node.NoErlang, provision.ProvisionError) as why:
        say(str(why))
        sys.exit(2)


def check_golden(where: corpus.Layout) -> bool:
    """True when golden/ is exactly what the model generates now; says what is stale."""
    args = ["golden", str(where.cases), str(where.golden), "--check"]
    done = subprocess.run([str(where.tcsref), *args], capture_output=True, text=True, errors="replace")
    if crashed := corpus.model_crash(done.returncode, args):
        sys.stderr.write(done.stderr)
        say(crashed)
        sys.exit(2)
    if done.returncode == 2:
        sys.stderr.write(done.stderr)
        sys.exit(2)
    if done.returncode != 0:
        sys.stderr.write(done.stdout + done.stderr)
        say("golden streams are stale: regenerate them with ./tcs golden and review the change")
        return False
    return True


@contextlib.contextmanager
def interrupt_deferred() -> Iterator[None]:
    """Ctrl-C during the block takes effect at its end, so that a result and its progress line are
    kept together (the JSON of an interrupted run lists exactly the results the console showed)."""
    pending: list[int] = []
    previous = signal.signal(signal.SIGINT, lambda signum, _frame: pending.append(signum))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
    if pending:
        raise KeyboardInterrupt


def run_corpus(where: corpus.Layout, pattern: str, otps: list[node.Otp], strict: bool,
               fresh_nodes: bool, results: list[CaseResult], part: shard.Shard = shard.WHOLE) -> None:
    """Runs every selected case (of shard `part` only: the cases sorted by id, shard.Shard.select) live
    on each release, printing one progress line per case and appending each result to `results` as it
    comes (so an interrupted run keeps them)."""
    include = corpus.host_include()
    try:
        paths = corpus.case_paths(where, pattern)
        cases = corpus.load_cases(where, part.select(paths))
        corpus.check_expectations(where, sorted({str(o.release) for o in otps}))
    except (corpus.ModelError, expectations.ExpectationError) as why:
        say(str(why))
        sys.exit(2)
    if not paths:
        say(f"no case matches {pattern!r} in {where.cases}")
        sys.exit(2)
    if part != shard.WHOLE:
        say(f"shard {part}: {len(cases)} of the {len(paths)} selected case(s)")
    if not cases:
        return
    width = len(str(len(cases)))
    for otp in otps:
        where_runs = f"in {otp.root}" if otp.root else f"{otp.erl[0]}" if "@" in otp.name else "on the host"
        say(f"OTP {otp.name} ({where_runs}): {len(cases)} case(s), "
            + ("one node per case" if fresh_nodes else "several per node"))
        started = time.monotonic()
        try:
            with contextlib.closing(corpus.run_cases(where, cases, otp, include, strict=strict,
                                                     per_node=1 if fresh_nodes else 0)) as runs:
                for number, result in enumerate(runs, 1):
                    with interrupt_deferred():
                        results.append(result)
                        print(f"[{number:>{width}}/{len(cases)}] OTP {otp.name} {result.case:<48} "
                              f"{result.verdict():<9}" + (f" (replayed alone; in the shared node: {result.shared_run.status})"
                                                       if result.shared_run else ""), flush=True)
                    if result.status not in ("pass", "skip", "deviation"):
                        print("    " + result.detail.replace("\n", "\n    "), flush=True)
        except (corpus.ModelError, recorder.BuildError, expectations.ExpectationError) as why:
            say(str(why))
            sys.exit(2)
        say(f"OTP {otp.name}: {time.monotonic() - started:.1f}s")


def cmd_run(args: argparse.Namespace) -> int:
    reports = [Path(p) for p in (args.json, args.html, args.junit) if p]
    for problem in filter(None, map(textfile.unwritable, reports)):
        say(problem)
        return 2
    where = corpus.default_layout()
    build(where)
    if args.cases_dir is None and not check_golden(where):
        return 1
    started = time.monotonic()
    otps = select_otps(args.otp)
    results: list[CaseResult] = []
    origin: dict[str, object] = {}
    try:
        with contextlib.ExitStack() as own:
            if args.cases_dir is not None:
                where = own_cases(where, Path(args.cases_dir), Path(own.enter_context(tempfile.TemporaryDirectory())))
            origin = merge.provenance(where, args.cases, args.strict, args.shard)
            run_corpus(where, args.cases, otps, args.strict, args.fresh_nodes, results, args.shard)
    except KeyboardInterrupt:
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # a second Ctrl-C does not cut the report short
        incomplete = f"interrupted (Ctrl-C) after {len(results)} result(s)"
        say(incomplete + (f"; the report{'s' if len(reports) > 1 else ''} keep{'' if len(reports) > 1 else 's'} "
                          "them, marked incomplete" if reports else ""))
        write_reports(args, [o.name for o in otps], results, incomplete=incomplete, quiet=True, provenance=origin)
        return INTERRUPTED
    print()
    print(render_table(results))
    say(f"wall time {time.monotonic() - started:.1f}s")
    write_reports(args, [o.name for o in otps], results, provenance=origin)
    return exit_code(results)


def own_cases(where: corpus.Layout, directory: Path, golden: Path) -> corpus.Layout:
    """The layout of `run --cases-dir DIRECTORY`: the user's tree of scenarios in place of cases/, their
    golden streams generated into `golden` by the model, their expectations in DIRECTORY/expectations/;
    exits 2 when DIRECTORY is no directory or the model refuses one of its scenarios (FILE:LINE:COL)."""
    if not directory.is_dir():
        say(f"--cases-dir {directory}: no such directory")
        sys.exit(2)
    if run_model(where, ["golden", str(directory), str(golden)]) != 0:
        say(f"--cases-dir {directory}: the model cannot run every scenario there (above); nothing was run")
        sys.exit(2)
    return dataclasses.replace(where, own_cases=directory.resolve(), own_golden=golden)


#: The exit status of a run cut short by Ctrl-C (128 + SIGINT, as shells report it).
INTERRUPTED = 130


def write_reports(args: argparse.Namespace, otps: list[str], results: list[CaseResult], *,
                  incomplete: str = "", quiet: bool = False, provenance: dict | None = None) -> None:
    """Writes the JSON, HTML and JUnit reports asked for."""
    if args.json:
        write_report(Path(args.json), json.dumps(to_json(otps, results, incomplete=incomplete,
                                                         provenance=provenance), indent=2) + "\n", quiet=quiet)
    if args.html:
        write_report(Path(args.html), report_html.render(results), quiet=quiet)
    if args.junit:
        write_report(Path(args.junit), junit.render("tcs run", junit_cases(results)), quiet=quiet)


def write_report(path: Path, text: str, *, quiet: bool = False) -> None:
    """Writes a report whole (textfile.write_whole), or exits 2 saying why not."""
    try:
        textfile.write_whole(path, text)
    except OSError as why:
        say(f"cannot write {path}: {why.strerror}")
        sys.exit(2)
    if not quiet:
        say(f"wrote {path}")


def cmd_diff(args: argparse.Namespace) -> int:
    """What changed between two JSON reports; 1 when a case newly fails."""
    try:
        old, new = rundiff.load(Path(args.old)), rundiff.load(Path(args.new))
        changes = rundiff.compare(old, new, strict=args.strict)
    except rundiff.ReportError as why:
        say(str(why))
        return 2
    print(rundiff.render(changes), end="")
    return 1 if changes.regressions else 0


def cmd_merge(args: argparse.Namespace) -> int:
    """The JSON reports of shards as one run's or one fuzz campaign's (tcs_driver/merge, fuzz/merge);
    1 when a case fails or the merge is incomplete, 2 when the reports cannot be one run's (nothing is
    written then)."""
    reports = [Path(p) for p in (args.out, args.html, args.junit) if p]
    for problem in filter(None, map(textfile.unwritable, reports)):
        say(problem)
        return 2
    try:
        inputs = [merge.load(Path(p)) for p in args.inputs]
        if any(given.is_fuzz for given in inputs):
            if args.html:
                raise merge.MergeError("--html: merged fuzz campaigns have JSON and JUnit reports only")
            merged, campaign = fuzz_merge.merge(inputs)
        else:
            merged = merge.merge(inputs)
    except merge.MergeError as why:
        say(f"not merged: {why}")
        return 2
    if any(given.is_fuzz for given in inputs):
        write_report(Path(args.out), json.dumps(merged, indent=2) + "\n")
        if args.junit:
            write_report(Path(args.junit), junit.render(f"tcs fuzz seed {campaign.seed}",
                                                        fuzz_report.junit_cases(campaign)))
        status = fuzz_command.exit_status(campaign)
    else:
        args.json = args.out
        results = [from_json(row) for row in merged["results"]]
        write_reports(args, merged["otp"], results, incomplete=merged.get("incomplete", ""),
                      provenance={k: merged[k] for k in (*merge.SAME_TREE, "merged") if k in merged})
        status = exit_code(results)
    say(f"{len(inputs)} report(s): " + "; ".join(
        f"OTP {otp}: {', '.join(f'{n} {s}' for s, n in counts.items() if n and s != 'cases')}"
        for otp, counts in merged["by_otp"].items()))
    if merged.get("incomplete"):
        say(f"the merged report is incomplete: {merged['incomplete']}")
        return 1
    return status


def cmd_test(args: argparse.Namespace) -> int:
    where = corpus.default_layout()
    build(where)
    listing = bool({"--collect-only", "--co"} & set(args.pytest_args))  # a listing of pytest's tests runs none
    side_by_side = pytest_workers(args.pytest_args)
    with tempfile.TemporaryFile("w+") as ctest_output:
        # ctest runs while pytest starts its workers and collects; its output is shown after pytest's
        ctest = None if listing else subprocess.Popen(
            ["ctest", "--output-on-failure", "-j", str(os.cpu_count() or 2)], cwd=where.build,
            stdout=ctest_output, stderr=subprocess.STDOUT)
        say(("" if listing else "unit tests of the model (ctest) and, side by side, ") +
            "driver tests and the live corpus (pytest" +
            (f", {side_by_side[1]} workers side by side)" if side_by_side else ")"))
        pytest = subprocess.run([sys.executable, "-m", "pytest", "-c", str(where.repo / "driver" / "pytest.ini"),
                                 *side_by_side, *pytest_targets(args.pytest_args, Path.cwd(),
                                                                where.repo / "driver" / "tests")],
                                cwd=where.repo)
        if ctest is None:
            return pytest.returncode
        ctest.wait()
        ctest_output.seek(0)
        lines = ctest_output.read().splitlines()
    say("unit tests of the model (ctest):")
    print("\n".join(lines if ctest.returncode else [line for line in lines if "tests passed" in line]), flush=True)
    return 0 if ctest.returncode == 0 and pytest.returncode == 0 else 1


#: pytest's options whose value is the next argument, which is never a test path
_VALUED_OPTIONS = ("-k", "-m", "-o", "-p", "-n", "-c", "--dist", "--deselect", "--ignore", "--junitxml",
                   "--basetemp", "--rootdir", "--maxfail", "--durations", "--tb")


def pytest_targets(pytest_args: list[str], cwd: Path, default: Path) -> list[str]:
    """pytest's arguments with the tests to run: the test paths given (a file, a directory, FILE::TEST), made
    absolute from cwd, since pytest runs in the repository; the default directory only when none is given (it
    and a file in it would run the whole suite)."""
    targets: list[str] = []
    named = False
    for before, arg in zip([None, *pytest_args], pytest_args):
        path, sep, test = arg.partition("::")
        if not arg.startswith("-") and before not in _VALUED_OPTIONS and (cwd / path).exists():
            targets.append(str((cwd / path).resolve()) + sep + test)
            named = True
        else:
            targets.append(arg)
    return targets if named else [str(default), *targets]


#: pytest's options that already say how to distribute the tests (or that there is nothing to run)
_DISTRIBUTION_OPTIONS = ("-n", "--numprocesses", "--dist", "-p", "--collect-only", "--co", "--pdb")


def pytest_workers(pytest_args: list[str]) -> list[str]:
    """The pytest-xdist options ./tcs test adds: one worker per core (at most 8: every live test starts nodes of
    its own), tests that share work kept on one worker (conftest.side_by_side_group); none when pytest-xdist
    is not installed, when there is one core, or when the arguments already decide (-n, -p, --collect-only)."""
    workers = min(os.cpu_count() or 1, 8)
    given = any(arg.split("=", 1)[0] in _DISTRIBUTION_OPTIONS or arg.startswith("-n") for arg in pytest_args)
    if given or workers < 2 or importlib.util.find_spec("xdist") is None:
        return []
    return ["-n", str(workers), "--dist", "loadgroup"]


def case_path(where: corpus.Layout, name: str) -> Path:
    """A case given by id or by path."""
    path = Path(name)
    if path.suffix == ".tcs" or path.exists():
        return path
    return where.case_file(name)


def cmd_sim(args: argparse.Namespace) -> int:
    where = corpus.default_layout()
    build(where)
    return run_model(where, ["sim", str(case_path(where, args.case))] + (["--explain"] if args.explain else []))


def run_model(where: corpus.Layout, args: list[str]) -> int:
    """Runs tcsref with its output to the terminal; its exit code, or 2 saying so when it crashed."""
    returncode = subprocess.run([str(where.tcsref), *args]).returncode
    if crashed := corpus.model_crash(returncode, args):
        say(crashed)
        return 2
    return returncode


def cmd_golden(args: argparse.Namespace) -> int:
    where = corpus.default_layout()
    build(where)
    return run_model(where, ["golden", str(where.cases), str(where.golden)] + (["--check"] if args.check else []))


def cmd_coverage(args: argparse.Namespace) -> int:
    """Model coverage from its unit tests and the corpus, as lcov data and an HTML report."""
    where = corpus.default_layout()
    cov = corpus.Layout(where.repo, where.build.with_name(where.build.name + "-coverage"))
    build(cov, coverage=True)
    checked(["lcov", "--quiet", "--zerocounters", "--directory", str(cov.build)])
    say("unit tests of the model (ctest)")
    checked(["ctest", "--test-dir", str(cov.build)])
    say("the corpus through the model (sim, plan, meta of every case)")
    for path in corpus.case_paths(cov):
        for verb in (["sim", str(path), "--explain"], ["plan", str(path)], ["meta", str(path)]):
            corpus.model(cov, *verb)
    out = where.repo / "coverage"
    out.mkdir(exist_ok=True)
    info = out / "lcov.info"
    lcov = ["lcov", "--quiet", "--rc", "lcov_branch_coverage=1"]
    checked(lcov + ["--capture", "--directory", str(cov.build), "--output-file", str(info)])
    checked(lcov + ["--extract", str(info), f"{where.repo}/ref/*", "--output-file", str(info)])
    checked(lcov + ["--remove", str(info), f"{where.repo}/ref/tests/*", "--output-file", str(info)])
    checked(["genhtml", "--quiet", "--branch-coverage", "--output-directory", str(out / "html"), str(info)])
    summary = subprocess.run(["lcov", "--rc", "lcov_branch_coverage=1", "--summary", str(info)],
                             capture_output=True, text=True)
    print("\n".join(line.strip() for line in (summary.stdout + summary.stderr).splitlines()
                    if line.strip().startswith(("lines", "functions", "branches"))))
    say(f"report: {out / 'html' / 'index.html'}")
    return 0


def cmd_layers(args: argparse.Namespace) -> int:
    """ref/README.md's layer table from ref/LAYERS and the files present: rewritten, or checked."""
    readme = corpus.default_layout().repo / "ref" / "README.md"
    text = readme.read_text()
    wanted = reftree.with_table(text, reftree.table(readme.parent))
    if args.check:
        if wanted != text:
            say(f"{readme}: the layer table is stale; regenerate it with ./tcs layers")
            return 1
        return 0
    if wanted != text:
        readme.write_text(wanted)
        say(f"rewrote the layer table of {readme}")
    return 0


def cmd_rules(args: argparse.Namespace) -> int:
    where = corpus.default_layout()
    build(where)
    text = conformance.text(where.repo)
    try:
        named = {case.id: case.rules for case in corpus.load_cases(where, corpus.case_paths(where))}
    except corpus.ModelError as why:
        say(str(why))
        return 2
    report = rules.check(rules.catalogue(text), named,
                         rules.model_problems(rules.model_refs(text), corpus.model_sources(where)))
    print(rules.render(report))
    return 0 if report.ok else 1


def cmd_fuzz_parser(args: argparse.Namespace) -> int:
    """The model's parser under libFuzzer for as long as asked (tcs_driver/fuzzing)."""
    where = corpus.default_layout()
    try:
        say(f"building the fuzz target in {fuzzing.fuzz_dir(where)} (clang, libFuzzer, ASan, UBSan)")
        target = fuzzing.build(where)
        say(f"fuzzing the model's parser for {args.minutes:g} minute(s), seeded with {where.cases}")
        result = fuzzing.run(where, target, args.minutes * 60, say)
    except fuzzing.FuzzUnavailable as why:
        say(str(why))
        return 2
    print(result.summary())
    for finding in result.findings:
        print(f"reproduce: {target} {finding}\n"
              f"  once fixed, keep it as a bad-input test: ref/tests/bad/<name>.tcs with its '% expect:' line")
    say(f"libFuzzer's output: {result.log}")
    return 1 if result.findings else 0


def cmd_validate(args: argparse.Namespace) -> int:
    """Validates a third-party tracer module (tcs_driver/validate)."""
    where = corpus.default_layout()
    build(where)
    return validate.main(args, where, say)


def cmd_try(args: argparse.Namespace) -> int:
    """Any scenario file through the model and live on every release asked for (tcs_driver/workshop)."""
    where = corpus.default_layout()
    build(where)
    return try_.main(args, where, say, write_report)


def cmd_book(args: argparse.Namespace) -> int:
    """The rules, cases, streams and verdicts per release as a static site (tcs_driver/workshop)."""
    where = corpus.default_layout()
    build(where)
    if not check_golden(where):
        return 1

    def corpus_results(otps: list[node.Otp]) -> list[CaseResult]:
        results: list[CaseResult] = []
        run_corpus(where, args.cases, otps, False, False, results)
        return results
    return book.main(args, where, say, corpus_results)


def cmd_fuzz(args: argparse.Namespace) -> int:
    """Differential fuzzing of the model against live OTP (tcs_driver/fuzz)."""
    where = corpus.default_layout()
    build(where)
    # --model-only: the model alone (reach of the generator), no release provisioned or run
    return fuzz_command.main(args, where, [] if args.model_only else select_otps(args.otp), say, write_report)


def cmd_bench(args: argparse.Namespace) -> int:
    """The fuzz throughput benchmark (bench/fuzz.py), or with `stream` first the model on long
    scenarios (bench/stream.py, on the model built here); each takes the arguments tcs does not know."""
    layout = corpus.default_layout()
    if args.pytest_args[:1] == ["stream"]:
        build(layout)
        bench, rest = layout.repo / "bench" / "stream.py", args.pytest_args[1:]
    else:
        bench, rest = layout.repo / "bench" / "fuzz.py", args.pytest_args
    return subprocess.run([sys.executable, str(bench), *rest]).returncode


def parser() -> argparse.ArgumentParser:
    """The command line of ./tcs."""
    top = argparse.ArgumentParser(prog="tcs", description="Conformance suite for Erlang tracer modules (erl_tracer).")
    sub = top.add_subparsers(dest="command", required=True)
    run = sub.add_parser("run", help="build, check golden streams, replay every case live, summarise")
    run.add_argument("--otp", default="local",
                     help=provision.OTP_HELP)
    run.add_argument("--cases", default="*", help="shell pattern on case ids (default: all)")
    run.add_argument("--cases-dir", metavar="DIR",
                     help="run your own tree of scenarios (.tcs files; DIR/expectations/otpN.toml optional) "
                          "in place of cases/: the model writes their golden streams for the run")
    run.add_argument("--json", help="write the results as JSON to this file")
    run.add_argument("--html", help="write a self-contained HTML report (matrices, streams side by side)")
    run.add_argument("--junit", help="write JUnit XML for CI to this file (a testcase per case and release)")
    run.add_argument("--strict", action="store_true", help="compare informative lines too")
    run.add_argument("--fresh-nodes", action="store_true",
                     help="one node per case (slower; by default a node runs many cases, see README)")
    shard.add_argument(run, "the selected cases (sorted by id)")
    run.set_defaults(func=cmd_run)
    merged = sub.add_parser("merge", help="merge the JSON reports of shards (run --shard K/N) into one run's "
                            "report; exit 1 when a case fails or a shard is missing, 2 when they are not one run's")
    merged.add_argument("out", metavar="OUT.json", help="the merged JSON report to write")
    merged.add_argument("inputs", metavar="IN.json", nargs="+", help="JSON reports of ./tcs run --json")
    merged.add_argument("--html", help="also write the HTML report of the merged results")
    merged.add_argument("--junit", help="also write the JUnit XML of the merged results")
    merged.set_defaults(func=cmd_merge)
    run_diff = sub.add_parser("diff", help="what changed between two runs (JSON reports of ./tcs run --json); "
                              "exit 1 when a case newly fails")
    run_diff.add_argument("old", help="the report of the earlier run (e.g. on the OTP in use)")
    run_diff.add_argument("new", help="the report of the later run (e.g. on the OTP to upgrade to)")
    run_diff.add_argument("--strict", action="store_true", help="compare informative stream lines too")
    run_diff.set_defaults(func=cmd_diff)
    test = sub.add_parser("test", help="the project's own tests: ctest (model) and pytest (driver, corpus)")
    test.epilog = ("Arguments tcs does not know are passed to pytest, e.g. ./tcs test -k fallback; "
                   "./tcs test -m 'not live' runs only what starts no OTP node (seconds)")
    test.set_defaults(func=cmd_test)
    sim = sub.add_parser("sim", help="print the golden stream of one case, from the model")
    sim.add_argument("case", help="case id or path to a .tcs file")
    sim.add_argument("--explain", action="store_true", help="annotate each line with its rule IDs")
    sim.set_defaults(func=cmd_sim)
    golden = sub.add_parser("golden", help="regenerate golden/ from the model (or --check it)")
    golden.add_argument("--check", action="store_true", help="write nothing; exit 1 if a golden file is stale")
    golden.set_defaults(func=cmd_golden)
    coverage = sub.add_parser("coverage", help="build the model with coverage, run its tests and the corpus, write coverage/ (lcov, genhtml)")
    coverage.set_defaults(func=cmd_coverage)
    rule_list = sub.add_parser("rules", help="every rule of conformance/ with its case count; exit 1 if a rule has no case or a case names an unknown rule")
    rule_list.set_defaults(func=cmd_rules)
    layer_table = sub.add_parser("layers", help="rewrite ref/README.md's layer table from ref/LAYERS and the files "
                                 "present (--check: exit 1 when it is stale)")
    layer_table.add_argument("--check", action="store_true", help="only check the table, change nothing")
    layer_table.set_defaults(func=cmd_layers)
    fuzz = sub.add_parser("fuzz-parser", help="fuzz the model's parser with libFuzzer (ASan, UBSan), seeded with the "
                          "corpus; exit 1 on a finding")
    fuzz.add_argument("--minutes", type=float, default=10.0, help="how long to fuzz (default 10)")
    fuzz.set_defaults(func=cmd_fuzz_parser)
    check_tracer = sub.add_parser("validate", help="validate a tracer module on live nodes: one verdict per check, with evidence")
    validate.add_arguments(check_tracer)
    check_tracer.set_defaults(func=cmd_validate)
    try_scenario = sub.add_parser("try", help="any scenario file, anywhere: its golden stream with the rules of each "
                                  "line beside what each release does (nothing written into the tree)")
    try_.add_arguments(try_scenario)
    try_scenario.set_defaults(func=cmd_try)
    site = sub.add_parser("book", help="a static, offline site of the rules, cases, annotated streams and "
                          "verdicts per release", description=book.DESCRIPTION)
    book.add_arguments(site)
    site.set_defaults(func=cmd_book)


    differential = sub.add_parser("fuzz", help="differential fuzzing: random scenarios, model vs live, disagreements shrunk")
    fuzz_command.add_arguments(differential)
    differential.set_defaults(func=cmd_fuzz)
    speed = sub.add_parser("bench", help="the fuzz throughput benchmark: live and model scenarios per minute, "
                           "medians of runs (bench/fuzz.py; ./tcs bench --help); `./tcs bench stream`: the "
                           "model on long scenarios, time and peak memory (bench/stream.py)", add_help=False)
    speed.set_defaults(func=cmd_bench)
    return top


def main(argv: list[str] | None = None) -> int:
    top = parser()
    args, extra = top.parse_known_args(argv)
    if extra and args.command not in ("test", "bench"):
        top.error(f"unrecognized arguments: {' '.join(extra)}")
    args.pytest_args = extra  # and bench's
    try:
        return int(args.func(args))
    except KeyboardInterrupt:  # outside a run's cases (building, provisioning): nothing to keep
        say("interrupted (Ctrl-C)")
        return INTERRUPTED


if __name__ == "__main__":
    sys.exit(main())
