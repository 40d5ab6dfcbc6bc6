"""The model's parser under libFuzzer (./tcs fuzz-parser, and briefly in ./tcs test).

The fuzz target (ref/tests/fuzz_parser.c) is built by CMake in a build directory of its own
(CC=clang, -DTCS_FUZZ=ON: the model with -fsanitize=fuzzer,address,undefined). It starts from
the corpus of cases and from what earlier runs found interesting (a corpus kept in that
directory), and writes any input that crashes, leaks or hangs the model to findings/."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final, TextIO

from . import corpus, locking

#: The Debian packages that provide clang and its libFuzzer runtime (the ./tcs wrapper installs them).
PACKAGES: Final[tuple[str, ...]] = ("clang", "libclang-rt-14-dev")
#: libFuzzer's largest input: the largest case of the corpus is a few KB; room to grow them.
MAX_LEN: Final[int] = 65536


class FuzzUnavailable(Exception):
    """clang or its libFuzzer runtime is missing, or the target does not build; the message says which."""


@dataclass
class FuzzRun:
    """What one libFuzzer run did."""
    seconds: float
    execs: int = 0
    coverage: int = 0          # edges covered ("cov:" of libFuzzer's final line)
    features: int = 0          # coverage features ("ft:")
    corpus_units: int = 0      # inputs kept as interesting, seeds included
    findings: list[Path] = field(default_factory=list)  # inputs that crashed, leaked or hung the model
    unconfirmed: list[Path] = field(default_factory=list)  # timeouts that did not happen again alone
    log: Path | None = None

    def summary(self) -> str:
        """One paragraph for the terminal and the report."""
        found = "no finding" if not self.findings else f"{len(self.findings)} finding(s): " + ", ".join(
            str(p) for p in self.findings)
        aside = f" ({len(self.unconfirmed)} unconfirmed timeout(s) set aside)" if self.unconfirmed else ""
        return (f"{self.execs} executions in {self.seconds:.0f}s ({self.execs / max(self.seconds, 1):.0f}/s), "
                f"coverage {self.coverage} edges / {self.features} features, corpus {self.corpus_units} inputs; "
                + found + aside)


def fuzz_dir(layout: corpus.Layout) -> Path:
    """The build directory of the fuzz target, beside the ordinary one."""
    return layout.build.with_name(layout.build.name + "-fuzz")


def unavailable() -> str | None:
    """Why the fuzz target cannot be built here, in words; None when clang and libFuzzer are there."""
    clang = shutil.which("clang")
    if clang is None:
        return "clang is not installed (Debian: apt-get install " + " ".join(PACKAGES) + ")"
    runtime = subprocess.run([clang, "-print-file-name=libclang_rt.fuzzer-x86_64.a"], capture_output=True, text=True)
    if not Path(runtime.stdout.strip()).is_file():
        return ("clang's libFuzzer runtime is not installed (Debian: apt-get install " + " ".join(PACKAGES) + ")")
    return None


def build(layout: corpus.Layout) -> Path:
    """Configures (once) and builds the fuzz target; its path. FuzzUnavailable when it cannot."""
    if why := unavailable():
        raise FuzzUnavailable(why)
    out = fuzz_dir(layout)
    with locking.held(out / ".tcs-build.lock"):
        steps = [["cmake", "--build", str(out), "--target", "fuzz_parser", "-j", str(os.cpu_count() or 2)]]
        if not (out / "CMakeCache.txt").exists():
            steps.insert(0, ["cmake", "-S", str(layout.repo), "-B", str(out), "-DTCS_FUZZ=ON",
                             "-DCMAKE_BUILD_TYPE=RelWithDebInfo"])
        for cmd in steps:
            done = subprocess.run(cmd, capture_output=True, text=True, env=dict(os.environ, CC="clang"))
            if done.returncode != 0:
                raise FuzzUnavailable(f"building the fuzz target failed ({' '.join(cmd)}):\n"
                                      + (done.stdout + done.stderr)[-3000:])
    return out / "fuzz_parser"


_STATUS: Final = re.compile(r"#(\d+)\s+(NEW|REDUCE|pulse|INITED|DONE)\s+cov: (\d+) ft: (\d+) corp: (\d+)/")
_FINDING: Final = re.compile(r"Test unit written to (\S+)")
#: libFuzzer's limit on one input, in seconds. Generous: on a loaded machine an input that
#: takes a millisecond can be stalled for seconds, and a timeout is confirmed before it counts.
TIMEOUT_S: Final[int] = 30


def run(layout: corpus.Layout, target: Path, seconds: float, say: Callable[[str], None]) -> FuzzRun:
    """Runs the fuzz target for `seconds`, seeded with the cases, keeping what it learns in the
    fuzz build's corpus; progress through say(). libFuzzer stops at a finding: a crash ends the
    run; a timeout that does not happen again when the input is replayed alone (a stall of a
    loaded machine) is set aside as unconfirmed and fuzzing goes on for the time left."""
    work = target.parent
    learned, findings = work / "corpus", work / "findings"
    learned.mkdir(exist_ok=True)
    findings.mkdir(exist_ok=True)
    result = FuzzRun(0.0, log=work / "last-run.log")
    started = time.monotonic()
    with open(result.log, "w") as kept:
        while (left := seconds - (time.monotonic() - started)) >= 1:
            found = _run_once(target, layout.cases, learned, findings, left, kept, result, say)
            if found is None:
                break
            if found.name.startswith("timeout-") and _replays_in_time(target, found):
                unconfirmed = found.with_name("unconfirmed-" + found.name)
                found.replace(unconfirmed)
                result.unconfirmed.append(unconfirmed)
                say(f"fuzz-parser: {found.name} ran in time when replayed alone (a stall of the machine): "
                    "set aside, fuzzing goes on")
                continue
            result.findings.append(found)
            break
    result.seconds = time.monotonic() - started
    return result


def _run_once(target: Path, seeds: Path, learned: Path, findings: Path, seconds: float, log: TextIO,
              result: FuzzRun, say: Callable[[str], None]) -> Path | None:
    """One libFuzzer process for at most `seconds`; adds its executions and last coverage figures
    to result; the input it stopped on, if any."""
    cmd = [str(target), f"-max_total_time={max(1, int(seconds))}", f"-max_len={MAX_LEN}", f"-timeout={TIMEOUT_S}",
           "-rss_limit_mb=2048", "-print_final_stats=1", f"-artifact_prefix={findings}/", str(learned), str(seeds)]
    found = None
    with subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, errors="replace",
                          cwd=target.parent) as proc:
        assert proc.stderr is not None
        for line in proc.stderr:
            log.write(line)
            if status := _STATUS.search(line):
                result.coverage, result.features, result.corpus_units = map(int, status.group(3, 4, 5))
                if status.group(2) in ("pulse", "INITED", "DONE"):
                    say(f"fuzz-parser: {int(status.group(1)) + result.execs} executions, "
                        f"coverage {result.coverage} edges")
            if unit := _FINDING.search(line):
                found = Path(unit.group(1))
            if line.startswith("stat::number_of_executed_units:"):
                result.execs += int(line.split(":")[-1])
    if proc.returncode != 0 and found is None:
        raise FuzzUnavailable(f"the fuzz target failed (exit {proc.returncode}); see {log.name}")
    return found


def _replays_in_time(target: Path, unit: Path) -> bool:
    """Whether the fuzz target runs one input to its end within libFuzzer's limit."""
    try:
        done = subprocess.run([str(target), f"-timeout={TIMEOUT_S}", str(unit)], capture_output=True,
                              timeout=TIMEOUT_S * 2)
    except subprocess.TimeoutExpired:
        return False
    return done.returncode == 0
