"""The corpus: case files, their metadata and plans from the model, and running one case live."""
from __future__ import annotations

import contextlib
import fnmatch
import functools
import hashlib
import json
import os
import shutil
import signal
import subprocess
import tempfile
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

from . import diff, expectations, node, recorder, release, stream
from .layout import Layout, default_layout  # noqa: F401  (the corpus API names them)
from .results import CaseResult


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
    desc: str = ""
    peer_seq_tracer: str | None = None  # the peer node's seq tracer process (DIST-SEQ-TRACER)
    tries: int = 1            # runs where its release may crash, until the crash shows (run_cases)


class ModelError(Exception):
    """The model rejected a case (its message names FILE:LINE:COL)."""


def model(layout: Layout, *args: str) -> str:
    """Runs tcsref; returns stdout, raises ModelError with its stderr on failure (saying so when it crashed)."""
    done = subprocess.run([str(layout.tcsref), *args], capture_output=True, text=True, errors="replace")
    if crashed := model_crash(done.returncode, args):
        raise ModelError(crashed)
    if done.returncode != 0:
        raise ModelError(done.stderr.strip() or f"tcsref {' '.join(args)}: exit {done.returncode}")
    return done.stdout


def model_batch(layout: Layout, requests: Sequence[Sequence[str]]) -> list[tuple[int, str]]:
    """What tcsref answers to each request (["sim", PATH, "--explain"], ["plan", PATH], ["meta", PATH]),
    in order, as (exit status, output or error message), from one `tcsref batch` process: starting tcsref
    costs far more than most cases take. Requests the batch left unanswered (it crashed) are run one by one,
    so that a crash is reported for the case that causes it (ModelError from model)."""
    if not requests:
        return []
    done = subprocess.run([str(layout.tcsref), "batch"], capture_output=True,
                          input="".join(" ".join(r) + "\n" for r in requests).encode())
    answers: list[tuple[int, str]] = []
    out, pos = done.stdout, 0
    while len(answers) < len(requests) and (end := out.find(b"\n", pos)) >= 0:
        head = out[pos:end].split()
        if len(head) != 3 or head[0] != b"tcsref-batch" or end + 1 + int(head[2]) > len(out):
            break
        status, text = int(head[1]), out[end + 1:end + 1 + int(head[2])].decode(errors="replace")
        answers.append((status, text if status == 0 else text.strip()))
        pos = end + 1 + int(head[2])
    for request in requests[len(answers):]:
        try:
            answers.append((0, model(layout, *request)))
        except ModelError as why:
            answers.append((2, str(why)))
    return answers


def model_crash(returncode: int, args: Sequence[str]) -> str | None:
    """What to say when tcsref ended by a signal (a bug of the model, whatever its input); None otherwise."""
    if returncode >= 0:
        return None
    try:
        name = f" ({signal.Signals(-returncode).name})"
    except ValueError:
        name = ""
    return (f"the model crashed: tcsref {' '.join(args)} was killed by signal {-returncode}{name}. "
            "This is a bug of the model (ref/), not of the case or of golden/: please report it with the case")


def case_paths(layout: Layout, pattern: str = "*") -> list[Path]:
    """The case files of the tree cases/<area>/ whose id matches the shell pattern, sorted by id (hidden
    files and directories left out, as `tcsref golden` leaves them); ModelError when two files of the
    tree have one id, since golden/ and the expectations are keyed by id."""
    paths = sorted((p for p in layout.cases.rglob("*.tcs")
                    if not any(part.startswith(".") for part in p.relative_to(layout.cases).parts)),
                   key=lambda p: (p.name, p))
    if twins := [f"{a} and {b}" for a, b in zip(paths, paths[1:]) if a.name == b.name]:
        raise ModelError("; ".join(twins) + ": two cases with one id (a case id is unique across the tree)")
    return [p for p in paths if fnmatch.fnmatchcase(p.stem, pattern)]


def model_sources(layout: Layout) -> dict[str, str]:
    """The reference model's C sources, keyed "ref/<layer>/<file>.c", for checking the rule catalogue."""
    ref = layout.repo / "ref"
    return {f"ref/{path.relative_to(ref).as_posix()}": path.read_text() for path in sorted(ref.rglob("*.c"))
            if path.parent.name != "tests"}


def load_case(layout: Layout, path: Path) -> Case:
    """The case's metadata, as the model parsed it."""
    return case_from_meta(path, model(layout, "meta", str(path)))


