"""The corpus: case files, their metadata and plans from the model, and running one case live."""
from __future__ import annotations

import fnmatch
import json
import os
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

from . import diff, node, recorder, stream
from .results import CaseResult


@dataclass(frozen=True)
class Layout:
    """Where the source tree and the build put things."""
    repo: Path
    build: Path

    @property
    def tcsref(self) -> Path:
        return self.build / "tcsref"

    @property
    def beams(self) -> Path:
        return self.build / "beam"

    @property
    def nifs(self) -> Path:
        return self.build / "nif"

    @property
    def cases(self) -> Path:
        return self.repo / "cases"

    @property
    def golden(self) -> Path:
        return self.repo / "golden"


REPO = Path(__file__).resolve().parents[2]


def default_layout() -> Layout:
    """This repository and its build directory ($TCS_BUILD_DIR, default build/)."""
    return Layout(REPO, Path(os.environ.get("TCS_BUILD_DIR", REPO / "build")).resolve())


@dataclass(frozen=True)
class Session:
    """A trace session a case declares: its name (that of its tracer state) and its tracer."""
    name: str
    tracer: str               # recorder | erl_msg_tracer | process
    callbacks: list[str]


@dataclass(frozen=True)
class Case:
    """One scenario file and what the model says about it."""
    path: Path
    id: str
    rules: list[str]
    otp: int
    features: list[str]
    tracer: str
    callbacks: list[str]
    sessions: list[Session] = field(default_factory=list)


class ModelError(Exception):
    """The model rejected a case (its message names FILE:LINE:COL)."""


def model(layout: Layout, *args: str) -> str:
    """Runs tcsref; returns stdout, raises ModelError with its stderr on failure."""
    done = subprocess.run([str(layout.tcsref), *args], capture_output=True, text=True)
    if done.returncode != 0:
        raise ModelError(done.stderr.strip() or f"tcsref {' '.join(args)}: exit {done.returncode}")
    return done.stdout


def case_paths(layout: Layout, pattern: str = "*") -> list[Path]:
    """The case files whose id matches the shell pattern, sorted by id."""
    return sorted(p for p in layout.cases.glob("*.tcs") if fnmatch.fnmatchcase(p.stem, pattern))


def model_sources(layout: Layout) -> dict[str, str]:
    """The reference model's C sources, keyed "ref/<file>.c", for checking the rule catalogue."""
    return {f"ref/{path.name}": path.read_text() for path in sorted((layout.repo / "ref").glob("*.c"))}


def load_case(layout: Layout, path: Path) -> Case:
    """The case's metadata, as the model parsed it."""
    meta = json.loads(model(layout, "meta", str(path)))
    sessions = [Session(s["name"], s["tracer"], s.get("callbacks", [])) for s in meta.get("sessions", [])]
    return Case(path, meta["id"], meta["rules"], int(meta["otp"]), meta.get("features", []),
                meta["tracer"], meta.get("callbacks", []), sessions)


def observable_kinds(case: Case) -> frozenset[str]:
    """The line kinds this case's tracers let the live side observe: callback lines from a
    recorder, msg lines from the example tracer and from process tracers (trace sessions)."""
    tracers = {case.tracer} | {s.tracer for s in case.sessions}
    kinds = set(diff.DEFAULT_OBSERVABLE if "recorder" in tracers else diff.MSG_TRACER_OBSERVABLE)
    if tracers & {"erl_msg_tracer", "process"}:
        kinds |= diff.MSG_TRACER_OBSERVABLE
    return frozenset(kinds)


def hidden_states(case: Case) -> frozenset[str]:
    """The tracer states whose callback lines the live side cannot see: those of the example
    tracer, which reveals only the messages it sends."""
    states = {"<tracer>"} if case.tracer == "erl_msg_tracer" else set()
    return frozenset(states | {f"<{s.name}>" for s in case.sessions if s.tracer == "erl_msg_tracer"})


def visible(lines: list[stream.Line], hidden: frozenset[str]) -> list[stream.Line]:
    """The lines without the callback lines of hidden tracer states."""
    return [ln for ln in lines if not (ln.kind in ("enabled", "trace") and ln.state in hidden)]


def tracer_library(layout: Layout, case: Case, erts_include: Path) -> tuple[str, Path]:
    """The tracer module and its NIF library path (without .so) for a case."""
    if case.tracer == "erl_msg_tracer":
        return "erl_msg_tracer", layout.nifs / "erl_msg_tracer"
    return recorder.module_name(case.callbacks), recorder_library(layout, case.callbacks, erts_include)


def recorder_library(layout: Layout, callbacks: list[str], erts_include: Path) -> Path:
    """The recorder variant with these callbacks, built if needed (path without .so)."""
    source = layout.repo / "nif_impls" / "recorder" / "tcs_recorder.c"
    return recorder.build_variant(source, layout.build / "recorders", erts_include, callbacks)


def session_tracers(layout: Layout, case: Case, erts_include: Path) -> tuple[node.SessionTracer, ...]:
    """The recorder variant of each recorder session of a case, built if needed."""
    return tuple(node.SessionTracer(s.name, recorder.module_name(s.callbacks),
                                    recorder_library(layout, s.callbacks, erts_include))
                 for s in case.sessions if s.tracer == "recorder")


def run_case(layout: Layout, case: Case, otp: node.Otp, otp_release: int, erts_include: Path,
             *, strict: bool = False) -> CaseResult:
    """Replays one case on a fresh node of `otp` and compares with its golden stream."""
    def result(status: str, detail: str = "", golden: list[str] | None = None,
               live: list[str] | None = None) -> CaseResult:
        return CaseResult(case.id, status, case.rules, otp.name, detail, golden or [], live or [])

    if otp_release < case.otp:
        return result("skip", f"needs OTP >= {case.otp}; this node is OTP {otp_release}")
    golden_path = layout.golden / f"{case.id}.stream"
    golden = stream.parse_stream(golden_path.read_text(), str(golden_path))
    module, lib = tracer_library(layout, case, erts_include)
    ran = node.run_plan(otp, model(layout, "plan", str(case.path)), layout.beams,
                        layout.nifs / "tcs_gate", module, lib,
                        session_tracers=session_tracers(layout, case, erts_include))
    live = stream.parse_live_stream("\n".join(ran.lines), f"live {case.id}")
    texts = ([g.text() for g in golden], [line.text() for line in live])
    if ran.status != "done":
        return result(ran.status, ran.detail, *texts)
    hidden = hidden_states(case)
    comparison = diff.compare(visible(golden, hidden), visible(live, hidden), strict=strict,
                              observable=observable_kinds(case))
    if comparison.agree:
        return result("pass", "", *texts)
    return result("fail", comparison.render(), *texts)
