"""The report of ./tcs validate: a table for the terminal, JSON, and a
self-contained HTML page.  One verdict per check and release, its evidence,
the time limits, and the overall verdict."""
from __future__ import annotations

import html
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .. import junit
from .checks import CHECKS, STATUSES, Bench, CheckResult, Limits, Stress, callbacks, looks_like_callback
from .inputs import Tracer

_VERIFIES = {c.name: c.verifies for c in CHECKS}


@dataclass(frozen=True)
class Report:
    tracer: Tracer
    otps: list[str]
    limits: Limits
    bench: Bench
    results: list[CheckResult]
    warnings: tuple[str, ...] = ()   # about the input, said before the verdicts
    stress: Stress = Stress()

    @property
    def verdict(self) -> str:
        """pass when no check fails (a skipped check says why it could not apply)."""
        return "fail" if any(r.status == "fail" for r in self.results) else "pass"

    def counts(self) -> dict[str, int]:
        return {"checks": len(self.results),
                **{s: sum(r.status == s for r in self.results) for s in STATUSES}}

    def library_text(self) -> str:
        if self.tracer.nif is not None:
            return str(self.tracer.nif)
        return f"loaded by the module from {', '.join(str(a) for a in self.tracer.apps)}"

    def state_text(self) -> str:
        return self.tracer.state if self.tracer.state is not None else "a process of the harness"


def first_line(text: str, limit: int = 110) -> str:
    """The first line of text, cut to limit characters."""
    line = text.splitlines()[0] if text else ""
    return line if len(line) <= limit else line[:limit - 3] + "..."


def render_text(report: Report) -> str:
    t = report.tracer
    out = [f"tracer {t.module}: library {report.library_text()}, module from {t.given_as}, state {report.state_text()}",
           *(f"warning: {w}" for w in report.warnings), ""]
    rows = [(r.check, r.otp, r.status, first_line(r.summary)) for r in report.results]
    header = ("CHECK", "OTP", "VERDICT", "EVIDENCE")
    widths = [max(len(h), *(len(row[i]) for row in rows)) for i, h in enumerate(header[:3])]
    for row in [header, tuple("-" * w for w in widths) + ("-" * 8,), *rows]:
        out.append("  ".join(c.ljust(w) for c, w in zip(row[:3], widths)) + "  " + row[3])
    details = [r for r in report.results if r.status != "pass" or r.check in ("cost", "leak")]
    for r in details:
        lines = evidence_lines(r)
        out += ["", f"{r.check} (OTP {r.otp}): {r.status}",
                *("  " + line.replace("\n", "\n  ") for line in lines if line)]
    c = report.counts()
    out += ["", f"time limits: {report.limits.describe()}",
            f"verdict: {report.verdict.upper()} ({c['pass']} pass, {c['fail']} fail, {c['skip']} skip "
            f"of {c['checks']} check verdicts)"]
    return "\n".join(out) + "\n"


def to_json(report: Report) -> dict[str, Any]:
    t = report.tracer
    return {
        "tool": "tcs validate",
        "module": t.module, "nif": str(t.nif) if t.nif else None,
        "apps": [str(a) for a in t.apps], "source": t.given_as, "state": report.state_text(),
        "otp": report.otps,
        "verdict": report.verdict,
        "warnings": list(report.warnings),
        "summary": report.counts(),
        "limits": report.limits.to_json(),
        "bench": {"samples": report.bench.samples, "calls_per_sample": report.bench.calls,
                  "events_per_sample": report.bench.events, "budget_vs_builtin": report.bench.budget},
        "stress": {"seconds": report.stress.seconds, "latency_ms": report.stress.latency_ms,
                   "leak_bytes_per_event": report.stress.leak_bytes_per_event,
                   "leak_floor_bytes": report.stress.leak_floor_bytes,
                   "rss_bytes_per_event": report.stress.rss_bytes_per_event,
                   "rss_floor_bytes": report.stress.rss_floor_bytes, "min_events": report.stress.min_events},
        "checks": [{"check": r.check, "otp": r.otp, "status": r.status, "verifies": _VERIFIES[r.check],
                    "summary": r.summary, "evidence": r.evidence, "seconds": r.seconds,
                    "nodes": r.nodes, "data": r.data} for r in report.results],
    }


_STYLE = """
body { font-family: sans-serif; margin: 2em; color: #222; }
table { border-collapse: collapse; }
th, td { border: 1px solid #ccc; padding: 4px 8px; text-align: left; vertical-align: top; }
td.pass { background: #dfd; } td.fail { background: #fdd; } td.skip { background: #eee; }
pre { white-space: pre-wrap; margin: 0; font-size: 90%; }
.verdict-pass { color: #070; } .verdict-fail { color: #a00; } .warning { color: #a50; }
dt { margin-top: 0.5em; }
"""


