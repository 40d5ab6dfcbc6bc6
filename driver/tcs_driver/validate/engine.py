"""Runs the checks of ./tcs validate on live nodes and judges what they saw.

Every check runs in nodes of its own (jobs.run), so a crash or a hang in one
check ends that check's node only and the other checks still run.  The order:
  1. shape, alone: it checks the input and says whether the runtime accepts
     the tracer at all; the other checks need that;
  2. enabled_answers, trace_accepts, dead_state, live, in parallel, then
     enabled_pure on the inputs enabled_answers saw answered properly and
     tracee_untouched on the inputs both accepted: each property is judged
     by one check, so one defect fails one check;
  3. stress (which leak judges too), alone: it loads every scheduler; then
     cost, alone, so that no other node disturbs the benchmark;
  4. memory (--sanitize only), alone: its node loads an ASan+UBSan build of the
     tracer (asan.py, with --src) or runs under valgrind memcheck (sanitize.py),
     many times slower than a plain node.
The direct-call checks go on after a crash or a hang in a fresh node, leaving
out the callback/tag/tracee that ended the last one, up to MAX_NODES nodes.
Each job that loaded the tracer ends with the step `unload` (its library's
unload callback), in a plain node under glibc's malloc check (jobs.py)."""
from __future__ import annotations

import os
import shutil
import time
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Callable

from .. import node
from ..protocol import erlang_string
from . import asan, jobs, loading, sanitize, tsan
from .checks import (ALL_CHECK_NAMES, CHECK_NAMES, SANITIZE_CHECK, Bench, CheckResult, Limits, Stress, callbacks,
                     looks_like_callback, runtime_callbacks)
from .inputs import BadInput, Tracer
from .releases import Workdir, workdir
from .report import first_line

#: Nodes a direct-call check may use when callbacks crash or hang.
MAX_NODES = 3
#: Findings listed in full; the rest are counted.
SHOWN = 8

#: The event categories each live phase produces (tcs_validate_live).
LIVE_PHASES: dict[str, list[str]] = {
    "send": ["send"], "receive": ["receive"], "call": ["call"], "procs": ["procs"],
    "running_procs": ["running_procs"], "garbage_collection": ["garbage_collection"],
    "ports": ["ports", "send", "receive", "running_ports"], "seq_trace": [],
}


#: A runtime defect that concerns tracers with trace_call/5, not a fault of theirs.
META_TRACE_CALL = (
    "note: trace_call/5 is a NIF, and OTP's meta tracing (erlang:trace_pattern/3 with "
    "{meta, Module, State}) calls the trace_call/5 NIF with 3 arguments where it means "
    "enabled_call/3 (erl_trace.c, erts_call_trace): the node crashes (seen on OTP 25.2.3); "
    "do not use this tracer as a meta tracer")


@dataclass(frozen=True)
class Options:
    checks: tuple[str, ...] = CHECK_NAMES     # shape always runs
    limits: Limits = Limits()
    bench: Bench = Bench()
    parallel: int = 2
    stress: Stress = Stress()
    heap_nif: Path | None = None               # tcs_validate_heap.so: malloc's count for leak (None: not read)


@dataclass(frozen=True)
class Shape:
    """What the shape job found out about the tracer."""
    loaded: bool
    accepted: bool
    nifs: frozenset[tuple[str, int]]


def validate(tracer: Tracer, otps: list[node.Otp], runner_beams: Callable[[node.Otp], Path], options: Options,
             progress: Callable[[str], None]) -> list[CheckResult]:
    """Every selected check of the tracer on every release, in ALL_CHECK_NAMES order."""
    results: list[CheckResult] = []
    for otp in otps:
        with workdir(otp) as work:
            results += _validate_on(work, tracer, runner_beams(otp), options, progress)
    return results


