"""Runs cases on live OTP nodes, each node its own OS process.

A node runs a batch of jobs (driver/runner/tcs_batch.erl), one after another;
job files, markers and progress files are in PROTOCOLS.md (sections 4, 5) and
written and read through tcs_driver.protocol, which validate shares.
A tracer that crashes or hangs ends its node, never the driver: that job's
outcome says what happened and what the node printed last, and the jobs after
it run in a fresh node."""
from __future__ import annotations

import contextlib
import functools
import hashlib
import itertools
import os
import queue
import shutil
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from . import protocol


@dataclass(frozen=True)
class Workspace:
    """A scratch directory that the driver and the node both see.

    `host` is its path on the host, `inside` the same directory as the node
    sees it (they differ when the node runs in a Debian root)."""
    host: Path
    inside: PurePosixPath
    shares_host: bool         # the node sees the host's files where they are

    def place(self, source: Path) -> PurePosixPath:
        """Where the node finds `source` (a file or directory): copied in unless the node shares the host's files."""
        if self.shares_host:
            return PurePosixPath(source.resolve())
        target = self.host / source.name
        if not target.exists():
            if source.is_dir():
                shutil.copytree(source, target)
            else:
                shutil.copy2(source, target)
        return self.inside / source.name

    def write(self, name: str, text: str) -> PurePosixPath:
        """Writes a file into the workspace; returns its path as the node sees it."""
        (self.host / name).write_text(text)
        return self.inside / name


@dataclass(frozen=True)
class Otp:
    """How to start nodes of one OTP release, and where they see files."""
    name: str                 # the release, "25"; "26@/opt/otp/bin/erl" for an installation given by path
    erl: list[str]            # the command that starts erl
    root: Path | None = None  # the Debian root the node runs in (chroot), None for the host

    @property
    def release(self) -> int:
        """The OTP release number."""
        return int(self.name.partition("@")[0])

    @property
    def slug(self) -> str:
        """The name as a file name part: the release, and a digest of the path of an installation given by path."""
        release, at, path = self.name.partition("@")
        return f"{release}-{hashlib.sha256(path.encode()).hexdigest()[:10]}" if at else release

    def tool(self, program: str) -> list[str]:
        """The command that runs another program of this release (erlc), like `erl` does."""
        return [*self.erl[:-1], str(PurePosixPath(self.erl[-1]).with_name(program))]

    @contextmanager
    def workspace(self) -> Iterator[Workspace]:
        """A fresh scratch directory the node can see (in the root's /tmp for a root), removed afterwards."""
        base = self.root / "tmp" if self.root else Path(tempfile.gettempdir())
        host = Path(tempfile.mkdtemp(prefix="tcs-node-", dir=base))
        try:
            inside = PurePosixPath("/tmp", host.name) if self.root else PurePosixPath(host)
            yield Workspace(host, inside, self.root is None)
        finally:
            shutil.rmtree(host, ignore_errors=True)


@dataclass(frozen=True)
class SessionTracer:
    """The recorder variant of one trace session: its module and library (without .so)."""
    session: str
    module: str
    library: Path             # on the host, or as the node sees it in a job file


@dataclass(frozen=True)
class Job:
    """One case for a node: its plan (tcsref plan) and the tracer it replays against."""
    plan: str
    tracer_module: str
    tracer_so: Path           # the library on the host, without '.so'
    session_tracers: tuple[SessionTracer, ...] = ()   # the recorder of each recorder session


@dataclass
class NodeRun:
    """What one live run produced."""
    status: str               # done | crash | timeout | skip (| lost: only inside this module, see run_jobs)
    lines: list[str] = field(default_factory=list)   # stream bodies, no class
    otp_release: str = ""
    detail: str = ""
    shared: bool = False      # other jobs ran before it in the same node
    # it ran in a fresh node because the node before died before an earlier job's output was read
    # (run_jobs): the first job of that node, where shared says it ran after others
    after_loss: bool = False


class NoErlang(Exception):
    """erl is missing or does not start."""


def probe_local() -> tuple[Otp, int, Path]:
    """The host's erl: how to start it, its OTP release, its NIF header directory."""
    return _probe_erl_on(os.environ.get("PATH", ""))


@functools.lru_cache(maxsize=4)
def _probe_erl_on(path: str) -> tuple[Otp, int, Path]:
    """probe_local for one PATH, asked once per process (a node started to answer it: about a second, taken
    twice by every `./tcs run`); a failure is not kept, it raises again."""
    probe = 'io:format("~s ~s", [erlang:system_info(otp_release), code:root_dir()]), halt().'
    try:
        done = subprocess.run(["erl", "-noshell", "-noinput", "-eval", probe],
                              capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired) as why:
        raise NoErlang(f"cannot start erl ({why}); install erlang-nox, or put erl on PATH") from why
    release, _, root = done.stdout.partition(" ")
    if done.returncode != 0 or not release.isdigit():
        raise NoErlang(f"erl does not work: {(done.stdout + done.stderr).strip()[:300]}")
    return Otp(release, ["erl"]), int(release), Path(root) / "usr" / "include"