def load_cases(layout: Layout, paths: list[Path]) -> list[Case]:
    """The metadata of many cases, in order (`tcsref meta`, cached per build: model_each)."""
    return [case_from_meta(path, meta) for path, meta in zip(paths, model_each(layout, paths, "meta"))]


def model_each(layout: Layout, paths: list[Path], command: str, *flags: str) -> list[str]:
    """What `tcsref COMMAND PATH FLAGS...` prints for each path, in order: from the build's
    cache where the model and the case file are unchanged, else from the model (model_batch).

    The cache (build/model-cache/COMMAND[FLAGS].json) is keyed by a digest of the tcsref
    binary, and each entry by a digest of the case file, so it never answers for another
    model or case."""
    cache_path = layout.build / "model-cache" / f"{'_'.join([command, *flags]).replace('-', '')}.json"
    model_digest = hashlib.sha256(layout.tcsref.read_bytes()).hexdigest()
    try:
        cache = json.loads(cache_path.read_text())
    except (OSError, ValueError):
        cache = {}
    known: dict[str, str] = cache.get("entries", {}) if cache.get("model") == model_digest else {}
    digests = {path: hashlib.sha256(path.read_bytes()).hexdigest() for path in paths}
    missing = [path for path in paths if digests[path] not in known]
    for path, (status, out) in zip(missing, model_batch(layout, [[command, str(p), *flags] for p in missing])):
        if status != 0:
            raise ModelError(out)
        known[digests[path]] = out
    if missing:
        cache_path.parent.mkdir(exist_ok=True)
        partial = cache_path.with_name(f".{cache_path.name}.{os.getpid()}")
        partial.write_text(json.dumps({"model": model_digest, "entries": known}))
        partial.replace(cache_path)
    return [known[digests[path]] for path in paths]


def case_from_meta(path: Path, meta_json: str) -> Case:
    """A case from what `tcsref meta` printed for it (PROTOCOLS.md, section 1)."""
    meta = json.loads(meta_json)
    sessions = [Session(s["name"], s["tracer"], s.get("callbacks", [])) for s in meta.get("sessions", [])]
    return Case(path, meta["id"], meta["rules"], int(meta["otp"]), meta.get("features", []),
                meta["tracer"], meta.get("callbacks", []), sessions, meta.get("desc", ""),
                meta.get("peer_seq_tracer"), int(meta.get("tries", 1)))


def observable_kinds(case: Case) -> frozenset[str]:
    """The line kinds this case's tracers let the live side observe: callback lines from a
    recorder, msg lines from the example tracer, from process tracers (trace sessions) and from
    the peer node's seq tracer (DIST-SEQ-TRACER)."""
    tracers = {case.tracer} | {s.tracer for s in case.sessions}
    kinds = set(diff.DEFAULT_OBSERVABLE if "recorder" in tracers else diff.MSG_TRACER_OBSERVABLE)
    if tracers & {"erl_msg_tracer", "process"} or case.peer_seq_tracer:
        kinds |= diff.MSG_TRACER_OBSERVABLE
    return frozenset(kinds)


def hidden_states(case: Case) -> frozenset[str]:
    """The tracer states whose callback lines the live side cannot see: those of the example
    tracer, which reveals only the messages it sends; as the legacy tracer it is also the meta
    tracer of a `meta` pattern, with the state `<meta>`."""
    states = {"<tracer>", "<meta>"} if case.tracer == "erl_msg_tracer" else set()
    return frozenset(states | {f"<{s.name}>" for s in case.sessions if s.tracer == "erl_msg_tracer"})


def visible(lines: list[stream.Line], hidden: frozenset[str]) -> list[stream.Line]:
    """The lines without the callback lines of hidden tracer states."""
    return stream.filter_lines(lines, lambda ln: not (ln.kind in ("enabled", "trace") and ln.state in hidden))


def tracer_library(layout: Layout, case: Case, erts_include: Path) -> tuple[str, Path]:
    """The tracer module and its NIF library path (without .so) for a case."""
    if case.tracer == "erl_msg_tracer":
        return "erl_msg_tracer", layout.nifs / "erl_msg_tracer"
    return recorder.module_name(case.callbacks), recorder_library(layout, case.callbacks, erts_include)


def recorder_library(layout: Layout, callbacks: list[str], erts_include: Path) -> Path:
    """The recorder variant with these callbacks, built if needed (path without .so)."""
    source = layout.repo / "nif_impls" / "recorder" / "tcs_recorder.c"
    return recorder.build_variant(source, layout.generated, layout.build / "recorders", erts_include, callbacks)


