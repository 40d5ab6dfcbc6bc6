"""One validate job on one node: its job file, the node's progress read as it
comes, a time limit per step and per node, and how the node ended.

Every job is its own OS process: a callback that crashes (SIGSEGV, abort) or
hangs ends that node only.  The node announces each callback call or action
with a STEP line before it runs it (PROTOCOLS.md, section 5), so when the
node dies or goes quiet the last STEP line names what it was doing.  Job
files and progress files are written and read through tcs_driver.protocol,
which the corpus runner (node.py) shares."""
from __future__ import annotations

import functools
import itertools
import os
import selectors
import signal
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path

from .. import node, protocol
from .releases import Workdir


@dataclass(frozen=True)
class StepLimit:
    """How long one step may run before the node is taken as hung."""
    seconds: float
    what: str               # "per-callback", "per-action", "per-check": named in the verdict


@dataclass
class JobRun:
    """What one node of a job printed and how it ended."""
    status: str                                   # done | crash | timeout
    lines: list[tuple[str, str]] = field(default_factory=list)   # (KIND, rest) of TCS lines
    output: str = ""                              # what it printed on stdout and stderr
    detail: str = ""                              # how it ended, in words
    last_step: str | None = None                  # the rest of the last STEP line

    def of(self, kind: str) -> list[str]:
        """The rest of every line of one kind, in order."""
        return [rest for k, rest in self.lines if k == kind]

    def steps(self) -> list[tuple[str, str, str]]:
        """Every STEP line as (index, key, text)."""
        return [split_step(rest) for rest in self.of("STEP")]

    def tail(self, count: int = 6) -> str:
        """The node's last protocol lines and the last of what it printed (crash evidence)."""
        protocol = "\n".join(f"TCS {kind} {rest}" for kind, rest in self.lines[-count:])
        return "\n".join(part for part in (protocol, node.tail(self.output, count)) if part)


def split_step(rest: str) -> tuple[str, str, str]:
    """A STEP line's rest as (index, key, text)."""
    index, _, more = rest.partition(" ")
    key, _, text = more.partition(" ")
    return index, key, text


_job_numbers = itertools.count(1)   # job file names, unique within a run


#: How often the progress file is read while the node runs.
POLL_S = 0.01


@dataclass(frozen=True)
class Wrap:
    """A program the node runs under (valgrind, or env with a sanitizer's runtime preloaded, for
    validate --sanitize)."""
    outer: list[str]           # a command before the whole command line (before chroot for a root)
    before: list[str]          # the program and its arguments, before erl (inside a root for a root)
    emulator_flags: list[str]  # flags for erl
    pass_fds: tuple[int, ...]  # file descriptors the program writes to
    stderr_fd: int | None = None   # where the node's stderr goes (default: with its stdout, read as it comes)


#: glibc's debugging malloc (2.34 and later): with MALLOC_CHECK_=3 every block gets a check byte
#: past its end, and free() aborts the node when it finds that byte overwritten ("free(): invalid
#: pointer").  A plain validate node runs with it, and every job that loaded the tracer ends by
#: unloading it (tcs_validate_lib:finish/1), so a tracer that writes past a block it frees in its
#: unload callback ends that node at that step every time, not only when the write happens to
#: break glibc's own bookkeeping (ext_schedid, nif_impls/independent).
MALLOC_DEBUG = "libc_malloc_debug.so.0"


def _has_malloc_debug(root: Path) -> bool:
    return any(any(root.glob(f"{lib}/*-linux-gnu*/{MALLOC_DEBUG}")) or (root / lib / MALLOC_DEBUG).exists()
               for lib in ("lib", "usr/lib", "lib64", "usr/lib64"))


@functools.cache
def malloc_check_env(root: Path | None) -> dict[str, str]:
    """Guarantees: the environment that runs a plain node of the OTP in `root` (None: the host) with
    glibc's malloc check, when the host has glibc's debugging malloc and so has the root (chroot
    itself runs on the host's libraries); empty otherwise (another libc: no check, no noise)."""
    if not _has_malloc_debug(Path("/")) or (root is not None and not _has_malloc_debug(root)):
        return {}
    return {"LD_PRELOAD": MALLOC_DEBUG, "MALLOC_CHECK_": "3"}


def proc_namespace(otp: node.Otp) -> list[str]:
    """Guarantees: the command a wrapped node of `otp` starts under so that the tool in it (valgrind,
    a sanitizer's runtime) can read /proc: for a root, a mount namespace of its own with /proc mounted
    in the root (gone when the node ends; the host's mounts are untouched); nothing on the host."""
    return [] if otp.root is None else ["unshare", "--mount", "--pid", "--fork", f"--mount-proc={otp.root / 'proc'}"]