def job_terms(plan: PurePosixPath, gate_so: PurePosixPath, tracer_module: str,
              tracer_so: PurePosixPath, step_timeout_ms: int,
              session_tracers: tuple[SessionTracer, ...] = ()) -> str:
    """The job file tcs_runner reads (library paths as the node sees them; PROTOCOLS.md, section 4)."""
    sessions = ", ".join(f"{{{s.session}, {s.module}, {protocol.erlang_string(str(s.library))}}}"
                         for s in session_tracers)
    return protocol.job_file({"plan": protocol.erlang_string(str(plan)),
                              "gate_so": protocol.erlang_string(str(gate_so)),
                              "tracer_module": tracer_module,
                              "tracer_so": protocol.erlang_string(str(tracer_so)),
                              "step_timeout_ms": str(step_timeout_ms),
                              "session_tracers": f"[{sessions}]"})


def parse_output(out: str) -> tuple[list[str], dict[str, str]]:
    """The stream bodies and the protocol markers (END, TIMEOUT, SKIP, OTP, STEP)."""
    lines: list[str] = []
    markers: dict[str, str] = {}
    for raw in out.splitlines():
        found = protocol.marker(raw)
        if found is None:
            continue
        kind, rest = found
        if kind == "LINE":
            lines.append(rest)
        else:
            markers[kind] = rest
    return lines, markers


def tail(text: str, count: int = 15) -> str:
    """The last lines of a node's output, for a crash report."""
    return "\n".join(text.strip().splitlines()[-count:])


def run_plan(otp: Otp, plan_text: str, beam_dir: Path, gate_so: Path, tracer_module: str,
             tracer_so: Path, step_timeout_ms: int = 5000, wall_timeout_s: float = 60.0) -> NodeRun:
    """Replays one plan on a fresh node and classifies how the node ended."""
    return run_alone(otp, Job(plan_text, tracer_module, tracer_so), beam_dir, gate_so,
                     step_timeout_ms=step_timeout_ms, wall_timeout_s=wall_timeout_s)


def run_alone(otp: Otp, job: Job, beam_dir: Path, gate_so: Path, *, step_timeout_ms: int = 5000,
              wall_timeout_s: float = 60.0) -> NodeRun:
    """Replays one job on a fresh node of its own."""
    [ran] = run_jobs(otp, [job], beam_dir, gate_so, step_timeout_ms=step_timeout_ms,
                     wall_timeout_s=wall_timeout_s)
    return ran


def run_jobs(otp: Otp, jobs: list[Job], beam_dir: Path, gate_so: Path, *, step_timeout_ms: int = 5000,
             wall_timeout_s: float = 60.0, per_node: int = 0,
             running: set[subprocess.Popen[str]] | None = None) -> Iterator[NodeRun]:
    """Replays the jobs in order, at most `per_node` in one node (0: no limit); yields one result per job.

    A job that crashes or hangs its node, or whose step times out, ends that
    node; the jobs after it go on in a fresh one. `running`, when given, holds
    the node process while it runs (for another thread to kill it)."""
    done, after_loss = 0, False
    while done < len(jobs):
        rest = jobs[done:]
        for ran in _run_node(otp, rest[:per_node] if per_node else rest, beam_dir, gate_so,
                             step_timeout_ms, wall_timeout_s, running):
            ran.after_loss, after_loss = after_loss, False
            if ran.status == "lost":
                # The job finished, but its output died with the node (a later job
                # crashed it): run it again in a node of its own, where nothing follows it;
                # the job that crashed it runs again first in the next node.
                [ran] = _run_node(otp, [jobs[done]], beam_dir, gate_so, step_timeout_ms, wall_timeout_s, running)
                if ran.status == "lost":
                    ran = NodeRun("crash", ran.lines, ran.otp_release,
                                  "the node died after the job's end, before its output was read\n" + ran.detail)
                after_loss = True
            done += 1
            yield ran


