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
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

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
    log: Path | None = None

    def summary(self) -> str:
        """One paragraph for the terminal and the report."""
        found = "no finding" if not self.findings else f"{len(self.findings)} finding(s): " + ", ".join(
            str(p) for p in self.findings)
        return (f"{self.execs} executions in {self.seconds:.0f}s ({self.execs / max(self.seconds, 1):.0f}/s), "
                f"coverage {self.coverage} edges / {self.features} features, corpus {self.corpus_units} inputs; "
                + found)


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


_FINAL: Final = re.compile(r"#(\d+)\s+DONE\s+cov: (\d+) ft: (\d+) corp: (\d+)/")
_PROGRESS: Final = re.compile(r"#(\d+)\s+(?:pulse|INITED|DONE)\s+cov: (\d+)")
_FINDING: Final = re.compile(r"Test unit written to (\S+)")


def run(layout: corpus.Layout, target: Path, seconds: float, say: Callable[[str], None]) -> FuzzRun:
    """Runs the fuzz target for `seconds`, seeded with the cases, keeping what it learns in the
    fuzz build's corpus; progress through say(). Stops at the first finding (libFuzzer's way)."""
    work = target.parent
    learned, findings = work / "corpus", work / "findings"
    learned.mkdir(exist_ok=True)
    findings.mkdir(exist_ok=True)
    log = work / "last-run.log"
    cmd = [str(target), f"-max_total_time={max(1, round(seconds))}", f"-max_len={MAX_LEN}", "-timeout=10",
           "-rss_limit_mb=2048", "-print_final_stats=1", f"-artifact_prefix={findings}/",
           str(learned), str(layout.cases)]
    result = FuzzRun(seconds)
    with open(log, "w") as kept, subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                                  text=True, errors="replace", cwd=work) as proc:
        assert proc.stderr is not None
        for line in proc.stderr:
            kept.write(line)
            if progress := _PROGRESS.search(line):
                say(f"fuzz-parser: {progress.group(1)} executions, coverage {progress.group(2)} edges")
            if final := _FINAL.search(line):
                result.execs, result.coverage, result.features, result.corpus_units = map(int, final.groups())
            if found := _FINDING.search(line):
                result.findings.append(Path(found.group(1)))
            if line.startswith("stat::number_of_executed_units:"):
                result.execs = int(line.split(":")[-1])
    result.log = log
    if proc.returncode != 0 and not result.findings:
        raise FuzzUnavailable(f"the fuzz target failed (exit {proc.returncode}); see {log}")
    return result
