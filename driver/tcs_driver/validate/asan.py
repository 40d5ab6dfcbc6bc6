"""validate --sanitize with the tracer's sources (--src): the memory check runs
every input of the direct-call checks on a plain node that has loaded an
AddressSanitizer + UndefinedBehaviorSanitizer build of the tracer.

Why this works with an emulator nobody here compiled: ASan instruments the
code it compiles (the tracer's), and its runtime, preloaded into the node
(LD_PRELOAD, the runtime first in the library list as ASan requires), replaces
malloc and free; the node runs with `+Mea min`, so enif_alloc is malloc and
every block the tracer allocates is fenced.  The emulator's own code is not
instrumented, so it runs at full speed and reports nothing of its own: the
node costs about what a plain node costs (bench/sanitize.py), where valgrind
memcheck costs about a hundred times that.  What it sees: reads and writes
outside a heap block, a stack array or a global of the tracer, use after free,
double free, and undefined behaviour in the tracer's code (an overflowing
signed addition, a shift too far, a misaligned or null pointer).  What it
cannot see: a read of uninitialised memory (MemorySanitizer would, but it
needs the whole process instrumented): for those, --sanitize without --src
runs the node under memcheck (sanitize.py).

The input: the node's stderr, where ASan and UBSan write their reports, is a
file the node also appends every STEP line to (O_APPEND both), so each report
lies after the input that caused it.  Reports are recovered from (the build
has -fsanitize-recover=all, ASAN_OPTIONS halt_on_error=0): one node sees every
error.  The node symbolizes nothing (a root has no llvm-symbolizer): the
tracer's frames, LIBRARY+OFFSET, are symbolized afterwards on the host."""
from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path, PurePosixPath

from .. import node
from . import jobs
from .inputs import BadInput
from .sanitize import Finding, Log

#: The compiler the build needs (Debian: clang-14 and libclang-rt-14-dev).
COMPILERS = ("clang-14", "clang")
RUNTIME = "libclang_rt.asan-x86_64.so"
FLAGS = ("-shared", "-fPIC", "-g", "-O1", "-fno-omit-frame-pointer", "-fsanitize=address,undefined",
         "-fsanitize-recover=all", "-shared-libasan")
#: detect_leaks=0: LeakSanitizer would report the emulator's own blocks at exit (the leak check
#: judges leaks); symbolize=0: frames are symbolized on the host (see above).
ASAN_OPTIONS = "halt_on_error=0:detect_leaks=0:symbolize=0:print_summary=1:allocator_may_return_null=1"
UBSAN_OPTIONS = "halt_on_error=0:print_stacktrace=1:symbolize=0"


def compiler() -> str | None:
    """The clang on PATH, or None."""
    return next((c for c in COMPILERS if shutil.which(c)), None)


def runtime(clang: str) -> Path | None:
    """The ASan runtime library that clang links against, or None when it is not installed."""
    done = subprocess.run([clang, f"-print-file-name={RUNTIME}"], capture_output=True, text=True)
    path = Path(done.stdout.strip())
    return path if done.returncode == 0 and path.is_absolute() and path.is_file() else None


def unavailable() -> str | None:
    """Why no ASan build can be made here, in user words, or None."""
    clang = compiler()
    if clang is None:
        return "clang is not installed (Debian: apt-get install clang-14 libclang-rt-14-dev)"
    if runtime(clang) is None:
        return f"{clang} has no {RUNTIME} (Debian: apt-get install libclang-rt-14-dev)"
    return None


def build(sources: tuple[Path, ...], erts_include: Path, out: Path) -> Path:
    """Compiles the tracer's sources into an ASan+UBSan library `out` (compile); needs unavailable()
    to be None."""
    clang = compiler()
    assert clang is not None
    return compile_library(clang, FLAGS, sources, erts_include, out, "the sanitized library")


def compile_library(compiler_name: str, flags: tuple[str, ...], sources: tuple[Path, ...], erts_include: Path,
                    out: Path, what: str) -> Path:
    """Guarantees: `out` is the library the compiler makes of the tracer's sources with `flags`, against
    the NIF headers of erts_include, each source's directory on the include path; or BadInput with the
    compiler's words, naming `what` could not be built."""
    dirs = dict.fromkeys(f"-I{s.parent}" for s in sources)
    done = subprocess.run([compiler_name, *flags, f"-I{erts_include}", *dirs, "-o", str(out), *map(str, sources)],
                          capture_output=True, text=True)
    if done.returncode != 0:
        raise BadInput(f"--src: {compiler_name} could not build {what}:\n"
                       f"{(done.stdout + done.stderr).strip()[:2000]}")
    return out