def run_jobs_side_by_side(otp: Otp, jobs: list[Job], beam_dir: Path, gate_so: Path, *, workers: int = 2,
                          step_timeout_ms: int = 5000, wall_timeout_s: float = 60.0,
                          per_node: int = 0) -> Iterator[NodeRun]:
    """run_jobs on `workers` nodes at a time (job i goes to node i mod workers); yields one result per job,
    in the jobs' order, as soon as it and those before it are in."""
    if workers <= 1 or len(jobs) <= 1:
        yield from run_jobs(otp, jobs, beam_dir, gate_so, step_timeout_ms=step_timeout_ms,
                            wall_timeout_s=wall_timeout_s, per_node=per_node)
        return
    chunks = [jobs[i::workers] for i in range(workers)]
    results: list[queue.Queue[NodeRun | BaseException]] = [queue.Queue() for _ in chunks]
    stop = threading.Event()
    running: set[subprocess.Popen[str]] = set()

    def work(chunk: list[Job], out: queue.Queue[NodeRun | BaseException]) -> None:
        try:
            # closed when the caller stops early: the node is killed after its current job
            with contextlib.closing(run_jobs(otp, chunk, beam_dir, gate_so, step_timeout_ms=step_timeout_ms,
                                             wall_timeout_s=wall_timeout_s, per_node=per_node,
                                             running=running)) as runs:
                for ran in runs:
                    if stop.is_set():
                        return
                    out.put(ran)
        except BaseException as why:  # handed to the caller, which raises it
            out.put(why)

    threads = [threading.Thread(target=work, args=(c, q), daemon=True) for c, q in zip(chunks, results)]
    for t in threads:
        t.start()
    try:
        for number in range(len(jobs)):
            got = results[number % workers].get()
            if isinstance(got, BaseException):
                raise got
            yield got
    finally:
        stop.set()
        _end_nodes(running, threads)


def _end_nodes(running: set[subprocess.Popen[str]], threads: list[threading.Thread]) -> None:
    """Kills the nodes the worker threads still run and waits for the threads to clean up. A caller that
    stops early (Ctrl-C) may exit at once, and daemon threads die unfinished with the interpreter: their
    nodes were left running with no parent, each with the rest of its jobs (seen after the Ctrl-C test)."""
    for _ in range(3):  # a worker may have started its next node meanwhile
        for proc in list(running):
            proc.kill()
        for t in threads:
            t.join(timeout=5.0)
        if not any(t.is_alive() for t in threads):
            return


#: erl flags: no busy waiting of the normal, dirty CPU and dirty I/O schedulers.
NO_BUSY_WAIT: tuple[str, ...] = ("+sbwt", "none", "+sbwtdcpu", "none", "+sbwtdio", "none")


def _run_node(otp: Otp, jobs: list[Job], beam_dir: Path, gate_so: Path, step_timeout_ms: int,
              wall_timeout_s: float, running: set[subprocess.Popen[str]] | None = None) -> Iterator[NodeRun]:
    """Runs jobs in one node until they are done or the node ends; yields the results of a prefix, at least one.
    The node process is in `running` (when given) while it runs."""
    with otp.workspace() as ws:
        gate = ws.place(gate_so.with_suffix(".so")).with_suffix("")
        ws.place(gate_so.with_name("tcs_drv.so"))  # the suite's driver, loaded from the gate's directory
        ws.place(gate_so.with_name("tcs_nif.so"))  # the NIF fixture's library, likewise
        job_files, lib_dirs = [], []
        for number, job in enumerate(jobs, 1):
            plan = ws.write(f"plan-{number}.terms", job.plan)
            lib = ws.place(job.tracer_so.with_suffix(".so"))
            lib_dirs.append(str(lib.parent))
            sessions = tuple(SessionTracer(s.session, s.module, Path(ws.place(s.library.with_suffix(".so")).with_suffix("")))
                             for s in job.session_tracers)
            job_files.append(str(ws.write(f"job-{number}.terms", job_terms(
                plan, gate, job.tracer_module, lib.with_suffix(""), step_timeout_ms, sessions))))
        # Idle schedulers sleep at once instead of spinning: on a machine of two busy cores, the
        # spinning threads of two nodes side by side took the CPU their working threads needed
        # (a batch of 27 fuzz scenarios: half the wall time, a third less CPU time without it).
        cmd = otp.erl + [*NO_BUSY_WAIT, "-noshell", "-noinput", "-pa", str(ws.place(beam_dir)),
                         "-run", "tcs_batch", "main", *job_files]
        # The documentation's example tracer loads its library by bare name,
        # which dlopen looks up on the loader path only (Clarification C-4).
        progress = ws.write("progress", "")
        env = dict(os.environ, LD_LIBRARY_PATH=":".join(dict.fromkeys(lib_dirs)),
                   ERL_CRASH_DUMP=str(ws.inside / "erl_crash.dump"), TCS_PROGRESS=str(progress))
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                stdin=subprocess.DEVNULL, cwd=ws.host, env=env, errors="replace")
        if running is not None:
            running.add(proc)
        try:
            yield from _follow(proc, len(jobs), step_timeout_ms, wall_timeout_s, ws.host / "progress")
        finally:
            if proc.poll() is None:
                proc.kill()
            proc.wait()
            if running is not None:
                running.discard(proc)
            assert proc.stdout is not None
            proc.stdout.close()