#: What the identifiers in the evidence mean (shown on the HTML page).
EVIDENCE_IDS = (
    ("eN", "the N-th input (from 0) of enabled*/3: callback, tag and kind of tracee, as in "
           "enabled/send/pid"),
    ("tN", "the N-th input (from 0) of trace*/5: callback, tag, kind of tracee and an Opts combination"),
    ("TCS STEP ID KEY TEXT", "what the node announced just before it made a call or an action: "
                             "the last one before a crash or a hang names what crashed or hung"),
    ("TCS NOTE / DATA / FINDING", "evidence, measured values and violations the node wrote, in order"),
    ("live PHASE", "a phase of the live check (send, receive, call, procs, running_procs, "
                   "garbage_collection, ports, seq_trace) and its action"),
    ("node N", "the N-th node of a direct-call check: after a crash or a hang a fresh node goes on "
               "without the inputs of the callback, tag and tracee kind that ended the last one"),
)


def _nif_table(results: list[CheckResult]) -> str:
    """Every NIF of the library, per release, each marked as a callback or as a misnamed one."""
    e = html.escape
    rows = []
    for r in results:
        if r.check != "shape" or not r.data.get("nifs"):
            continue
        for nif in r.data["nifs"]:
            name, _, arity = nif.partition("/")
            if (name, int(arity)) in callbacks():
                what, css = "a callback of erl_tracer", "pass"
            elif why := looks_like_callback(name, int(arity)):
                what, css = f"looks like a callback, but {why}: the runtime never calls it", "fail"
            else:
                what, css = "not a callback (the runtime ignores it)", "skip"
            rows.append(f"<tr><td>{e(r.otp)}</td><td><code>{e(nif)}</code></td>"
                        f"<td class=\"{css}\">{e(what)}</td></tr>")
    if not rows:
        return ""
    return ("<h2>NIFs of the library</h2><table><tr><th>OTP</th><th>NIF</th><th>what the runtime makes "
            f"of it</th></tr>{''.join(rows)}</table>")


def render_html(report: Report) -> str:
    e = html.escape
    t = report.tracer
    rows = []
    for r in report.results:
        head, *more = r.summary.splitlines() or [""]
        lines = [*more, *(line for line in evidence_lines(r)[1:])]
        # one line of evidence per line of the page: a node's last output stays as it printed it
        text = "\n".join(line for entry in lines for line in entry.splitlines())
        opened = " open" if r.status == "fail" else ""
        details = (f"<details{opened}><summary>evidence ({len(text.splitlines())} lines)</summary>"
                   f"<pre>{e(text)}</pre></details>" if text else "")
        rows.append(f"<tr><td title=\"{e(_VERIFIES[r.check])}\">{e(r.check)}</td><td>{e(r.otp)}</td>"
                    f"<td class=\"{r.status}\">{r.status}</td><td>{e(head)}{details}</td>"
                    f"<td>{r.seconds:.1f} s</td></tr>")
    checks = "".join(f"<li><b>{e(c.name)}</b>: {e(c.verifies)}</li>" for c in CHECKS)
    ids = "".join(f"<dt><code>{e(k)}</code></dt><dd>{e(v)}</dd>" for k, v in EVIDENCE_IDS)
    warnings = "".join(f"<p class=\"warning\">warning: {e(w)}</p>" for w in report.warnings)
    return (f"<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>tcs validate {e(t.module)}"
            f"</title><style>{_STYLE}</style></head><body>"
            f"<h1>tcs validate: {e(t.module)} <span class=\"verdict-{report.verdict}\">"
            f"{report.verdict.upper()}</span></h1>"
            f"<p>library <code>{e(report.library_text())}</code>, module from <code>{e(t.given_as)}</code>, "
            f"state <code>{e(report.state_text())}</code>, OTP {e(', '.join(report.otps))}</p>{warnings}"
            f"<table><tr><th>check</th><th>OTP</th><th>verdict</th><th>evidence</th><th>time</th></tr>"
            f"{''.join(rows)}</table>{_nif_table(report.results)}"
            f"<p>Time limits: {e(report.limits.describe())}.</p>"
            f"<h2>Reading the evidence</h2><dl>{ids}</dl><h2>The checks</h2><ul>{checks}</ul>"
            f"</body></html>\n")


#: How a verdict reads in JUnit XML.
JUNIT_OUTCOMES = {"pass": "passed", "fail": "failure", "skip": "skipped"}


def junit_cases(report: Report) -> list[junit.Case]:
    """One JUnit testcase per check and release; a failure's text is its evidence."""
    return [junit.Case(f"OTP {r.otp}", f"tcs.validate.{report.tracer.module}", r.check,
                       JUNIT_OUTCOMES[r.status], first_line(r.summary, 300), "\n".join(evidence_lines(r)),
                       r.seconds) for r in report.results]


def evidence_lines(result: CheckResult) -> list[str]:
    """The summary and the evidence, the summary once."""
    return result.evidence if result.evidence[:1] == [result.summary] else [result.summary, *result.evidence]


def write_atomically(path: str, text: str) -> None:
    """Writes the whole file or nothing (a temporary file renamed over it)."""
    target = Path(path)
    tmp = target.with_name(f".{target.name}.tmp-{os.getpid()}")
    tmp.write_text(text)
    os.replace(tmp, target)


def write_json(report: Report, path: str) -> None:
    write_atomically(path, json.dumps(to_json(report), indent=2) + "\n")
