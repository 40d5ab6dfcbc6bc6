#!/usr/bin/python3
"""Issue 24's done-when measurement, rerunnable: ./tcs validate on every bundled tracer, repeatedly,
on each release, with the verdict each must get.

    /usr/bin/python3 bench/validate_matrix.py [--reps 10] [--otp 25,27,29] [--only SUBSTRING]
                                              [--modes default,sanitize] [--json FILE] [--journal FILE]

Tracers and what is right for each:
  - nif_impls/good/ and the documentation's example: every check passes (a failure is a false alarm);
  - nif_impls/defective/: exactly the checks its header's "Flagged by:" names fail (those of "May also
    fail:" may), on every release;
  - nif_impls/independent/ (written without reading validate; built here with gcc): the overall
    verdict their author intended (WRITTEN_FROM.txt: ext_good_* PASS, the others FAIL).
Modes: `default` (./tcs validate --otp R, every default check) for every tracer; `sanitize`
(--sanitize --src THE_SOURCE: the memory check on an ASan+UBSan build, stress's race detector on a
TSan build) for the good ones, the independent ones, and the defective ones whose defect a sanitizer
finds (memory, or stress: a race); tcs_defect_uninit_read's uninitialised read needs memcheck
(--sanitize without --src, minutes a node): it runs that way, with --checks shape,memory.
Each run is one `./tcs validate` of one release (so its wall time is that release's), niced.
The whole matrix takes about 20 hours here: with --journal FILE each run is appended to FILE (a JSON
object a line, with the commit of the tree that made it) as it ends, and a later call with the same FILE runs only what FILE does not hold yet
(by tracer, mode, release and repetition), so the matrix can be made over several sittings; the
table is always that of every run FILE holds. The project's own journal is
bench/results/validate_matrix.jsonl, committed as it grows (a machine's other files do not outlive it).
It prints one row per tracer and mode: the verdict expected, per release how many runs were right,
what failed; then the false alarms on the good tracers, and the median wall time of a default
validate and of a --sanitize one per release.  Any wrong run is a bug (of validate, or of the
tracer's header); the exit status is 1 then.
"""
from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "driver"))

from tcs_driver import cli, corpus, merge  # noqa: E402
from tcs_driver.validate import bundled  # noqa: E402
from tcs_driver.validate.checks import SANITIZE_CHECK  # noqa: E402

INDEPENDENT = REPO / "nif_impls" / "independent"


@dataclass(frozen=True)
class Subject:
    """One tracer and what is right for it."""
    module: str
    nif: Path
    erl: Path
    source: Path
    kind: str                        # good | defective | independent
    fails: frozenset[str]            # the checks that must fail (defective)
    may_fail: frozenset[str]
    intended: str = ""               # PASS | FAIL (independent)

    def right(self, failed: frozenset[str], mode: str) -> bool:
        """Whether a release's failed checks are what this tracer must get in this mode."""
        if self.kind == "independent":
            return (self.intended == "FAIL") == bool(failed)
        must = self.fails if mode == "sanitize" else self.fails - {SANITIZE_CHECK}
        if self.kind == "defective" and mode == "sanitize":
            must = must & {SANITIZE_CHECK, "stress"}
            return must <= failed
        return must <= failed <= must | self.may_fail

    def expected(self, mode: str) -> str:
        if self.kind == "independent":
            return self.intended
        must = self.fails if mode == "sanitize" else self.fails - {SANITIZE_CHECK}
        if self.kind == "defective" and mode == "sanitize":
            must = must & {SANITIZE_CHECK, "stress"}
        return "PASS" if not must else "FAIL " + ",".join(sorted(must))

    def sanitize_args(self) -> list[str]:
        """The arguments of this tracer's sanitize runs (a defective one: only the checks a sanitizer
        judges; a defect another check fails as well, such as an overrun that ASan sees, is right)."""
        if self.module == "tcs_defect_uninit_read":
            return ["--sanitize", "--checks", "shape,memory"]
        if self.kind == "defective":
            checks = ",".join(["shape", *sorted(self.fails & {SANITIZE_CHECK, "stress"} - {SANITIZE_CHECK})])
            return ["--sanitize", "--src", str(self.source), "--checks", checks]
        return ["--sanitize", "--src", str(self.source)]

    def sanitized(self) -> bool:
        return self.kind != "defective" or bool(self.fails & {SANITIZE_CHECK, "stress"})


def subjects(layout: corpus.Layout, scratch: Path) -> list[Subject]:
    """Every bundled tracer: the good ones, the defective ones, the independent ones (built here)."""
    found = [Subject(t.module, t.nif, t.erl, t.erl.with_suffix(".c"), "good", frozenset(), frozenset())
             for t in bundled.good(layout)]
    found += [Subject(t.module, t.nif, t.erl, t.erl.with_suffix(".c"), "defective", t.fails, t.may_fail)
              for t in bundled.defective(layout)]
    for source in sorted(INDEPENDENT.glob("ext_*.c")):
        library = scratch / f"{source.stem}.so"
        subprocess.run(["gcc", "-shared", "-fPIC", "-O2", "-Wall", "-Wextra", "-Werror",
                        f"-I{corpus.host_include()}", "-o", str(library), str(source)], check=True)
        found.append(Subject(source.stem, library, source.with_suffix(".erl"), source, "independent", frozenset(),
                             frozenset(), "PASS" if source.stem.startswith("ext_good") else "FAIL"))
    return found