def session_tracers(layout: Layout, case: Case, erts_include: Path) -> tuple[node.SessionTracer, ...]:
    """The recorder variant of each recorder session of a case, built if needed."""
    return tuple(node.SessionTracer(s.name, recorder.module_name(s.callbacks),
                                    recorder_library(layout, s.callbacks, erts_include))
                 for s in case.sessions if s.tracer == "recorder")


def runner_beams(layout: Layout, otp: node.Otp) -> Path:
    """The runner's modules as `otp`'s own compiler builds them, cached per release and sources.

    OTP 25 beams do load on 27 and 29 (tried), but the traced fixture
    tcs_target must be what the release's own compiler makes of it, as it is
    for a team that upgrades. The directory is named after a digest of the
    sources and made whole by a rename, so runs side by side never see a
    half-compiled one."""
    if otp.root is None:
        return layout.beams  # CMake compiled them with the host's erlc
    sources = sorted((layout.repo / "driver" / "runner").glob("*.erl")) + [
        layout.repo / "nif_impls" / "erl_msg_tracer" / "erl_msg_tracer.erl"]
    header = layout.generated / "tcs_tags.hrl"   # the tag table some of them include
    digest = hashlib.sha256(b"".join(p.name.encode() + b"\0" + p.read_bytes()
                                     for p in [*sources, header])).hexdigest()
    out = layout.build / f"beam-otp{otp.slug}-{digest[:16]}"
    if out.is_dir():
        return out
    with otp.workspace() as ws:
        (ws.host / "beam").mkdir()
        cmd = otp.tool("erlc") + ["-I", str(ws.place(header).parent), "-o", str(ws.inside / "beam"),
                                  *(str(ws.place(p)) for p in sources)]
        done = subprocess.run(cmd, capture_output=True, text=True, stdin=subprocess.DEVNULL)
        if done.returncode != 0:
            raise recorder.BuildError(f"compiling the runner with OTP {otp.name}'s erlc: "
                                      f"{(done.stdout + done.stderr).strip()}")
        partial = Path(tempfile.mkdtemp(prefix=f".{out.name}-", dir=layout.build))
        shutil.copytree(ws.host / "beam", partial, dirs_exist_ok=True)
    try:
        partial.rename(out)
    except OSError:  # another run made it meanwhile
        shutil.rmtree(partial)
    for stale in layout.build.glob(f"beam-otp{otp.slug}-{'?' * 16}"):
        if stale != out:
            shutil.rmtree(stale, ignore_errors=True)
    return out


def skip_reason(case: Case, release: int) -> str | None:
    """Why a case does not apply to an OTP release, in words; None when it does."""
    if release >= case.otp:
        return None
    needs = ", ".join(FEATURE_WORDS[f] for f in case.features if f in FEATURE_WORDS)
    return f"needs OTP >= {case.otp}" + (f": {needs}" if needs else "") + f"; this node is OTP {release}"


#: Feature tags that exist only from some OTP release on, in words.
FEATURE_WORDS: dict[str, str] = {"sessions": "trace sessions (the trace module)",
                                  "system_monitor": "system monitoring in a session (trace:system/3)",
                                  "call_memory": "call_memory"}


def job(layout: Layout, case: Case, erts_include: Path, plan: str | None = None) -> node.Job:
    """What a node needs to replay a case: its plan (`tcsref plan`, unless given) and its tracer."""
    module, lib = tracer_library(layout, case, erts_include)
    return node.Job(plan if plan is not None else model(layout, "plan", str(case.path)), module, lib,
                    session_tracers(layout, case, erts_include))


def compare(case: Case, golden: list[stream.Line], live: list[stream.Line], *, strict: bool) -> diff.Comparison:
    """A case's golden and live streams compared as a run compares them: its hidden tracer states
    left out, only the line kinds its tracers let the live side observe."""
    hidden = hidden_states(case)
    return diff.compare(visible(golden, hidden), visible(live, hidden), strict=strict,
                        observable=observable_kinds(case))