def _validate_on(work: Workdir, tracer: Tracer, runner_beams: Path, options: Options,
                 progress: Callable[[str], None]) -> list[CheckResult]:
    for beam in runner_beams.glob("tcs_validate_*.beam"):
        shutil.copy(beam, work.beams)
    # The library under its own name and under the module's, the name most
    # tracers load it by.
    if tracer.nif is not None:
        for name in {tracer.nif.name, f"{tracer.module}.so"}:
            shutil.copy(tracer.nif, work.tracer_dir / name)
    copies = {app: work.add_application(app) for app in tracer.apps}
    home = tracer.beam_app()
    if home is not None:
        beam = copies[home] / "ebin" / tracer.beam.name
    else:
        beam = work.tracer_dir / f"{tracer.module}.beam"
        shutil.copy(tracer.beam, beam)
    job = {"module": tracer.module,
           "beam": erlang_string(work.node_path(beam)),
           "beam_given_as": erlang_string(tracer.given_as),
           "dir": erlang_string(work.node_path(work.tracer_dir)),
           "state": "default" if tracer.state is None else erlang_string(tracer.state)}
    run = _Runner(work, job, options, progress)
    shape_result, shape = run.shape(tracer)
    results = {"shape": shape_result}
    wanted = [c for c in ALL_CHECK_NAMES[1:] if c in options.checks]
    if not (shape.loaded and shape.accepted):
        why = ("the node ended while loading the tracer" if not shape.loaded
               else "erlang:trace/3 refuses the module as a tracer")
        for check in wanted:
            results[check] = CheckResult(check, work.otp.name, "skip", f"not run: {why} (see shape)")
        return [results[c] for c in ALL_CHECK_NAMES if c in results]
    with ThreadPoolExecutor(max_workers=max(1, options.parallel)) as pool:
        futures: dict[str, Future] = {}

        def submit(check: str, fn: Callable[..., object], *args: object) -> None:
            if check in wanted:
                futures[check] = pool.submit(fn, check, *args)

        submit("enabled_answers", run.calls, {})
        submit("trace_accepts", run.calls, {})
        submit("dead_state", run.dead_state)
        submit("live", run.live, shape)
        # Each property is judged on the inputs the prerequisite check passed.
        only: dict[str, list[str]] = {}
        if "enabled_answers" in futures:
            results["enabled_answers"], only["only_enabled"] = futures.pop("enabled_answers").result()
        submit("enabled_pure", run.calls, dict(only))
        if "trace_accepts" in futures:
            results["trace_accepts"], only["only_trace"] = futures.pop("trace_accepts").result()
        submit("tracee_untouched", run.calls, only)
        submit("latency", run.calls, only)
        for check, future in futures.items():
            outcome = future.result()
            results[check] = outcome[0] if isinstance(outcome, tuple) else outcome
    if "stress" in wanted or "leak" in wanted:
        stressed, leak = run.stress()
        if tracer.race_build is not None and "stress" in wanted:
            detecting = time.monotonic()
            stressed = with_races(stressed, *run.races(tracer))
            stressed.data["race_detector_s"] = round(time.monotonic() - detecting, 2)
            stressed.seconds = round(stressed.seconds + stressed.data["race_detector_s"], 2)
        results.update({name: result for name, result in (("stress", stressed), ("leak", leak)) if name in wanted})
    if "latency" in results:
        results["latency"] = with_monitoring(results["latency"], [results.get("live"), results.get("stress")])
    if "cost" in wanted:
        results["cost"] = run.cost()
    if SANITIZE_CHECK in wanted:
        results[SANITIZE_CHECK] = (run.memory(SANITIZE_CHECK) if tracer.sanitized is None
                                   else run.memory_asan(SANITIZE_CHECK, tracer))
    return [results[c] for c in ALL_CHECK_NAMES if c in results]


