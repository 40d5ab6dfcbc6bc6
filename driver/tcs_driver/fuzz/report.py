"""Reports of a fuzz campaign: the minimal scenarios as ready cases, text, JSON and HTML."""
from __future__ import annotations

import html
from dataclasses import replace
from pathlib import Path
from typing import Any

from .. import corpus, junit
from . import campaign as cp
from . import steer
from .gen import Scenario


def minimal_case(found: cp.Group, seed: int, number: int, explained: str) -> Scenario:
    """The group's minimal scenario as a corpus case: its own id, the rules of its stream, a header
    saying what it shows (the differing lines the fresh node gave)."""
    assert found.minimal is not None
    first = found.members[0]
    changed = found.minimal_changed or first.changed
    golden_rules = sorted(steer.explained_rules(explained)) or ["FUZZ"]
    releases = sorted({m.otp for m in found.members})
    comments = (f"origin: fuzz seed {seed} group {number}",  # the header of cases/README.md "Origin"
                f"found by ./tcs fuzz --seed {seed} ({len(found.members)} scenario(s) on OTP {', '.join(releases)}),"
                f" shrunk from {first.scenario}",
                f"{found.status} on OTP {first.otp}" + (": golden (-) and live (+) differ in" if changed else ""),
                *(f"  {line}" for line in changed[:12]))
    what = "; ".join(found.shape)[:150].replace('"', "'")
    return Scenario(f"fuzz_s{seed}_g{number}", found.minimal.otp, found.minimal.features, found.minimal.body,
                    rules=tuple(golden_rules), desc=f"fuzz: {found.status}: {what}", comments=comments)


def write_minimal(layout: corpus.Layout, result: cp.Campaign, out: Path) -> list[Path]:
    """Writes each group's minimal scenario to `out` as <id>.tcs; returns the paths."""
    out.mkdir(parents=True, exist_ok=True)
    paths = []
    for number, found in enumerate(result.groups, 1):
        if found.minimal is None:
            continue
        draft = out / f"fuzz_s{result.seed}_g{number}.tcs"
        draft.write_text(replace(found.minimal, id=draft.stem).text())
        _, explained, _ = cp.model_run(layout, "sim", str(draft), "--explain")
        draft.write_text(minimal_case(found, result.seed, number, explained).text())
        found.minimal_path = draft
        paths.append(draft)
    return paths


def counts(result: cp.Campaign) -> dict[str, dict[str, int]]:
    """Per release, the number of scenarios per status."""
    return {otp: {s: sum(1 for o in result.outcomes if o.otp == otp and o.status == s) for s in cp.STATUSES}
            for otp in result.otps}


def throughput(result: cp.Campaign) -> dict[str, float]:
    """Per release, live scenarios per minute (scenarios run, over the wall time of that release's runs)."""
    ran = {otp: sum(1 for o in result.outcomes if o.otp == otp and o.status not in ("skip", "refused"))
           for otp in result.otps}
    return {otp: round(60 * ran[otp] / result.seconds[otp], 1) if result.seconds[otp] else 0.0
            for otp in result.otps}


def to_json(result: cp.Campaign) -> dict[str, Any]:
    """The campaign as one JSON object."""
    return {
        "seed": result.seed,
        "shard": str(result.part),
        "scenarios": len(result.generated),
        "otp": result.otps,
        "by_otp": counts(result),
        "lost": result.lost,
        "seconds": {otp: round(spent, 3) for otp, spent in result.seconds.items()},
        "polluted": [{"scenario": o.scenario, "otp": o.otp} for o in result.outcomes if o.polluted],
        "throughput_per_minute": throughput(result),
        "coverage": {"rules": len(result.fuzz_cover.rules), "pairs": len(result.fuzz_cover.pairs),
                     "new_rules": sorted(set(result.fuzz_cover.rules) - set(result.corpus_cover.rules)),
                     "new_pairs": len(set(result.fuzz_cover.pairs) - set(result.corpus_cover.pairs)),
                     "unreached": steer.unreached(result.corpus_cover, result.fuzz_cover),
                     "least_covered_by_corpus": [{"rule": r, "corpus": c, "fuzz": f} for r, c, f in
                                                 steer.least_covered(result.corpus_cover, result.fuzz_cover)]},
        "groups": [{"status": g.status, "shape": list(g.shape), "count": len(g.members),
                    "otp": sorted({m.otp for m in g.members}), "scenarios": [m.scenario for m in g.members],
                    "changed": g.members[0].changed, "detail": g.members[0].detail,
                    "minimal": str(g.minimal_path) if g.minimal_path else None,
                    "minimal_text": g.minimal_path.read_text() if g.minimal_path else None,
                    "minimal_changed": g.minimal_changed, "shrink_runs": g.shrink_runs}
                   for g in result.groups],
        "results": [{"scenario": o.scenario, "otp": o.otp, "status": o.status, "shape": list(o.shape),
                     "changed": o.changed, "rerun_alone": o.rerun_alone, "polluted": o.polluted,
                     "detail": o.detail[:2000]} for o in result.outcomes],
    }


#: How each fuzz status is written in JUnit XML: a disagreement fails, a refusal, crash or timeout is an error.
JUNIT_OUTCOMES = {"agree": "passed", "explained": "passed", "disagree": "failure", "refused": "error",
                  "crash": "error", "timeout": "error", "skip": "skipped"}