def validate(subject: Subject, release: str, extra: list[str], out: Path) -> tuple[frozenset[str], float, str]:
    """One ./tcs validate of one release: the checks that failed, the wall time, the verdict line."""
    started = time.monotonic()
    done = subprocess.run(["nice", str(REPO / "tcs"), "validate", "--module", subject.module, "--nif",
                           str(subject.nif), "--erl", str(subject.erl), "--otp", release, "--json", str(out), *extra],
                          capture_output=True, text=True)
    seconds = time.monotonic() - started
    if done.returncode == 2 or not out.exists():
        return frozenset({"(bad input: " + done.stdout[-200:] + done.stderr[-200:] + ")"}), seconds, "error"
    report = json.loads(out.read_text())
    failed = frozenset(c["check"] for c in report["checks"] if c["status"] == "fail")
    out.unlink()
    return failed, seconds, report["verdict"]


def arguments() -> argparse.ArgumentParser:
    """The command line."""
    args = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    args.add_argument("--reps", type=int, default=10, help="runs of each tracer, mode and release (default 10)")
    args.add_argument("--otp", default="25,27,29", help="releases, comma-separated (default 25,27,29)")
    args.add_argument("--only", default="", help="only tracers whose name contains this")
    args.add_argument("--modes", default="default,sanitize", help="default, sanitize or both (default both)")
    args.add_argument("--json", help="write every run's figures as JSON to this file")
    args.add_argument("--journal", help="append each run to this file as it ends, and skip the runs it holds")
    return args


def run_key(run: dict) -> tuple[str, str, str, int]:
    """What identifies a run of the matrix: its tracer, mode, release and repetition."""
    return (str(run["tracer"]), str(run["mode"]), str(run["release"]), int(run["rep"]))


def journal_runs(text: str) -> list[dict]:
    """The runs a journal holds, one JSON object a line; a line cut short by an interruption is dropped."""
    runs = []
    for line in text.splitlines():
        try:
            runs.append(json.loads(line))
        except json.JSONDecodeError:
            continue
    return runs


def main() -> int:
    options = arguments().parse_args()
    releases = [r.strip() for r in options.otp.split(",") if r.strip()]
    modes = [m.strip() for m in options.modes.split(",") if m.strip()]
    journal = Path(options.journal) if options.journal else None
    runs: list[dict] = journal_runs(journal.read_text()) if journal and journal.exists() else []
    done = {run_key(r) for r in runs}
    layout = corpus.default_layout()
    cli.build(layout)
    tree = merge.commit(layout)  # each run says which tree made it: a journal kept in the repository spans sittings
    with tempfile.TemporaryDirectory(prefix="tcs-matrix-") as scratch:
        chosen = [s for s in subjects(layout, Path(scratch)) if options.only in s.module]
        for rep in range(options.reps):
            for subject in chosen:
                for mode in modes:
                    if mode == "sanitize" and not subject.sanitized():
                        continue
                    extra = subject.sanitize_args() if mode == "sanitize" else []
                    for release in releases:
                        if (subject.module, mode, release, rep) in done:
                            continue
                        failed, seconds, verdict = validate(subject, release, extra, Path(scratch) / "r.json")
                        right = subject.right(failed, mode)
                        run = {"tracer": subject.module, "kind": subject.kind, "mode": mode,
                               "expected": subject.expected(mode),
                               "release": release, "rep": rep, "failed": sorted(failed),
                               "seconds": round(seconds, 1), "verdict": verdict, "right": right, "commit": tree}
                        runs.append(run)
                        if journal:
                            with journal.open("a") as out:
                                out.write(json.dumps(run) + "\n")
                        print(f"matrix: {rep + 1}/{options.reps} {subject.module} {mode} OTP {release}: "
                              f"{verdict} {','.join(sorted(failed)) or '-'} {seconds:.0f} s"
                              f"{'' if right else '  WRONG'}", file=sys.stderr, flush=True)
    print(table(runs, releases))
    if options.json:
        Path(options.json).write_text(json.dumps(runs, indent=1) + "\n")
    return 0 if all(r["right"] for r in runs) else 1


def table(runs: list[dict], releases: list[str]) -> str:
    """The verdict table, the false alarms on the good tracers and the median times per release."""
    lines = [f"{'tracer':<32} {'mode':<9} {'expected':<26} " + " ".join(f"{'OTP ' + r:>9}" for r in releases)
             + "  failed checks seen"]
    keys = list(dict.fromkeys((r["tracer"], r["mode"]) for r in runs))
    for tracer, mode in keys:
        mine = [r for r in runs if r["tracer"] == tracer and r["mode"] == mode]
        cells = []
        for release in releases:
            these = [r for r in mine if r["release"] == release]
            cells.append(f"{sum(r['right'] for r in these)}/{len(these)}")
        seen = sorted({c for r in mine for c in r["failed"]})
        expected = mine[0]["expected"]
        lines.append(f"{tracer:<32} {mode:<9} {expected:<26} " + " ".join(f"{c:>9}" for c in cells)
                     + f"  {','.join(seen) or '-'}")
    good = [r for r in runs if r["kind"] == "good" or (r["kind"] == "independent" and r["tracer"].startswith("ext_good"))]
    alarms = [r for r in good if r["failed"]]
    lines.append(f"false alarms on the good tracers: {len(alarms)} of {len(good)} runs"
                 + "".join(f"\n  {r['tracer']} {r['mode']} OTP {r['release']}: {','.join(r['failed'])}" for r in alarms))
    for mode in ("default", "sanitize"):
        timed = [r for r in good if r["mode"] == mode]
        if timed:
            lines.append(f"median wall time of a {mode} validate of a good tracer: " + ", ".join(
                f"OTP {rel} {statistics.median([r['seconds'] for r in timed if r['release'] == rel]):.0f} s"
                for rel in releases if any(r["release"] == rel for r in timed)))
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