class _Runner:
    """Runs the jobs of one tracer on one release and judges them."""

    def __init__(self, work: Workdir, job: dict[str, object], options: Options,
                 progress: Callable[[str], None]) -> None:
        self.work = work
        self.job = job
        self.options = options
        self.progress = progress
        self.otp = work.otp.name
        self._gc_in_sessions: bool | None = None   # gc_in_sessions(), once per release

    def _run(self, module: str, extra: dict[str, object], limit: jobs.StepLimit) -> jobs.JobRun:
        return jobs.run(self.work, module, {**self.job, **extra}, limit, self.options.limits.check_s)

    def _action_limit(self) -> jobs.StepLimit:
        return jobs.StepLimit(self.options.limits.action_s, "per-action")

    def _result(self, check: str, status: str, summary: str, evidence: list[str], started: float,
                nodes: int = 1, data: dict | None = None) -> CheckResult:
        self.progress(f"OTP {self.otp}: {check:<17} {status:<5} {first_line(summary)}")
        return CheckResult(check, self.otp, status, summary, evidence,
                           round(time.monotonic() - started, 2), nodes, data or {})

    # --- shape --------------------------------------------------------------

    def shape(self, tracer: Tracer) -> tuple[CheckResult, Shape]:
        started = time.monotonic()
        ran = self._run("tcs_validate_shape", {}, self._action_limit())
        if ran.of("BADINPUT"):
            raise BadInput(ran.of("BADINPUT")[0])
        if ran.of("NOLOAD"):
            kind, _, said = ran.of("NOLOAD")[0].partition(" ")
            raise loading.LoadFailure(loading.diagnose(kind, said, self.placement(tracer), self.otp))
        data = {kind: rest for kind, rest in (line.partition(" ")[::2] for line in ran.of("DATA"))
                if kind in ("loaded_by", "accepted")}
        nifs = frozenset(_name_arity(rest) for rest in ran.of("DATA") if rest.startswith("nif "))
        exports = {_name_arity(rest) for rest in ran.of("DATA") if rest.startswith("export ")}
        # A tracer that crashes or hangs when erlang:trace/3 asks it for
        # trace_status is judged by enabled_answers, which asks the same.
        in_probe = ran.status != "done" and (ran.last_step or "").startswith("probe ")
        loaded = ran.status == "done" or in_probe
        accepted = data.get("accepted") == "true" or (in_probe and {("enabled", 3), ("trace", 5)} <= nifs)
        shape = Shape(loaded, accepted, nifs)
        table = {"nifs": [f"{n}/{a}" for n, a in sorted(nifs)], "loaded_by": data.get("loaded_by")}
        if ran.status != "done" and not in_probe:
            return self._result("shape", "fail", f"the node {ran.status}ed while loading the tracer",
                                _incident(ran), started, data=table), shape
        problems = [f"{name}/{arity} is not a NIF of the library: the runtime refuses a tracer "
                    "without it" for name, arity in (("enabled", 3), ("trace", 5))
                    if (name, arity) not in nifs]
        problems += [f"NIF {name}/{arity} looks like a callback, but {why}: the runtime never calls it"
                     for name, arity in sorted(nifs) if (why := looks_like_callback(name, arity))]
        if not shape.accepted and not problems:
            problems.append("erlang:trace/3 raises badarg with this module as the tracer")
        optional = sorted(f"{n}/{a}" for n, a in nifs & callbacks() if n not in ("enabled", "trace"))
        notes = [f"{name}/{arity} is exported by the module but is not a NIF: the runtime never "
                 "calls it (only the NIF table counts)"
                 for name, arity in sorted(exports - nifs)
                 if (name, arity) in callbacks() or looks_like_callback(name, arity)]
        facts = [f"NIFs: {', '.join(table['nifs'])} (loaded by {table['loaded_by']})",
                 f"optional callbacks provided: {', '.join(optional) or 'none'}"]
        if ("trace_call", 5) in nifs:
            notes.append(META_TRACE_CALL)
        if in_probe:
            facts.append(f"not known whether erlang:trace/3 accepts the module: "
                         f"{_incident_line(ran)}\n(enabled_answers asks trace_status too)")
        if problems:
            return self._result("shape", "fail", problems[0], problems + facts + notes, started,
                                data=table), shape
        return self._result("shape", "pass", f"enabled/3, trace/5; optional: {', '.join(optional) or 'none'}",
                            facts + notes, started, data=table), shape

    def placement(self, tracer: Tracer) -> loading.Placement:
        names = tuple(sorted({tracer.nif.name, f"{tracer.module}.so"})) if tracer.nif is not None else ()
        copies = tuple((self.work.node_path(self.work.lib / app.name), str(app)) for app in tracer.apps)
        return loading.Placement(tracer.module, names, tuple(app.name for app in tracer.apps), copies)

    # --- the direct-call checks ---------------------------------------------------

    def calls(self, check: str, only: dict[str, list[str]]) -> tuple[CheckResult, list[str]]:
        """Runs a direct-call check, resuming in a fresh node after a crash or
        a hang; only restricts the inputs per family (only_enabled,
        only_trace).  Returns the result and the inputs that passed it."""
        started = time.monotonic()
        texts: dict[str, str] = {}
        failed: list[str] = []
        evidence: list[str] = []
        notes: list[str] = []
        skip: list[str] = []
        skip_keys: list[str] = []
        limit = jobs.StepLimit(self.options.limits.callback_s, "per-callback")
        nodes = 0
        while True:
            nodes += 1
            extra = {"check": check, "skip": _erlang_strings(skip), "skip_keys": _erlang_strings(skip_keys),
                     "latency_ms": self.options.stress.latency_ms,
                     **{family: _erlang_strings(indices) for family, indices in only.items()}}
            ran = self._run("tcs_validate_calls", extra, limit)
            calls = [step for step in ran.steps() if step[1] != "-"]
            for index, _key, text in calls:
                texts[index] = text
                skip.append(index)
            for finding in ran.of("FINDING"):
                index, _, what = finding.partition(" ")
                failed.append(index)
                evidence.append(f"{texts.get(index, 'after the calls')}: {what}")
            if calls:
                notes += [f"node {nodes}: {n}" if nodes > 1 else n for n in ran.of("NOTE")]
            if ran.status == "done":
                break
            evidence.append(_incident_line(ran))
            index, key, _ = jobs.split_step(ran.last_step or "- - -")
            if key == "-":
                break   # not in a callback call: a fresh node would end the same way
            failed.append(index)
            skip_keys.append(key)
            evidence.append(f"  (a fresh node goes on without the other inputs of {key})")
            if nodes == MAX_NODES:
                evidence.append(f"stopped after {MAX_NODES} nodes ended early: the inputs after "
                                "the last one were not tried")
                break
        passed = [i for i in texts if i not in set(failed)]
        planned = max((int(d.split()[1]) for d in ran.of("DATA") if d.startswith("planned ")), default=0)
        partial = _fewer_inputs(len(texts), planned, check, only, skip_keys)
        if evidence:
            return self._result(check, "fail", evidence[0], _shorten(evidence) + notes + partial, started,
                                nodes), passed
        summary = (notes[-1] if notes else f"{len(texts)} calls") + "".join(f"; {p}" for p in partial)
        return self._result(check, "pass", summary, notes + partial, started, nodes), passed

    # --- dead_state, live, cost ------------------------------------------------------

    def dead_state(self, check: str) -> CheckResult:
        started = time.monotonic()
        ran = self._run("tcs_validate_dead", {}, self._action_limit())
        if ran.of("SKIP"):
            return self._result(check, "skip", ran.of("SKIP")[0], [], started)
        findings = [f"{f.partition(' ')[0]}: {f.partition(' ')[2]}" for f in ran.of("FINDING")]
        if ran.status != "done":
            findings.append(_incident_line(ran))
        if findings:
            return self._result(check, "fail", findings[0], findings + ran.of("NOTE"), started)
        return self._result(check, "pass", "live state: stays attached; dead state: removed; "
                            "state died while tracing: removed", ran.of("NOTE"), started)

    def live(self, check: str, shape: Shape) -> CheckResult:
        started = time.monotonic()
        ran = self._run("tcs_validate_live", {}, self._action_limit())
        notes = ran.of("NOTE")
        monitored = {"monitor": monitor_lines(ran)}
        if ran.status != "done":
            phase = jobs.split_step(ran.last_step)[0] if ran.last_step else None
            called = runtime_callbacks(LIVE_PHASES.get(phase or "", []), set(shape.nifs))
            line = _incident_line(ran)
            return self._result(check, "fail", line, [line, f"callbacks the runtime calls in this "
                                f"phase: {called}, and enabled/3 for trace_status"] + notes, started,
                                data=monitored)
        detached = [n.partition(":")[0] for n in notes if n.endswith("attached afterwards: false")]
        starts = {n.partition(":")[0]: n.endswith(": true") for n in notes
                  if "tracer attached when the traffic starts" in n}
        if starts and not any(starts.values()):
            return self._result(check, "skip", f"vacuous: no event reached the tracer: it was not attached "
                                f"when the traffic of any phase started ({', '.join(starts)}); erlang:trace/3 "
                                "asks enabled(trace_status, State, Tracee), and an answer of remove leaves "
                                "the tracee untraced. Nothing was verified", notes, started, data=monitored)
        summary = f"{len(LIVE_PHASES)} phases ({', '.join(LIVE_PHASES)}): no crash, no hang"
        if unattached := [phase for phase, attached in starts.items() if not attached]:
            summary += f"; not verified in {', '.join(unattached)}: the tracer was not attached there"
        if detached:
            summary += f"; the tracer had detached itself after: {', '.join(detached)}"
        return self._result(check, "pass", summary, notes, started, data=monitored)

    def cost(self) -> CheckResult:
        started = time.monotonic()
        bench = self.options.bench
        ran = self._run("tcs_validate_cost", {"samples": bench.samples, "calls": bench.calls,
                                              "events": bench.events},
                        jobs.StepLimit(self.options.limits.check_s, "per-check"))
        if ran.status != "done":
            line = _incident_line(ran)
            return self._result("cost", "fail", line, [line], started)
        values = {key: float(value) for key, _, value in (d.partition(" ") for d in ran.of("DATA"))}
        data = {**values, **_ratios(values)}
        answers = [n.partition(": ")[2] for n in ran.of("NOTE") if n.startswith("send answer: ")]
        untraced = nothing_traced(values.get("module_attached") == 1.0, answers[0] if answers else "?")
        summary = cost_summary(data) if untraced is None else f"{untraced}; {cost_summary(data)}"
        over = over_budget(data, bench.budget)
        if over is not None and untraced is None:
            return self._result("cost", "fail", over, [over, summary], started, data=data)
        return self._result("cost", "pass", summary, [untraced] if untraced else [], started, data=data)

    # --- stress and leak -----------------------------------------------------------

    def gc_in_sessions(self) -> dict[str, object]:
        """{"gc_in_sessions": false} on a release where tracing garbage_collection in two sessions of one
        process crashes the emulator (erlang/otp#11624), as the probe node finds out; else nothing.  The
        stress job then leaves garbage_collection out of its extra sessions and says why."""
        if self._gc_in_sessions is None:
            ran = self._run("tcs_validate_probe", {}, self._action_limit())
            self._gc_in_sessions = ("gc_in_sessions ok" in ran.of("DATA")
                                    or "gc_in_sessions none" in ran.of("DATA"))
        return {} if self._gc_in_sessions else {"gc_in_sessions": "false"}

    def heap_nif(self) -> dict[str, object]:
        """The stress job's option naming the NIF that reads malloc's count, copied where the node reads it."""
        if self.options.heap_nif is None:
            return {}
        copy = self.work.beams / self.options.heap_nif.name
        if not copy.exists():
            shutil.copy(self.options.heap_nif, copy)
        return {"heap_nif": erlang_string(self.work.node_path(copy))}

    def stress(self) -> tuple[CheckResult, CheckResult]:
        """One stress node; its run judged twice: stress (crash, hang, garbage) and leak."""
        started = time.monotonic()
        limits = self.options.stress
        ran = self._run("tcs_validate_stress", {"seconds": limits.seconds, **self.gc_in_sessions(), **self.heap_nif()},
                        jobs.StepLimit(max(30.0, 3 * limits.seconds + 20), "per-stress-part"))
        monitor = monitor_lines(ran)
        data: dict[str, object] = {**stress_data(ran.of("DATA")), "monitor": monitor}
        notes = ran.of("NOTE") + [f"system monitor: {m}" for m in monitor[:SHOWN]]
        setting = stress_setting(data)
        if ran.status != "done":
            line = _incident_line(ran)
            why = (f"{line}\n(while the runtime called the tracer from {setting}: a tracer that is right "
                   "call by call and crashes or hangs here shares state between threads without "
                   "synchronisation, or mishandles an input only this traffic makes)")
            stressed = self._result("stress", "fail", why, [why] + notes, started, data=data)
            return stressed, self._result("leak", "skip", "not judged: the stress node did not finish",
                                          [], started, data=data)
        garbage = ran.of("FINDING")
        if garbage:
            found = [f.partition(" ")[2] for f in garbage]
            summary = f"{found[0]} ({int(data.get('garbage', 0))} garbage reports of {int(data.get('reports', 0))})"
            stressed = self._result("stress", "fail", summary, found + [f"setting: {setting}"] + notes, started,
                                    data=data)
        elif not data.get("reports"):
            stressed = self._result("stress", "pass", f"{setting}: no crash, no hang; garbage not checked: no "
                                    "report reached the state's process (a --state without '$harness', or a "
                                    "tracer that reports elsewhere)", notes, started, data=data)
        else:
            stressed = self._result("stress", "pass", f"{setting}: no crash, no hang, no garbage in "
                                    f"{int(data.get('reports', 0))} reports to the state", notes, started, data=data)
        status, summary, evidence = judge_leak(data, limits)
        return stressed, self._result("leak", status, summary, evidence, started, data=data)

    # --- memory (--sanitize) -------------------------------------------------------

    def library_names(self, tracer: Tracer) -> frozenset[str]:
        """The file names the tracer's library has in the nodes (engine._validate_on)."""
        assert tracer.nif is not None
        return frozenset({tracer.nif.name, f"{tracer.module}.so"})

    def _sanitized(self, kind: str, library: Path, runtime: Path, names: frozenset[str], module: str,
                   extra: dict[str, object], limit: jobs.StepLimit, node_limit_s: float,
                   command: Callable[[node.Otp, str, str, int], jobs.Wrap]) -> tuple[jobs.JobRun, str]:
        """Runs a job on a node that loads `library` (a sanitizer's build of the tracer, under each of
        `names`, from a directory of its own with the sanitizer's runtime) instead of the tracer's
        library; the node's stderr, where the sanitizer reports, and the job's STEP lines go to one log
        (both appending).  Returns the run and the log's text."""
        here = self.work.host / kind
        here.mkdir(exist_ok=True)
        for name in names:
            shutil.copy(library, here / name)
        shutil.copy(runtime, here / runtime.name)
        log = self.work.host / f"{kind}.log"
        fd = os.open(log, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
        try:
            inside = self.work.node_path(here)
            ran = jobs.run(self.work, module, {**self.job, **extra, "dir": erlang_string(inside),
                                               "sanitize_log": erlang_string(self.work.node_path(log))},
                           limit, node_limit_s, command(self.work.otp, inside, self.work.node_path(here / runtime.name), fd))
        finally:
            os.close(fd)
        return ran, log.read_text(errors="replace")

    def races(self, tracer: Tracer) -> tuple[list[tsan.Race], list[str]]:
        """The stress job once more, on a node that loads the ThreadSanitizer build of the tracer
        (tsan.py): the races between two accesses of the tracer's code, and notes on the run."""
        assert tracer.race_build is not None
        runtime = tsan.runtime()
        assert runtime is not None
        seconds = self.options.stress.seconds
        names = self.library_names(tracer)
        ran, text = self._sanitized("tsan", tracer.race_build, runtime, names, "tcs_validate_stress",
                                    {"seconds": seconds, "traffic_only": "true", **self.gc_in_sessions()},
                                    jobs.StepLimit(tsan.SLOWDOWN * max(30.0, 3 * seconds + 20),
                                                   "per-stress-part (under ThreadSanitizer)"),
                                    tsan.SLOWDOWN * self.options.limits.check_s, tsan.command)
        races, others = tsan.parse(text, names, tracer.race_build)
        notes = [f"race detector: the stress traffic again for {seconds:g} s with the tracer built from --src "
                 f"with ThreadSanitizer; {others} race reports not between two accesses of the tracer's code "
                 "(the emulator's own, whose synchronisation TSan does not see) left out"]
        if ran.status != "done":
            notes.append(f"the race detector's node ended early (races before count): {_incident_line(ran)}")
        return races, notes

    def memory_asan(self, check: str, tracer: Tracer) -> CheckResult:
        """The inputs of the direct-call checks on a node that loaded the ASan+UBSan build of the
        tracer (asan.py), in place of its library."""
        started = time.monotonic()
        assert tracer.sanitized is not None
        clang = asan.compiler()
        runtime = asan.runtime(clang) if clang else None
        assert runtime is not None
        names = self.library_names(tracer)
        ran, text = self._sanitized("asan", tracer.sanitized, runtime, names, "tcs_validate_calls", {"check": check},
                                    jobs.StepLimit(self.options.limits.callback_s, "per-callback"),
                                    self.options.limits.check_s, asan.command)
        found = asan.parse(text, names, tracer.sanitized)
        data = {"errors": len(found.findings), "otp_errors": found.otp_errors, "suppressed": 0,
                "sanitizer": "asan"}
        evidence = [line for f in found.findings
                    for line in [sanitize.describe(f), *(f"    {frame}" for frame in f.stack)]]
        how = (f"the tracer built from --src with AddressSanitizer and UndefinedBehaviorSanitizer; "
               f"{found.otp_errors} reports not in the tracer's code left out; reads of uninitialised memory "
               "are not seen by ASan (--sanitize without --src runs memcheck, which sees them)")
        if evidence:
            return self._result(check, "fail", evidence[0], _shorten(evidence) + [how], started, data=data)
        if ran.status != "done":
            line = _incident_line(ran)
            return self._result(check, "skip", f"not verified: the node with the sanitized tracer ended early, "
                                f"no error in the tracer's code before: {first_line(line)}",
                                [f"{line}\n(the inputs after it were not run; crashes and hangs are judged by "
                                 "the other checks); the node's stderr ended with:\n    "
                                 + node.tail(text, 6).replace("\n", "\n    "), how], started, data=data)
        calls = ran.of("NOTE")[-1] if ran.of("NOTE") else "no call"
        return self._result(check, "pass", f"{calls}: no error in the tracer's library (ASan, UBSan)", [how],
                            started, data=data)

    def memory(self, check: str) -> CheckResult:
        """The inputs of the direct-call checks on a node under valgrind memcheck (sanitize.py)."""
        started = time.monotonic()
        why = sanitize.unavailable(self.work.otp)
        if why is not None:
            return self._result(check, "skip", f"not run on OTP {self.otp}: {why}", [], started)
        log = self.work.host / "memcheck.xml"
        suppressions = self.work.host / "memcheck.supp"
        suppressions.write_text(sanitize.suppressions())
        # valgrind and the node both append to the log: the node's STEP lines and valgrind's
        # errors stay in the order they happened.
        fd = os.open(log, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
        try:
            limits = self.options.limits
            ran = jobs.run(self.work, "tcs_validate_calls",
                           {**self.job, "check": check, "sanitize_log": erlang_string(self.work.node_path(log))},
                           jobs.StepLimit(limits.callback_s * sanitize.SLOWDOWN, "per-callback (under memcheck)"),
                           limits.check_s * sanitize.SLOWDOWN,
                           sanitize.command(self.work.otp, fd, self.work.node_path(suppressions)))
        finally:
            os.close(fd)
        text = log.read_text(errors="replace")
        if "<tool>memcheck</tool>" not in text:
            line = f"valgrind wrote no memcheck log: {_incident_line(ran)}"
            return self._result(check, "fail", line, [line], started)
        found = sanitize.parse(text, PurePosixPath(self.work.node_path(self.work.host)))
        data = {"errors": len(found.findings), "otp_errors": found.otp_errors, "suppressed": found.suppressed,
                "in_bounds": found.in_bounds}
        evidence = [line for f in found.findings
                    for line in [sanitize.describe(f), *(f"    {frame}" for frame in f.stack)]]
        incomplete = []
        if ran.status != "done":
            incomplete.append(f"{_incident_line(ran)}\n(the inputs after it were not run under memcheck; "
                              "crashes and hangs are judged by the other checks)")
        left_out = (f"under valgrind memcheck ({MEMCHECK_WHY}); "
                    f"left out as OTP's own: {found.otp_errors} distinct errors not in the tracer's code, "
                    f"{found.suppressed} occurrences of errors starting in OTP's code (suppressed), "
                    f"{found.in_bounds} accesses called invalid that lie wholly inside a live heap block "
                    "(memcheck lost the block's addressability, OTP 25's JIT mappings); time "
                    f"limits under memcheck: {sanitize.SLOWDOWN} times the others")
        if evidence:
            return self._result(check, "fail", evidence[0], _shorten(evidence) + incomplete + [left_out], started,
                                data=data)
        if incomplete:
            return self._result(check, "skip", f"not verified: the node under memcheck ended early, no error "
                                f"in the tracer's code before: {first_line(incomplete[0])}", incomplete + [left_out],
                                started, data=data)
        calls = ran.of("NOTE")[-1] if ran.of("NOTE") else "no call"
        return self._result(check, "pass", f"{calls}: no error in the tracer's library", [left_out],
                            started, data=data)


#: Why the memory check runs under memcheck, not on an ASan build (asan.py).
MEMCHECK_WHY = "no ASan build: it needs the tracer's sources, --src, and clang"


#: The check whose passed inputs a check is limited to (engine order, step 2).
PREREQUISITE = {"only_enabled": "enabled_answers", "only_trace": "trace_accepts"}


def _fewer_inputs(ran_on: int, planned: int, check: str, only: dict[str, list[str]],
                  skipped_keys: list[str]) -> list[str]:
    """A sentence for a check that called the tracer with fewer inputs than its input space has
    (none when it ran on all): how many, and why the others were left out."""
    if not planned or ran_on >= planned:
        return []
    why = [f"only those that passed {', '.join(sorted({PREREQUISITE[f] for f in only}))}"] if only else []
    if skipped_keys:
        why.append(f"none after a crash or a hang of {', '.join(skipped_keys)}")
    return [f"{check} ran on {ran_on} of {planned} inputs ({'; '.join(why) or 'the node ended early'}): "
            "the others are not verified"]


def _ratios(v: dict[str, float]) -> dict[str, float]:
    def ratio(a: str, b: str) -> float:
        return round(v[a] / v[b], 2) if v.get(b) else float("nan")
    return {"module_vs_untraced": ratio("event_module_ns", "event_untraced_ns"),
            "builtin_vs_untraced": ratio("event_builtin_ns", "event_untraced_ns"),
            "module_vs_builtin": ratio("event_module_ns", "event_builtin_ns")}


def nothing_traced(attached: bool, send_answer: str) -> str | None:
    """Why the traced sends of the benchmark never reached trace*/5, or None when they did."""
    if not attached:
        return ("nothing was traced: the tracer was not attached to the sender (enabled(trace_status, ...) "
                "answered remove), so 'this tracer' measures untraced sends")
    if send_answer != "trace":
        return (f"nothing was traced: enabled for send answered {send_answer}, so trace*/5 was never "
                "called and 'this tracer' measures the cost of a refused event only")
    return None


def monitor_lines(ran: jobs.JobRun) -> list[str]:
    """The node's system monitor events: 'PHASE KIND MS WHERE' each."""
    return [d.partition(" ")[2] for d in ran.of("DATA") if d.startswith("monitor ")]


def with_races(stressed: CheckResult, races: list[tsan.Race], notes: list[str]) -> CheckResult:
    """stress judged by the race detector too: a data race between two accesses of the tracer's code
    fails it, naming both; without one, stress keeps its verdict and says the detector found none."""
    found = [race.describe() for race in races]
    stressed.data["races"] = len(found)
    if found:
        stressed.summary = found[0] if stressed.status == "pass" else f"{found[0]}; the stress node: {stressed.summary}"
        stressed.status = "fail"
        stressed.evidence = _shorten(found) + notes + stressed.evidence
    else:
        stressed.summary += "; no data race in the tracer's code (ThreadSanitizer)"
        stressed.evidence += notes
    return stressed


def with_monitoring(latency: CheckResult, others: list[CheckResult | None]) -> CheckResult:
    """latency with the long_schedule and long_gc events of the live and stress nodes' tracees
    as evidence: not judged, since a loaded machine deschedules threads for as long; the
    verdict is the direct-call timing."""
    lines = [line for other in others if other is not None for line in other.data.get("monitor", [])]
    if not lines:
        return latency
    shown = [f"system monitor (evidence, not judged): {line}" for line in lines[:SHOWN]]
    more = [f"... and {len(lines) - SHOWN} more system monitor events"] if len(lines) > SHOWN else []
    latency.evidence += shown + more
    latency.data["monitor"] = lines
    return latency


def over_budget(d: dict[str, float], budget: float) -> str | None:
    """Why a traced send costs too much, against the built-in tracer measured in the same run."""
    ratio = d.get("module_vs_builtin", float("nan"))
    if not ratio > budget:
        return None
    return (f"over budget: a send traced by this tracer costs {d['event_module_ns']:.0f} ns, x{ratio:.1f} "
            f"the built-in tracer's {d['event_builtin_ns']:.0f} ns (budget x{budget:g}, --budget); "
            f"enabled {d['enabled_ns']:.0f} ns/call, trace {d['trace_ns']:.0f} ns/call")


def stress_data(lines: list[str]) -> dict[str, float]:
    """The stress node's DATA key value lines (numbers; bound_to_schedulers as 1 or 0)."""
    data: dict[str, float] = {}
    for line in lines:
        key, _, value = line.partition(" ")
        if key == "monitor":
            continue
        data[key] = 1.0 if value == "true" else 0.0 if value == "false" else float(value)
    return data


def stress_setting(d: dict) -> str:
    """The stress run in words: how many processes, schedulers and sessions."""
    bound = "each bound to its scheduler" if d.get("bound_to_schedulers") else "not bound (no {scheduler, N})"
    return (f"{int(d.get('workers', 0))} processes on {int(d.get('schedulers', 0))} schedulers at once ({bound}), "
            f"every category, {int(d.get('sessions', 0))} session(s)")


def judge_leak(d: dict, limits: Stress) -> tuple[str, str, list[str]]:
    """The leak verdict: memory growth at rest in each half of the part after the warm-up, per event
    of that half. A leak grows in both halves; a growth that does not come with events (a carrier, a
    table, a message still in flight at a sample; seen under load) lands in one half only, so it
    fails only where both halves reach the limit and the whole growth reaches the floor."""
    halves = (("before", "middle"), ("middle", "after"))
    events = [(d.get(f"{end}_actions", 0) - d.get(f"{start}_actions", 0)) * d.get("events_per_action", 0)
              for start, end in halves]
    if min(events) < limits.min_events / 2:
        return ("skip", f"not judged: only {events[0]:.0f} and {events[1]:.0f} events in the two halves of "
                f"the measured part of stress (at least {limits.min_events / 2:.0f} each needed; a slow "
                "tracer gets few)", [])
    figures: list[str] = []
    failing: list[str] = []
    for label, key, per_event, floor in (("erlang:memory(system)", "system", limits.leak_bytes_per_event,
                                          limits.leak_floor_bytes),
                                         ("malloc", "malloc", limits.malloc_bytes_per_event,
                                          limits.malloc_floor_bytes),
                                         ("RSS", "rss", limits.rss_bytes_per_event, limits.rss_floor_bytes)):
        if not d.get(f"before_{key}"):
            figures.append(f"{label}: not readable here")
            continue
        growths = [d[f"{end}_{key}"] - d[f"{start}_{key}"] for start, end in halves]
        rates = [growth / n for growth, n in zip(growths, events)]
        figure = (f"{label} {sum(growths) / 1e6:+.1f} MB over {sum(events) / 1e6:.2f} million events: "
                  f"{sum(growths) / sum(events):+.0f} bytes per event (halves: {rates[0]:+.0f}, {rates[1]:+.0f})")
        figures.append(figure)
        if min(rates) >= per_event and sum(growths) >= floor:
            failing.append(f"{figure} (limit: {per_event:g} bytes per event in each half, beyond {floor >> 20} MB)")
    if failing:
        return "fail", f"memory grows with events: {failing[0]}", failing + figures
    return "pass", "; ".join(figures), figures


def cost_summary(d: dict[str, float]) -> str:
    """The cost medians in one line."""
    return (f"enabled {d['enabled_ns']:.0f} ns/call, trace {d['trace_ns']:.0f} ns/call; per send: "
            f"untraced {d['event_untraced_ns']:.0f} ns, this tracer {d['event_module_ns']:.0f} ns "
            f"(x{d['module_vs_untraced']:.2f}), built-in tracer {d['event_builtin_ns']:.0f} ns "
            f"(x{d['builtin_vs_untraced']:.2f}); this tracer / built-in x{d['module_vs_builtin']:.2f}")


def _name_arity(data: str) -> tuple[str, int]:
    _kind, name, arity = data.split(" ")
    return name, int(arity)


def _erlang_strings(items: list[str]) -> str:
    return "[" + ", ".join(erlang_string(i) for i in items) + "]"


def _incident_line(ran: jobs.JobRun) -> str:
    """A crash or hang in words: what ran last, how the node ended, what it printed last."""
    doing = jobs.split_step(ran.last_step)[2] if ran.last_step else "starting the job"
    last = ran.tail().replace("\n", "\n    ")
    verb = "hang" if ran.status == "timeout" else "crash"
    return f"{verb} in {doing}: {ran.detail}; the node's last output:\n    {last}"


def _incident(ran: jobs.JobRun) -> list[str]:
    return [_incident_line(ran)]


def _shorten(evidence: list[str]) -> list[str]:
    if len(evidence) <= SHOWN:
        return evidence
    return evidence[:SHOWN] + [f"... and {len(evidence) - SHOWN} more"]