def _reader(proc: subprocess.Popen[str], lines: queue.Queue[str | None]) -> None:
    """Hands the node's output lines over one by one; None at the end."""
    assert proc.stdout is not None
    for line in proc.stdout:
        lines.put(line.rstrip("\n"))
    lines.put(None)


def job_progress(progress_text: str, number: int) -> list[str]:
    """The marker lines job `number` (from 1) of a node wrote to its progress file (PROTOCOLS.md, section 5)."""
    lines = progress_text.splitlines()
    starts = [i for i, line in enumerate(lines) if protocol.marker(line) == ("JOB", str(number))]
    if not starts:
        return []
    after = lines[starts[0] + 1:]
    return list(itertools.takewhile(lambda line: (protocol.marker(line) or ("",))[0] != "JOB", after))


def _follow(proc: subprocess.Popen[str], count: int, step_timeout_ms: int,
            wall_timeout_s: float, progress: Path) -> Iterator[NodeRun]:
    """Reads a batch node's output job by job, each job given `wall_timeout_s` (node start included).

    When the node dies or is killed, the markers its standard output lost (it is
    written asynchronously) are taken from the progress file the node wrote
    synchronously."""
    lines: queue.Queue[str | None] = queue.Queue()
    threading.Thread(target=_reader, args=(proc, lines), daemon=True).start()
    finished = 0
    out: list[str] = []       # the current job's output (before the first job: the node's start)
    started = False           # the current job has begun
    deadline = time.monotonic() + wall_timeout_s

    def job_over(how: str) -> NodeRun:
        lines = out
        if how in ("ended", "killed"):
            written = progress.read_text(errors="replace") if progress.exists() else ""
            lines = out + [m for m in job_progress(written, finished + 1) if m not in out]
        text = "\n".join(lines)
        found, markers = parse_output(text)
        # the evidence of how it ended: the stream lines a node with step_lines left are in `found`
        text = "\n".join(line for line in lines if not line.startswith("TCS LINE "))
        release, step, shared = markers.get("OTP", ""), markers.get("STEP", "none"), finished > 0
        stuck = [line.removeprefix("TCS ") for line in lines if line.startswith("TCS STUCK ")]
        if "LATE" in markers:  # a timed wait's message sent too late (tcs_runner, RECV-TIMED-WAIT)
            waited, sent = markers["LATE"].split()
            return NodeRun("timeout", found, release,
                           f"step {markers.get('TIMEOUT', step)}: the message was sent {sent} ms after the wait of "
                           f"{waited} ms was asked for, so it may have arrived after the wait's timeout: the "
                           "machine was too slow for this step", shared)
        if stuck:  # tcs_watchdog's report: what overran, and where each process of the job was
            span, limit = markers.get("OVERRUN", f"settled {2 * step_timeout_ms}").split()
            what = "with its settling took more than" if span == "settled" else "did not finish within"
            return NodeRun("timeout", found, release,
                           f"step {markers.get('TIMEOUT', step)} {what} {limit} ms; the job's processes then:\n"
                           + "\n".join(stuck), shared)
        if how == "killed":
            return NodeRun("timeout", found, release, f"node killed after {wall_timeout_s:.0f}s "
                           f"(last step started: {step})\n{tail(text)}", shared)
        if "SKIP" in markers and "END" in markers:  # the job could not run here (a peer node: DIST-PEER)
            return NodeRun("skip", found, release, markers["SKIP"], shared)
        if "TIMEOUT" in markers:
            return NodeRun("timeout", found, release,
                           f"step {markers['TIMEOUT']} did not finish within {step_timeout_ms} ms", shared)
        if how == "ended" and "TCS END" not in out and "TCS END" in lines:
            return NodeRun("lost", found, release, tail(text), shared)
        if how == "ended":
            code = proc.wait()
            status = f"killed by signal {-code}" if code < 0 else f"exit status {code}"
            return NodeRun("crash", found, release, f"node ended without finishing ({status}; last step "
                           f"started: {step})\n{tail(text)}", shared)
        if "END" not in markers:
            return NodeRun("crash", found, release, f"the job ended without finishing (last step started: "
                           f"{step})\n{tail(text)}", shared)
        return NodeRun("done", found, release, "", shared)

    while finished < count:
        try:
            line = lines.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            proc.kill()
            yield job_over("killed")
            return
        if line is None:
            yield job_over("ended")
            return
        if line.startswith("TCS JOB ") or line == "TCS BATCH END":
            if started:
                yield job_over("next")
                finished += 1
            out, started, deadline = [], True, time.monotonic() + wall_timeout_s
            continue
        out.append(line)
        # After a step timed out the node holds a stuck process: it runs no other job.
        if line == "TCS END" and any(o.startswith("TCS TIMEOUT ") for o in out):
            yield job_over("next")
            return
