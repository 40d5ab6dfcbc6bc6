"""Runs one case on a live OTP node, each node its own OS process.

A tracer that crashes or hangs ends its node, never the driver: the outcome
says what happened and what the node printed last."""
from __future__ import annotations

import os
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path


@dataclass(frozen=True)
class Otp:
    """How to start nodes of one OTP release."""
    name: str                 # "25", or "local"
    erl: list[str]            # the command that starts erl


@dataclass
class NodeRun:
    """What one live run produced."""
    status: str               # done | crash | timeout
    lines: list[str] = field(default_factory=list)   # stream bodies, no class
    otp_release: str = ""
    detail: str = ""


class NoErlang(Exception):
    """erl is missing or does not start."""


def probe_local() -> tuple[Otp, int, Path]:
    """The host's erl: how to start it, its OTP release, its NIF header directory."""
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


def erlang_term_string(text: str) -> str:
    """Text as an Erlang string literal."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


@dataclass(frozen=True)
class SessionTracer:
    """The recorder variant of one trace session: its module and library (without .so)."""
    session: str
    module: str
    library: Path


def write_job(path: Path, plan: Path, gate_so: Path, tracer_module: str,
              tracer_so: Path, step_timeout_ms: int,
              session_tracers: tuple[SessionTracer, ...] = ()) -> None:
    """Writes the job file tcs_runner reads."""
    sessions = ", ".join(f"{{{s.session}, {s.module}, {erlang_term_string(str(s.library))}}}"
                         for s in session_tracers)
    path.write_text(
        f"{{plan, {erlang_term_string(str(plan))}}}.\n"
        f"{{gate_so, {erlang_term_string(str(gate_so))}}}.\n"
        f"{{tracer_module, {tracer_module}}}.\n"
        f"{{tracer_so, {erlang_term_string(str(tracer_so))}}}.\n"
        f"{{step_timeout_ms, {step_timeout_ms}}}.\n"
        f"{{session_tracers, [{sessions}]}}.\n")


def parse_output(out: str) -> tuple[list[str], dict[str, str]]:
    """The stream bodies and the protocol markers (END, TIMEOUT, OTP, STEP)."""
    lines: list[str] = []
    markers: dict[str, str] = {}
    for raw in out.splitlines():
        if not raw.startswith("TCS "):
            continue
        kind, _, rest = raw[4:].partition(" ")
        if kind == "LINE":
            lines.append(rest)
        else:
            markers[kind] = rest
    return lines, markers


def tail(text: str, count: int = 15) -> str:
    """The last lines of a node's output, for a crash report."""
    return "\n".join(text.strip().splitlines()[-count:])


def run_plan(otp: Otp, plan_text: str, beam_dir: Path, gate_so: Path, tracer_module: str,
             tracer_so: Path, step_timeout_ms: int = 5000, wall_timeout_s: float = 60.0,
             session_tracers: tuple[SessionTracer, ...] = ()) -> NodeRun:
    """Replays one plan on a fresh node and classifies how the node ended."""
    with tempfile.TemporaryDirectory(prefix="tcs-node-") as tmp:
        plan = Path(tmp) / "plan.terms"
        plan.write_text(plan_text)
        job = Path(tmp) / "job.terms"
        write_job(job, plan, gate_so, tracer_module, tracer_so, step_timeout_ms, session_tracers)
        cmd = otp.erl + ["-noshell", "-noinput", "-pa", str(beam_dir),
                         "-run", "tcs_runner", "main", str(job)]
        # The documentation's example tracer loads its library by bare name,
        # which dlopen looks up on the loader path only (Clarification C-4).
        env = dict(os.environ, LD_LIBRARY_PATH=str(tracer_so.parent))
        try:
            done = subprocess.run(cmd, capture_output=True, text=True, timeout=wall_timeout_s,
                                  stdin=subprocess.DEVNULL, cwd=tmp, env=env)
        except subprocess.TimeoutExpired as hung:
            # TimeoutExpired carries the partial output as bytes even in text mode.
            partial = hung.stdout or b""
            out = partial.decode(errors="replace") if isinstance(partial, bytes) else partial
            lines, markers = parse_output(out)
            return NodeRun("timeout", lines, markers.get("OTP", ""),
                           f"node killed after {wall_timeout_s:.0f}s (last step started: "
                           f"{markers.get('STEP', 'none')})\n{tail(out)}")
    lines, markers = parse_output(done.stdout)
    release = markers.get("OTP", "")
    if "TIMEOUT" in markers:
        return NodeRun("timeout", lines, release,
                       f"step {markers['TIMEOUT']} did not finish within {step_timeout_ms} ms")
    if "END" not in markers or done.returncode != 0:
        how = (f"killed by signal {-done.returncode}" if done.returncode < 0
               else f"exit status {done.returncode}")
        return NodeRun("crash", lines, release,
                       f"node ended without finishing ({how}; last step started: "
                       f"{markers.get('STEP', 'none')})\n{tail(done.stdout + done.stderr)}")
    return NodeRun("done", lines, release)