def junit_cases(result: cp.Campaign) -> list[junit.Case]:
    """One JUnit testcase per scenario and release; a disagreement's text is its differing lines and its
    group's minimal case; a scenario that disagreed only in a shared node fails too; lost results are an
    error of their own testcase, so CI never reads a campaign that lost results as green."""
    group_of = {(m.scenario, m.otp): (number, g) for number, g in enumerate(result.groups, 1) for m in g.members}
    cases = []
    for o in result.outcomes:
        outcome = "failure" if o.polluted else JUNIT_OUTCOMES[o.status]
        number, group = group_of.get((o.scenario, o.otp), (0, None))
        message = (f"group {number}: {'; '.join(group.shape)}" if group else
                   "disagrees in a shared node, agrees alone" if o.polluted else
                   (o.detail.splitlines() or [o.status])[0])
        text = "\n".join(o.changed) or o.detail
        if group and group.minimal_path:
            text += f"\nminimal scenario: {group.minimal_path}"
        cases.append(junit.Case(f"OTP {o.otp}", f"tcs.fuzz.seed{result.seed}", o.scenario, outcome,
                                message[:300], text))
    if result.lost:
        cases.append(junit.Case("campaign", f"tcs.fuzz.seed{result.seed}", "lost results", "error",
                                f"{result.lost} result(s) lost", "scenarios ran but their results never came back"))
    return cases


def render_text(result: cp.Campaign) -> str:
    """The summary a terminal shows."""
    where = f"OTP {', '.join(result.otps)}" if result.otps else "the model only"
    out = [f"fuzz seed {result.seed}: {len(result.generated)} scenario(s), {where}"]
    if not result.otps:
        out.append(f"refused by the model: {sum(1 for g in result.generated if g.refused)}")
    speed = throughput(result)
    for otp, row in counts(result).items():
        out.append(f"OTP {otp}: " + ", ".join(f"{n} {s}" for s, n in row.items())
                   + f"; {speed[otp]} scenarios/min")
    polluted = [o for o in result.outcomes if o.polluted]
    out.append(f"lost results: {result.lost}; disagree in a shared node but agree alone: {len(polluted)}")
    for o in polluted:
        out.append(f"  {o.scenario} on OTP {o.otp}, in the shared node:")
        out.extend(f"    {line}" for line in (o.changed or o.detail.splitlines())[:12])
    out.append(f"coverage: {len(result.fuzz_cover.rules)} rules, {len(result.fuzz_cover.pairs)} rule pairs "
               f"({len(set(result.fuzz_cover.pairs) - set(result.corpus_cover.pairs))} pairs no case names together)")
    unreached = steer.unreached(result.corpus_cover, result.fuzz_cover)
    named = len(result.corpus_cover.rules)
    out.append(f"rules of the corpus reached: {named - len(unreached)} of {named}"
               + (f" ({100 * (named - len(unreached)) / named:.1f} %)" if named else ""))
    out.append(f"rules of the corpus no scenario reached: {len(unreached)}"
               + (f" ({' '.join(unreached)})" if unreached else ""))
    for number, g in enumerate(result.groups, 1):
        releases = ", ".join(sorted({m.otp for m in g.members}))
        out.append(f"group {number}: {g.status} x{len(g.members)} on OTP {releases}: {'; '.join(g.shape)}")
        if g.minimal_path:
            out.append(f"    minimal: {g.minimal_path} ({len(g.minimal.body) if g.minimal else 0} lines, "
                       f"{g.shrink_runs} live runs to shrink)")
        for line in (g.minimal_changed or g.members[0].changed)[:6]:
            out.append(f"    {line}")
        if g.status != "disagree":
            out.append("    " + g.members[0].detail.splitlines()[0] if g.members[0].detail else "")
    return "\n".join(out) + "\n"


def render_html(result: cp.Campaign) -> str:
    """One self-contained page: counts per release, coverage, the groups with their minimal scenarios."""
    e = html.escape
    rows = "".join(f"<tr><th>OTP {e(otp)}</th>" + "".join(f"<td>{n}</td>" for n in row.values()) + "</tr>"
                   for otp, row in counts(result).items())
    head = "".join(f"<th>{s}</th>" for s in cp.STATUSES)
    speed = throughput(result)
    groups = []
    for number, g in enumerate(result.groups, 1):
        minimal = e(g.minimal_path.read_text()) if g.minimal_path else "(not shrunk)"
        diff = "\n".join(g.minimal_changed or g.members[0].changed) or g.members[0].detail
        groups.append(f"<h3>group {number}: {e(g.status)} x{len(g.members)} "
                      f"(OTP {e(', '.join(sorted({m.otp for m in g.members})))})</h3>"
                      f"<p>{e('; '.join(g.shape))}</p><pre class=diff>{e(diff)}</pre><pre>{minimal}</pre>")
    return (f"<!doctype html><html><head><meta charset=utf-8><title>tcs fuzz seed {result.seed}</title>"
            "<style>body{font-family:sans-serif}td,th{border:1px solid #ccc;padding:2px 6px}"
            "pre{background:#f6f6f6;padding:6px}pre.diff{background:#fff4f4}</style></head><body>"
            f"<h1>tcs fuzz, seed {result.seed}: {len(result.generated)} scenarios</h1>"
            f"<table><tr><th></th>{head}</tr>{rows}</table>"
            f"<p>throughput (scenarios/min): {e(', '.join(f'OTP {k}: {v}' for k, v in speed.items()))}; "
            f"lost results: {result.lost}; polluted: {sum(1 for o in result.outcomes if o.polluted)}</p>"
            f"<p>coverage: {len(result.fuzz_cover.rules)} rules, {len(result.fuzz_cover.pairs)} pairs</p>"
            f"<h2>groups</h2>{''.join(groups) or '<p>none</p>'}</body></html>\n")