def judge(layout: Layout, case: Case, otp: node.Otp, ran: node.NodeRun, *, strict: bool,
          golden: list[stream.Line] | None = None, partial: bool = False) -> CaseResult:
    """A node's run of a case compared with its golden stream (by default golden/<id>.stream).
    With `partial`, the lines of a node that did not finish are compared too (a crash leaves those
    of the steps before the last one it started when the plan has step_lines: PROTOCOLS.md, section 5).

    A live line the stream parser cannot read makes the case a crash with the
    line as evidence: one odd line never ends a run nor loses the others' results."""
    if golden is None:
        golden_path = layout.golden / f"{case.id}.stream"
        golden = stream.parse_stream(golden_path.read_text(), str(golden_path))
    try:
        live = stream.parse_live_stream("\n".join(ran.lines), f"live {case.id}")
    except stream.StreamError as why:
        return CaseResult(case.id, "crash", case.rules, otp.name,
                          f"the harness printed a line the stream parser cannot read: {why}\n"
                          + node.tail("\n".join(ran.lines)), [g.text() for g in golden], list(ran.lines))
    texts = ([g.text() for g in golden], [line.text() for line in live])
    if ran.status != "done" and not partial:
        return CaseResult(case.id, ran.status, case.rules, otp.name, ran.detail, *texts)
    comparison = compare(case, golden, live, strict=strict)
    if comparison.agree:
        return CaseResult(case.id, "pass", case.rules, otp.name, "", *texts)
    changed = [text for group in comparison.differing() for text in diff.diff_lines(group.golden, group.live)
               if text[0] in "+-"]
    return CaseResult(case.id, "fail", case.rules, otp.name, comparison.render(), *texts, changed=changed)


@functools.cache
def deviations(layout: Layout) -> tuple[release.Deviation, ...]:
    """The deviations the model predicts releases to have (`tcsref deviations`), read once per layout."""
    return release.deviations(model(layout, "deviations"))


def by_prediction(layout: Layout, case: Case, otp: node.Otp, ran: node.NodeRun, result: CaseResult, *,
                  strict: bool) -> CaseResult:
    """A disagreement or crash checked against the release's own prediction (`tcsref sim --release N`,
    where a clarification defines how N deviates: release.py): a `deviation` when it is exactly
    what the prediction says, else unchanged."""
    if result.status not in ("fail", "crash"):
        return result
    number = str(otp.release)

    def sim(*extra: str) -> str | None:
        done = subprocess.run([str(layout.tcsref), "sim", str(case.path), "--release", number, *extra],
                              capture_output=True, text=True, errors="replace")
        return done.stdout if done.returncode == 0 else None

    def against(text: str) -> CaseResult:
        golden = stream.parse_stream(text, f"{case.path} (OTP {number})")
        return judge(layout, case, otp, ran, strict=strict, golden=golden, partial=True)

    prediction = sim()
    if prediction is None:
        return result
    return release.explain(result, prediction, deviations(layout), against, lambda step: sim("--crash-at", str(step)))


def judged(layout: Layout, case: Case, otp: node.Otp, ran: node.NodeRun, expected: expectations.Expectation | None,
           *, strict: bool, golden: list[stream.Line] | None = None) -> CaseResult:
    """A node's run of a scenario as every command judges it: against its golden stream, then, for any
    scenario (in cases/ or not), against the release's own prediction (`tcsref sim --release N`): a
    difference that is exactly what a clarification predicts for the release is a `deviation` naming it.
    An expectations entry judges only what the model cannot predict: `fail`, `crash` or `timeout`
    entries (test_fuzz_release checks that none restates a prediction), and `predicted` entries,
    whose prediction names a range (C-92); a run that does not crash although a `predicted` entry's
    prediction says it must is a stale expectation."""
    result = judge(layout, case, otp, ran, strict=strict, golden=golden)
    if expected is not None and expected.status != "predicted":
        return expectations.apply(result, expected)
    result = by_prediction(layout, case, otp, ran, result, strict=strict)
    if expected is not None and result.status == "pass" and any(n.crash for n in release.notes(
            model(layout, "sim", str(case.path), "--release", str(otp.release)), deviations(layout))):
        return expectations.stale(result, expected)
    return expectations.apply(result, expected)


def host_include() -> Path:
    """The host OTP's NIF headers: every tracer library is built against them, for every release (BRIEF)."""
    return node.probe_local()[2]


def check_expectations(layout: Layout, otps: list[str]) -> None:
    """Raises ExpectationError when a release's expectations file is malformed or names an unknown case."""
    known = {path.stem for path in case_paths(layout)}
    for otp in otps:
        if problems := expectations.unknown_cases(expectations.load(expectations.path_for(layout.expectations, otp)),
                                                  known):
            raise expectations.ExpectationError("\n".join(problems))


#: Nodes side by side: one per core, at most two (the suite's machine has two).
WORKERS: Final[int] = max(1, min(2, os.cpu_count() or 1))


