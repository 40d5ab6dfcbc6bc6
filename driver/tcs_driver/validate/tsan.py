"""The stress check's race detector, when the tracer's sources are given (--src):
a second stress node loads a ThreadSanitizer build of the tracer, and a data
race ThreadSanitizer reports between two accesses of the tracer's own code is
named with both accesses (kind, size, function, file and line, thread).

Why this works with an emulator nobody here compiled, and its limits:
  - TSan sees the accesses of instrumented code only (the tracer's) and the
    synchronisation of what its runtime intercepts: pthread mutexes, which
    enif_mutex_* is built on in the Debian OTP releases, C11 atomics of the
    tracer's code, thread creation.  The emulator's own synchronisation (its
    atomics, its futexes) is invisible, so TSan reports the emulator's own
    accesses as races: only a race whose two accesses both have their
    innermost frame (past TSan's interceptors: malloc, free, memcpy) in the
    tracer counts; the others are counted and left out.  A race between the
    tracer and the emulator (a term the tracer writes while the runtime reads
    it) is therefore not seen.
  - The node runs with `+Mea min`: enif_alloc is malloc, which TSan
    intercepts, so a block one scheduler freed and another got back is not
    taken for a race.
  - clang 14's TSan runtime does not start on this kernel (it needs a memory
    layout the kernel's ASLR no longer gives); GCC's libtsan (Debian
    libtsan2) does, preloaded: the build is made with gcc -fsanitize=thread.
  - The erl script is a shell script, and dash does not run with libtsan
    preloaded: the runtime is preloaded into erlexec (and so beam.smp) only,
    by the erl script's own last line (exec "$BINDIR/erlexec") given an
    LD_PRELOAD (RUNNER below).
  - TSan reports a race on an address once per pair of places; a race that
    the scheduling of the run did not produce is not reported (the stress
    traffic makes calls overlap on every scheduler for --stress-seconds)."""
from __future__ import annotations

import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from .. import node
from . import asan, jobs

COMPILER = "gcc"
RUNTIME = "libtsan.so.2"
FLAGS = ("-shared", "-fPIC", "-g", "-O1", "-fno-omit-frame-pointer", "-fsanitize=thread")
#: detect_deadlocks=0: the emulator holds more pthread mutexes at once than TSan's deadlock
#: detector can track (it aborts); report_signal_unsafe=0: the emulator's signal handlers;
#: exitcode=0: a node that reported ends as it would without TSan (the reports are judged).
OPTIONS = "halt_on_error=0:report_signal_unsafe=0:detect_deadlocks=0:history_size=4:exitcode=0"
#: How much longer a stress part, and the node, may take under TSan than on a plain node (every
#: malloc of the emulator, under +Mea min, goes through TSan's allocator).
SLOWDOWN = 5
#: Runs the erl script ($1) with its arguments, its last line (exec "$BINDIR/erlexec") preceded by
#: env LD_PRELOAD=$TCS_PRELOAD.
RUNNER = ('erl_script=$(command -v "$1"); shift; '
          'eval "$(sed "s|^exec \\"\\$BINDIR/erlexec\\"|exec env LD_PRELOAD=$TCS_PRELOAD \\"\\$BINDIR/erlexec\\"|" '
          '"$erl_script")"')


def runtime() -> Path | None:
    """GCC's TSan runtime, or None when it is not installed."""
    if shutil.which(COMPILER) is None:
        return None
    done = subprocess.run([COMPILER, f"-print-file-name={RUNTIME}"], capture_output=True, text=True)
    path = Path(done.stdout.strip())
    return path.resolve() if done.returncode == 0 and path.is_absolute() and path.is_file() else None


def unavailable() -> str | None:
    """Why no TSan build can be made here, in user words, or None."""
    if runtime() is None:
        return f"no {COMPILER} with {RUNTIME} (Debian: apt-get install gcc libtsan2)"
    return None


def build(sources: tuple[Path, ...], erts_include: Path, out: Path) -> Path:
    """Compiles the tracer's sources into a TSan library `out` (asan.compile_library); raises BadInput."""
    return asan.compile_library(COMPILER, FLAGS, sources, erts_include, out, "the ThreadSanitizer library")