def run(work: Workdir, module: str, job: dict[str, object], step_limit: StepLimit,
        node_limit_s: float, wrap: Wrap | None = None) -> JobRun:
    """Runs `module:main([JobFile])` on a fresh node of work.otp (under wrap's program, if
    given); kills the node when a step takes longer than step_limit or the node longer than
    node_limit_s."""
    number = next(_job_numbers)
    job_file = work.host / f"job-{number}-{module}.terms"
    progress = work.host / f"job-{number}-{module}.progress"
    progress.write_bytes(b"")
    job_file.write_text(protocol.job_file({**job, "progress": protocol.erlang_string(work.node_path(progress))}))
    # a wrapped node has a memory checker of its own (valgrind, a sanitizer's runtime)
    checked_malloc = malloc_check_env(work.otp.root) if wrap is None else {}
    wrap = wrap or Wrap([], [], [], ())
    cmd = [*wrap.outer, *work.otp.erl[:-1], *wrap.before, work.otp.erl[-1], *wrap.emulator_flags,
           "-noshell", "-noinput", "-pa", *map(work.node_path, work.code_path),
           "-run", module, "main", work.node_path(job_file)]
    # A tracer library named without a directory is looked up on the loader
    # path (Clarification C-4); no crash dumps: the STEP lines say more.
    env = dict(os.environ, LD_LIBRARY_PATH=work.node_path(work.tracer_dir), ERL_CRASH_DUMP_SECONDS="0",
               **checked_malloc)
    stderr = subprocess.STDOUT if wrap.stderr_fd is None else wrap.stderr_fd
    proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=stderr, cwd=work.host, env=env, start_new_session=True,
                            pass_fds=wrap.pass_fds)
    assert proc.stdout is not None
    printed: list[bytes] = []
    started = time.monotonic()
    hung: str | None = None
    with protocol.ProgressFile(progress) as lines, selectors.DefaultSelector() as selector:
        reader = _Reader(lines)
        selector.register(proc.stdout, selectors.EVENT_READ)
        while True:
            reader.read()
            now = time.monotonic()
            waits = {"node": started + node_limit_s - now}
            if reader.step_started is not None:
                waits["step"] = reader.step_started + step_limit.seconds - now
            if min(waits.values()) <= 0:
                hung = min(waits, key=waits.__getitem__)
                _kill(proc)
                break
            if selector.select(min(POLL_S, *waits.values())):
                data = os.read(proc.stdout.fileno(), 65536)
                if not data:
                    break
                printed.append(data)
        proc.stdout.close()
        returncode = proc.wait()
        reader.read()
    return _classify(reader, b"".join(printed).decode("utf-8", errors="replace"), returncode,
                     hung, step_limit, node_limit_s)


def _kill(proc: subprocess.Popen) -> None:
    """Ends the node and the OS processes it started (its own process group)."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


def _classify(reader: "_Reader", printed: str, returncode: int, hung: str | None,
              step_limit: StepLimit, node_limit_s: float) -> JobRun:
    ran = JobRun("done", reader.lines, printed, "", reader.last_step)
    if hung == "step":
        ran.status = "timeout"
        ran.detail = f"no answer within the {step_limit.seconds:g} s {step_limit.what} limit; node killed"
    elif hung == "node":
        ran.status = "timeout"
        ran.detail = f"the node did not finish within the {node_limit_s:g} s check limit; node killed"
    elif ran.of("ABORT"):
        ran.status = "crash"
        ran.detail = f"the job could not start: {ran.of('ABORT')[0]}"
    elif "END" not in [kind for kind, _ in ran.lines] or returncode != 0:
        ran.status = "crash"
        ran.detail = f"the node ended without finishing ({_how(returncode)})"
    return ran


def _how(returncode: int) -> str:
    if returncode < 0:
        try:
            name = signal.Signals(-returncode).name
        except ValueError:
            name = f"signal {-returncode}"
        return f"killed by {name}"
    return f"exit status {returncode}"


class _Reader:
    """Follows the progress file (protocol.ProgressFile) and the step under way."""

    def __init__(self, progress: protocol.ProgressFile) -> None:
        self.progress = progress
        self.lines: list[tuple[str, str]] = []
        self.step_started: float | None = None
        self.last_step: str | None = None

    def read(self) -> None:
        for kind, rest in self.progress.read():
            self.lines.append((kind, rest))
            # A step ends when the node says anything more.
            if kind == "STEP":
                self.step_started = time.monotonic()
                self.last_step = rest
            else:
                self.step_started = None