def run_cases(layout: Layout, cases: list[Case], otp: node.Otp, erts_include: Path,
              *, strict: bool = False, per_node: int = 0, workers: int = WORKERS) -> Iterator[CaseResult]:
    """Replays the cases on nodes of `otp`, `workers` nodes side by side, several cases per node (at
    most `per_node`, 0: no limit), and
    judges each against its golden stream and the release's expectations; yields results in order.

    A case that disagrees (beyond its documented expectation) in a node shared with earlier cases is replayed in a
    fresh node, and that run is its result: what an earlier case left behind
    never decides one.  Nor does it hide a crash the release is known for: a case whose release's own
    prediction says its node crashes, or may crash (a race of a present OTP bug), runs in a node of its
    own, as `./tcs try` runs it, and a crash there ends no other case's node.  Whether such a race
    shows still depends on the machine (counters_reset_busy_gh8835 on 25.2.3, erlang/otp#8835,
    crashed in 14 of 14 `./tcs try` runs and in 5 of 7 whole-corpus runs in shared nodes, and in 3 of 5
    whole-corpus runs in its own node, at a load average of 6 to 8): a case of a race that says
    `tries N` gets up to N such runs where its release may crash (race_runs)."""
    expected = expectations.load(expectations.path_for(layout.expectations, str(otp.release)))
    beams = runner_beams(layout, otp)
    gate = layout.nifs / "tcs_gate"
    runnable = [c for c in cases if skip_reason(c, otp.release) is None]
    plans = model_each(layout, [c.path for c in runnable], "plan")
    jobs = {c.id: job(layout, c, erts_include, plan) for c, plan in zip(runnable, plans)}
    # the cases whose node may die, and how many runs each gets (1 unless its release may crash: a race)
    own_node = {c.id: (c.tries if crash == "may-crash" else 1) for c, plan in zip(runnable, plans)
                if (crash := node_crash_predicted(layout, c, otp, plan))}
    shared = [j for case_id, j in jobs.items() if case_id not in own_node]
    # closed explicitly: a run interrupted between two cases (Ctrl-C) kills its node at once
    with contextlib.closing(node.run_jobs_side_by_side(otp, shared, beams, gate,
                                                            per_node=per_node, workers=workers)) as runs:
        for case in cases:
            reason = skip_reason(case, otp.release)
            if reason is not None:
                result = CaseResult(case.id, "skip", case.rules, otp.name, reason)
            elif case.id in own_node:
                result = race_runs(own_node[case.id], lambda: judged(
                    layout, case, otp, node.run_alone(otp, jobs[case.id], beams, gate), expected.get(case.id),
                    strict=strict))
            else:
                ran = next(runs)
                result = judged(layout, case, otp, ran, expected.get(case.id), strict=strict)
                if result.status not in ("pass", "deviation") and ran.shared:
                    alone = node.run_alone(otp, jobs[case.id], beams, gate)
                    shared, result = result, judged(layout, case, otp, alone, expected.get(case.id), strict=strict)
                    result.rerun_alone, result.shared_run = True, shared
            yield result


def node_crash_predicted(layout: Layout, case: Case, otp: node.Otp, plan: str) -> str | None:
    """Guarantees: "crash" when the release's own prediction (`tcsref sim --release N`) has the case's node
    crash on otp, "may-crash" when it only may (a race), None when neither; asked of the model only for a
    plan with step lines, which it writes wherever some release's node may die during a step (PROTOCOLS.md,
    section 2)."""
    if "{step_lines, true}." not in plan:
        return None
    notes = release.notes(model(layout, "sim", str(case.path), "--release", str(otp.release)), deviations(layout))
    return "crash" if any(n.crash for n in notes) else "may-crash" if any(n.may_crash for n in notes) else None


def race_runs(tries: int, run: Callable[[], CaseResult]) -> CaseResult:
    """Guarantees: the first of at most `tries` judged runs that is not a pass (the crash the release may
    show came, or anything else that is not an agreement), else the last pass; its `tries` says how many
    runs were made, and its detail says so when there were more than one. A run that disagrees is never
    run again: only a race that did not show is."""
    for number in range(1, tries + 1):
        result = run()
        if result.status != "pass":
            break
    result.tries = number
    if number > 1 and result.status == "pass":
        result.detail = (f"{number} runs, each in a node of its own: the crash the release's prediction allows "
                         f"did not show in any\n{result.detail}").rstrip("\n")
    elif number > 1:
        result.detail = (f"run {number} of at most {tries}, each in a node of its own (the runs before it "
                         f"passed: the race did not show)\n{result.detail}").rstrip("\n")
    return result


def run_case(layout: Layout, case: Case, otp: node.Otp, erts_include: Path,
             *, strict: bool = False) -> CaseResult:
    """Replays one case on a fresh node of `otp` and judges it."""
    [result] = run_cases(layout, [case], otp, erts_include, strict=strict)
    return result