def command(otp: node.Otp, library_dir: str, runtime_in_node: str, log_fd: int) -> jobs.Wrap:
    """How to start a node of `otp` with libtsan preloaded into the emulator, libraries looked up in
    library_dir first, stderr (TSan's reports) written to log_fd."""
    before = ["env", f"TCS_PRELOAD={runtime_in_node}", f"LD_LIBRARY_PATH={library_dir}", f"TSAN_OPTIONS={OPTIONS}",
              "sh", "-c", RUNNER, "sh"]
    return jobs.Wrap(jobs.proc_namespace(otp), before, ["+Mea", "min"], (), stderr_fd=log_fd)


@dataclass(frozen=True)
class Access:
    """One of the two accesses of a race."""
    what: str          # "Write of size 8", "Previous read of size 4", "Atomic write of size 8"
    thread: str        # "thread T5 ('2_scheduler')"
    where: str         # the tracer's innermost frame: function (file:line)


@dataclass(frozen=True)
class Race:
    """A data race between two accesses of the tracer's code."""
    first: Access
    second: Access
    location: str      # "global 'building'", "heap block of size 16", ... ("" when TSan did not say)

    def describe(self) -> str:
        on = f" on {self.location}" if self.location else ""
        return (f"data race{on}: {self.first.what} in the tracer's {self.first.where} by {self.first.thread}, and "
                f"{self.second.what.lower()} in the tracer's {self.second.where} by {self.second.thread}, "
                "with nothing ordering them")


_REPORT = re.compile(r"^WARNING: ThreadSanitizer: data race[^\n]*\n(.*?)^SUMMARY: ThreadSanitizer[^\n]*$", re.M | re.S)
_ACCESS = re.compile(r"^\s*((?:Previous )?(?:[Aa]tomic )?(?:read|write|Read|Write) of size \d+) at 0x[0-9a-f]+ by "
                     r"(main thread|thread T\d+)")
_FRAME = re.compile(r"^\s+#\d+ .*\(([^()]*?(?: \(deleted\))?)\+(0x[0-9a-f]+)\)\s*$", re.M)
_THREAD = re.compile(r"^\s*Thread (T\d+) '([^']*)'", re.M)
_LOCATION = re.compile(r"^\s*Location is ([^\n]*)$", re.M)


def parse(text: str, tracer_names: frozenset[str], host_library: Path) -> tuple[list[Race], int]:
    """The data races in a node's stderr whose two accesses are both the tracer's (innermost frame
    past TSan's interceptors in a library named like one of tracer_names), symbolized with
    host_library; and how many other race reports were left out."""
    races: list[Race] = []
    others = 0
    for report in _REPORT.finditer(text):
        sections = report.group(1).split("\n\n")
        names = {f"thread {t}": f"thread {t} ('{n}')" for t, n in _THREAD.findall(report.group(1))}
        accesses = []
        for section in sections:
            access = _ACCESS.match(section)
            if access is None:
                continue
            frames = [(PurePosixPath(m.group(1)).name, int(m.group(2), 16)) for m in _FRAME.finditer(section)]
            inner = 0
            while inner < len(frames) - 1 and frames[inner][0] == RUNTIME:
                inner += 1
            if not frames or frames[inner][0] not in tracer_names:
                break
            [where] = asan.symbolize(host_library, [frames[inner][1]])
            accesses.append(Access(access.group(1), names.get(access.group(2), access.group(2)), where))
        if len(accesses) != 2:
            others += 1
            continue
        location = _LOCATION.search(report.group(1))
        races.append(Race(accesses[0], accesses[1],
                          _location(location.group(0), tracer_names, host_library) if location else ""))
    return races, others


_GLOBAL = re.compile(r"Location is global '([^']*)'.*\(([^()+]+)\+(0x[0-9a-f]+)\)")


def _location(line: str, tracer_names: frozenset[str], host_library: Path) -> str:
    """TSan's location line in words: 'heap block of size 16', or a global of the tracer by its name
    (looked up in host_library when TSan could not name it)."""
    found = _GLOBAL.search(line)
    if found is None:
        return re.sub(r" at 0x[0-9a-f]+.*", "", line.strip().removeprefix("Location is "))
    name, library, offset = found.groups()
    if name == "<null>" and PurePosixPath(library).name in tracer_names and shutil.which("llvm-symbolizer"):
        done = subprocess.run(["llvm-symbolizer", f"--obj={host_library}", f"DATA {offset}"],
                              capture_output=True, text=True)
        name = done.stdout.partition("\n")[0].strip() if done.returncode == 0 else name
    return f"the global '{name}' of the tracer" if name not in ("", "<null>", "??") else "a global of the tracer"