def command(otp: node.Otp, library_dir: str, runtime_in_node: str, log_fd: int) -> jobs.Wrap:
    """How to start a node of `otp` with the ASan runtime preloaded, its libraries looked up in
    library_dir first and its stderr (the sanitizers' reports) written to log_fd (in a root, with
    /proc, which the runtime reads its own mappings from: jobs.proc_namespace)."""
    before = ["env", f"LD_PRELOAD={runtime_in_node}", f"LD_LIBRARY_PATH={library_dir}",
              f"ASAN_OPTIONS={ASAN_OPTIONS}", f"UBSAN_OPTIONS={UBSAN_OPTIONS}"]
    return jobs.Wrap(jobs.proc_namespace(otp), before, ["+Mea", "min"], (), stderr_fd=log_fd)


_STEP = re.compile(r"^TCS-STEP ([^\n]*)$", re.M)
_ASAN = re.compile(r"^==\d+==ERROR: AddressSanitizer: ([^\n]*)\n(.*?)^SUMMARY: AddressSanitizer[^\n]*$", re.M | re.S)
_UBSAN = re.compile(r"^([^\n:]+):(\d+):(\d+): runtime error: ([^\n]*)\n((?:[ \t]+#\d+ [^\n]*\n?)*)", re.M)
_FRAME = re.compile(r"^\s+#\d+ 0x[0-9a-f]+\s+(?:in \S+ )?\((.+?)\+(0x[0-9a-f]+)\)", re.M)


def parse(text: str, tracer_names: frozenset[str], host_library: Path) -> Log:
    """The sanitizers' reports in a node's log whose innermost frame (past the ASan runtime's
    interceptors: memcpy, strlen, ...) is in the tracer's library (a library file named like one of
    tracer_names); each named after the STEP line before it, its frames symbolized with
    host_library (the same build, on the host)."""
    items = sorted([(m.start(), "step", m) for m in _STEP.finditer(text)]
                   + [(m.start(), "asan", m) for m in _ASAN.finditer(text)]
                   + [(m.start(), "ubsan", m) for m in _UBSAN.finditer(text)], key=lambda item: item[0])
    findings: list[Finding] = []
    others = 0
    step: str | None = None
    for _, kind, match in items:
        if kind == "step":
            step = match.group(1).strip()
            continue
        body = match.group(2) if kind == "asan" else match.group(5)
        frames = [(PurePosixPath(m.group(1)).name, int(m.group(2), 16)) for m in _FRAME.finditer(body.split("\n\n")[0])]
        inner = 0
        while inner < len(frames) - 1 and frames[inner][0] == RUNTIME:
            inner += 1
        if not frames or frames[inner][0] not in tracer_names:
            others += 1
            continue
        ours = [offset for name, offset in frames if name in tracer_names]
        names = symbolize(host_library, ours)
        if kind == "asan":
            first, _, rest = match.group(1).partition(" on ")
            access = next((line.strip() for line in body.splitlines() if re.match(r"\s*(READ|WRITE) of size", line)), "")
            where = next((line.strip() for line in body.splitlines() if " is located " in line), "")
            what = f"AddressSanitizer: {first}: {access}".rstrip(": ") + (f" ({where})" if where else "")
            label = first
        else:
            what = f"UndefinedBehaviorSanitizer: {match.group(4)}"
            label = "undefined-behavior"
        inner_frames = [f"{name}+{hex(offset)}" for name, offset in frames[:inner]]
        findings.append(Finding(label, what, names[0], tuple(inner_frames + names), step))
    return Log(tuple(findings), others, 0)


def symbolize(library: Path, offsets: list[int]) -> list[str]:
    """Guarantees: 'function (file:line)' for each offset of the library (the innermost frame's first,
    return addresses after it), by llvm-symbolizer; the library's name and offset when it cannot."""
    tool = next((t for t in ("llvm-symbolizer-14", "llvm-symbolizer") if shutil.which(t)), None)
    fallback = [f"{library.name}+{hex(o)}" for o in offsets]
    if tool is None:
        return fallback
    # An offset in a frame is a return address (but the innermost): one byte back lies in the call.
    asked = [hex(o if i == 0 else o - 1) for i, o in enumerate(offsets)]
    done = subprocess.run([tool, f"--obj={library}", "--relative-address", *asked], capture_output=True, text=True)
    blocks = [b.splitlines() for b in done.stdout.strip().split("\n\n")]
    if done.returncode != 0 or len(blocks) != len(offsets):
        return fallback
    named = []
    for block, plain in zip(blocks, fallback):
        fn, place = (block + ["", ""])[:2]
        path, line = (place.rsplit(":", 2) + ["", ""])[:2] if place.count(":") >= 2 else ("", "")
        named.append(plain if fn in ("", "??") else f"{fn} ({PurePosixPath(path).name}:{line})" if path else fn)
    return named
