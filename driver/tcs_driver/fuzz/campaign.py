"""A fuzz campaign: generate, check with the model, run live in batches, judge, group, shrink, replay alone.

Each scenario is judged like `./tcs run` judges a case (corpus.judge:
the same comparison, normative lines tracee by tracee). A disagreement or crash
that is exactly the release's own prediction (tcsref sim --release N, where a
clarification defines the release's deviation: tcs_driver/release.py) is `explained`; the others
are grouped by the shape of their differing lines, and the first scenario of each group
is shrunk. Nothing is explained by its shape alone: every clarification that
expectations/otpN.toml records a difference for is predicted for that release (until
seed 20261208 a shape match with an expectation's evidence counted as explained, and it
hid a real disagreement, K3 of seed 20261207).
"""
from __future__ import annotations

import re
import subprocess
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

from .. import corpus, node, stream
from ..results import CaseResult
from ..shard import WHOLE, Shard
from . import gen, shrink, steer

#: How many candidates the generator writes for one scenario (steer.choose keeps one).
CANDIDATES: Final[int] = 3
#: Scenarios one node runs before the next starts: bounds what one case can spoil for the rest.
PER_NODE: Final[int] = 100
#: Scenarios generated and checked by the model together (one `tcsref batch` for their candidates,
#: one for the chosen ones).
GENERATE_CHUNK: Final[int] = 50
#: The fuzz statuses, in report order.
STATUSES: Final[tuple[str, ...]] = ("agree", "explained", "disagree", "refused", "crash", "timeout", "skip")
_STATUS_OF: Final[dict[str, str]] = {"pass": "agree", "deviation": "explained", "fail": "disagree",
                                     "crash": "crash", "timeout": "timeout", "skip": "skip"}


@dataclass
class Generated:
    """One scenario of the campaign, as the model sees it."""
    index: int
    scenario: gen.Scenario
    path: Path
    refused: str = ""                  # the model's message when it refused every candidate
    golden: str = ""
    rules: set[str] = field(default_factory=set)
    case: corpus.Case | None = None
    plan: str = ""                     # what the live runner replays (tcsref plan)


@dataclass
class Outcome:
    """One scenario on one release."""
    scenario: str
    otp: str
    status: str                        # one of STATUSES
    shape: tuple[str, ...] = ()
    changed: list[str] = field(default_factory=list)
    detail: str = ""
    rerun_alone: bool = False
    polluted: bool = False             # disagreed in a shared node, agrees alone


@dataclass
class Group:
    """Disagreements with one shape of differing lines."""
    shape: tuple[str, ...]
    status: str
    members: list[Outcome] = field(default_factory=list)
    minimal: gen.Scenario | None = None
    minimal_path: Path | None = None
    minimal_changed: list[str] = field(default_factory=list)
    shrink_runs: int = 0


@dataclass
class Campaign:
    """Everything a report needs."""
    seed: int
    otps: list[str]
    generated: list[Generated]
    outcomes: list[Outcome]
    groups: list[Group]
    seconds: dict[str, float]          # live wall time per release
    corpus_cover: steer.Coverage
    fuzz_cover: steer.Coverage
    lost: int = 0
    part: Shard = WHOLE                # the shard of the seed's scenarios this campaign ran


def model_run(layout: corpus.Layout, *args: str) -> tuple[int, str, str]:
    """tcsref's exit status, stdout and stderr."""
    done = subprocess.run([str(layout.tcsref), *args], capture_output=True, text=True)
    return done.returncode, done.stdout, done.stderr.strip()


def accepted(layout: corpus.Layout, scenario: gen.Scenario, where: Path) -> bool:
    """Whether the model takes the scenario (written to `where`/<id>.tcs)."""
    path = where / f"{scenario.id}.tcs"
    path.write_text(scenario.text())
    return model_run(layout, "sim", str(path))[0] == 0


def generate(layout: corpus.Layout, seed: int, count: int, where: Path, corpus_cover: steer.Coverage,
             fuzz_cover: steer.Coverage) -> Iterator[Generated]:
    """The campaign's scenarios, each the candidate of its slot that adds most coverage (in order, so
    the same seed gives the same scenarios however they are chunked)."""
    where.mkdir(parents=True, exist_ok=True)
    for start in range(0, count, GENERATE_CHUNK):
        yield from _generate_chunk(layout, seed, range(start, min(count, start + GENERATE_CHUNK)), where,
                                   corpus_cover, fuzz_cover)


def _generate_chunk(layout: corpus.Layout, seed: int, indexes: range, where: Path,
                    corpus_cover: steer.Coverage, fuzz_cover: steer.Coverage) -> list[Generated]:
    """generate() for some slots: every candidate explained by one tcsref batch, the chosen ones
    simulated, described and planned by another. A candidate is written to a directory of its own
    (the candidates of a slot share the case id, and so the file name)."""
    candidates = {(index, variant): gen.scenario(seed, index, variant)
                  for index in indexes for variant in range(CANDIDATES)}
    for (index, variant), scenario in candidates.items():
        place = where / "candidates" / f"v{variant}"
        place.mkdir(parents=True, exist_ok=True)
        (place / f"{scenario.id}.tcs").write_text(scenario.text())
    explained = dict(zip(candidates, corpus.model_batch(layout, [
        ["sim", str(where / "candidates" / f"v{variant}" / f"{scenario.id}.tcs"), "--explain"]
        for (index, variant), scenario in candidates.items()])))
    chosen: list[Generated] = []
    for index in indexes:
        path = where / f"fuzz_{seed}_{index}.tcs"
        answers = [(candidates[index, v], explained[index, v]) for v in range(CANDIDATES)]
        options = [(scenario, steer.explained_rules(out)) for scenario, (status, out) in answers if status == 0]
        if not options:
            refusal = next(out for _, (status, out) in answers if status != 0)
            path.write_text(candidates[index, 0].text())
            chosen.append(Generated(index, candidates[index, 0], path, refused=refusal))
            continue
        scenario, rules = options[steer.choose([o[1] for o in options], corpus_cover, fuzz_cover)]
        fuzz_cover.add(rules)
        path.write_text(scenario.text())
        chosen.append(Generated(index, scenario, path, rules=rules))
    _describe(layout, [g for g in chosen if not g.refused])
    return chosen


def _describe(layout: corpus.Layout, items: list[Generated]) -> None:
    """Fills in each item's golden stream, case metadata and plan from one tcsref batch; an item the
    model refuses there gets the model's message as its refusal instead, and so does one whose stream
    the driver cannot read (a model error, named so: the campaign counts it as refused, a failure,
    and goes on with the others)."""
    answers = corpus.model_batch(layout, [[command, str(g.path)] for g in items for command in ("sim", "meta", "plan")])
    for number, item in enumerate(items):
        (golden, meta, plan) = answers[3 * number:3 * number + 3]
        if refusal := next((text for status, text in (golden, meta, plan) if status != 0), ""):
            item.refused = refusal
            continue
        try:
            stream.parse_stream(golden[1], str(item.path))
        except stream.StreamError as why:
            item.refused = f"model error: the model wrote a stream the driver cannot read: {why}"
            continue
        item.golden, item.plan, item.case = golden[1], plan[1], corpus.case_from_meta(item.path, meta[1])


def shape(changed: list[str]) -> tuple[str, ...]:
    """The shape of a difference: per differing line, its side and what it is (kind, callback, tag, call),
    without the processes and terms it names."""
    kinds: set[str] = set()
    for text in changed:
        sign, body = text[0], text[1:].split(" ", 1)[-1]
        try:
            line = stream.parse_body(body)
        except stream.StreamError:
            kinds.add(f"{sign}?")
            continue
        if line.kind == "ctl":
            call = re.sub(r"<[a-z_:]+>", "<P>", body.split("(", 1)[0])
            outcome = "raises" if " raises " in body else "->"
            kinds.add(f"{sign}ctl {call} {outcome}")
        else:
            kinds.add(f"{sign}{line.kind} {line.callback or ''} {line.tag or ''}".rstrip())
    return tuple(sorted(kinds))


def outcome_of(result: CaseResult) -> Outcome:
    """A judged run as a fuzz outcome."""
    status = _STATUS_OF[result.status]
    form = shape(result.changed) if status == "disagree" else \
        crash_shape(result.detail) if status in ("crash", "timeout") else ()
    return Outcome(result.case, result.otp, status, form, list(result.changed), result.detail, result.rerun_alone)


@dataclass(frozen=True)
class Live:
    """What running scenarios on one release needs."""
    layout: corpus.Layout
    otp: node.Otp
    include: Path
    beams: Path
    gate: Path
    strict: bool = False

    def job(self, item: Generated) -> node.Job:
        assert item.case is not None
        return corpus.job(self.layout, item.case, self.include, item.plan or None)

    def judge(self, item: Generated, ran: node.NodeRun) -> CaseResult:
        """The run against the documents' golden stream; a disagreement or crash is then checked
        against the release's own prediction, where a clarification defines one (corpus.by_prediction)."""
        case = item.case
        assert case is not None
        golden = stream.parse_stream(item.golden, str(item.path))
        result = corpus.judge(self.layout, case, self.otp, ran, strict=self.strict, golden=golden)
        return corpus.by_prediction(self.layout, case, self.otp, ran, result, strict=self.strict)

    def run(self, items: list[Generated], workers: int) -> list[CaseResult]:
        """Runs the items on `workers` nodes side by side, several per node; results in item order.

        A harness error on one item makes that item a crash with the evidence; it never ends the run."""
        # the recorder variants a round needs are compiled `workers` at a time
        with ThreadPoolExecutor(max_workers=max(1, workers)) as pool:
            jobs = list(pool.map(self.job, items))
        runs = node.run_jobs_side_by_side(self.otp, jobs, self.beams, self.gate, per_node=PER_NODE, workers=workers)
        return [self.judge(item, ran) for item, ran in zip(items, runs)]

    def alone(self, item: Generated) -> CaseResult:
        """The item replayed in a fresh node of its own."""
        result = self.judge(item, node.run_alone(self.otp, self.job(item), self.beams, self.gate))
        result.rerun_alone = True
        return result


def live_for(layout: corpus.Layout, otp: node.Otp, include: Path, strict: bool) -> Live:
    """The runner set-up of one release."""
    return Live(layout, otp, include, corpus.runner_beams(layout, otp), layout.nifs / "tcs_gate", strict)


def as_generated(layout: corpus.Layout, scenario: gen.Scenario, where: Path) -> Generated | None:
    """A scenario (a shrinking candidate) with what the model says of it; None when the model refuses it."""
    where.mkdir(parents=True, exist_ok=True)
    path = where / f"{scenario.id}.tcs"
    path.write_text(scenario.text())
    if model_run(layout, "sim", str(path))[0] != 0:
        return None
    item = Generated(-1, scenario, path)
    _describe(layout, [item])
    return None if item.refused else item


def shrink_group(live: Live, group: Group, first: Generated, where: Path, seconds: float, workers: int) -> None:
    """Shrinks the group's first scenario on its release; the minimal one must disagree the same way alone."""
    work = where / f"shrink-{first.scenario.id}-otp{live.otp.name}"
    work.mkdir(parents=True, exist_ok=True)

    def same(result: CaseResult) -> bool:
        found = outcome_of(result)
        return found.status == group.status and found.shape == group.shape

    def reproduce(candidates: list[gen.Scenario]) -> int | None:
        # the candidates share the scenario's case id: each is written to a directory of its own
        items = [as_generated(live.layout, c, work / f"c{i}") for i, c in enumerate(candidates)]
        runnable = [(i, item) for i, item in enumerate(items) if item is not None]
        results = live.run([item for _, item in runnable], workers)
        return next((i for (i, _), r in zip(runnable, results) if same(r)), None)

    def model_accepts(candidate: gen.Scenario) -> bool:
        return accepted(live.layout, candidate, work)

    minimal, runs = shrink.shrink(first.scenario, model_accepts, reproduce, seconds=seconds)
    group.minimal, group.shrink_runs = minimal, runs


def corpus_coverage(layout: corpus.Layout) -> steer.Coverage:
    """The rules the corpus's cases name, from `tcsref meta`."""
    return steer.corpus_coverage(corpus.model_each(layout, corpus.case_paths(layout), "meta"))


def crash_shape(detail: str) -> tuple[str, ...]:
    """What a crash or timeout looks like, without its numbers: the first line of its detail."""
    first = detail.splitlines()[0] if detail else ""
    return (re.sub(r"[0-9]+", "N", first),)


def judge_all(live: Live, items: list[Generated], workers: int) -> list[Outcome]:
    """The items on one release; a disagreement in a shared node is replayed alone, and that run counts."""
    outcomes = [outcome_of(result) for result in live.run(items, workers)]
    again = [i for i, found in enumerate(outcomes) if found.status in ("disagree", "crash", "timeout")]
    # each in a node of its own, `workers` nodes side by side
    with ThreadPoolExecutor(max_workers=max(1, workers)) as pool:
        for i, result in zip(again, pool.map(lambda i: live.alone(items[i]), again)):
            alone = outcome_of(result)
            alone.polluted = alone.status in ("agree", "explained")
            if alone.polluted:  # the evidence of what the shared node did, for the report
                shared = outcomes[i]
                alone.changed = shared.changed
                alone.detail = f"{shared.status} in a shared node, {alone.status} alone: {shared.detail}"
            outcomes[i] = alone
    return outcomes


#: What a campaign resumed from its journal was told there: the outcomes judged (by scenario id and
#: release) and the live seconds per release; what it judges now goes to a recorder of the same.
Judged = dict[tuple[str, str], Outcome]
Recorder = Callable[[list[Outcome], str, float], None]


def run(layout: corpus.Layout, seed: int, otps: list[node.Otp], *, count: int | None, minutes: float | None,
        where: Path, workers: int, shrink_seconds: float, say: Callable[[str], None],
        strict: bool = False, round_size: int = 2 * PER_NODE, part: Shard = WHOLE,
        judged_before: Judged | None = None, seconds_before: dict[str, float] | None = None,
        record: Recorder | None = None) -> Campaign:
    """A whole campaign: rounds of scenarios, each run on every release, then groups shrunk.

    With `part`, only the scenarios of that shard (by index in the seed's sequence, which is generated
    whole: the steering of a slot depends on the slots before it) run live, so the shards of one seed
    together judge what the whole campaign judges. Outcomes in `judged_before` are taken as they are,
    not run again; what the campaign judges is given to `record`, one release's round at a time."""
    include = corpus.host_include()
    corpus_cover, fuzz_cover = corpus_coverage(layout), steer.Coverage()
    lives = {o.name: live_for(layout, o, include, strict) for o in otps}
    deadline = time.monotonic() + minutes * 60 if minutes else None
    limit = count if count is not None else 10**9
    source = generate(layout, seed, limit, where / "scenarios", corpus_cover, fuzz_cover)
    known = dict(judged_before or {})
    generated: list[Generated] = []
    outcomes: list[Outcome] = []
    seconds = {name: (seconds_before or {}).get(name, 0.0) for name in lives}
    slots = 0
    while slots < limit and (deadline is None or time.monotonic() < deadline):
        whole = [g for _, g in zip(range(min(round_size, limit - slots)), source)]
        if not whole:
            break
        slots += len(whole)
        batch = [g for g in whole if part.holds(g.index)]
        generated += batch
        for name, live in lives.items():
            started = time.monotonic()
            new = [g for g in batch if (g.scenario.id, name) not in known]
            runnable = [g for g in new if g.case is not None and corpus.skip_reason(g.case, live.otp.release) is None]
            judged = {id(g): o for g, o in zip(runnable, judge_all(live, runnable, workers))}
            fresh = []
            for g in batch:
                if (g.scenario.id, name) in known:
                    outcomes.append(known[g.scenario.id, name])
                    continue
                if g.refused:
                    fresh.append(Outcome(g.scenario.id, name, "refused", detail=g.refused))
                elif id(g) in judged:
                    fresh.append(judged[id(g)])
                else:
                    fresh.append(Outcome(g.scenario.id, name, "skip",
                                         detail=corpus.skip_reason(g.case, live.otp.release) or ""))
                outcomes.append(fresh[-1])
            spent = time.monotonic() - started
            seconds[name] += spent
            if record is not None and fresh:
                record(fresh, name, spent)
            before = len(batch) - len(fresh)
            say(f"OTP {name}: {len(generated)} scenario(s)" + (f" (shard {part})" if part != WHOLE else "")
                + f" in {seconds[name]:.0f}s" + (f", {before} judged before" if before else "")
                + ": " + progress_counts([o for o in outcomes if o.otp == name]))
    result = Campaign(seed, list(lives), generated, outcomes, group(outcomes), seconds, corpus_cover, fuzz_cover,
                      lost=len(generated) * len(lives) - len(outcomes), part=part)
    if shrink_seconds > 0:
        shrink_groups(layout, result, otps, where, seconds=shrink_seconds, workers=workers, say=say, strict=strict)
    return result


def shrink_groups(layout: corpus.Layout, result: Campaign, otps: list[node.Otp], where: Path, *, seconds: float,
                  workers: int, say: Callable[[str], None], strict: bool = False, most: int | None = None) -> None:
    """Shrinks the first scenario of each group (of the `most` largest only, when given) on its release,
    at most `seconds` each, and confirms the minimal one alone."""
    include = corpus.host_include()
    by_id = {g.scenario.id: g for g in result.generated}
    chosen = result.groups[:most] if most is not None else result.groups
    for number, found in enumerate(chosen, 1):
        first = found.members[0]
        otp = next(o for o in otps if o.name == first.otp)
        live = live_for(layout, otp, include, strict)
        say(f"shrinking group {number}/{len(chosen)} ({found.status} on OTP {first.otp}, "
            f"{len(found.members)} scenario(s))")
        shrink_group(live, found, by_id[first.scenario], where, seconds, workers)
        confirm(live, found, where / "minimal")


def progress_counts(outcomes: list[Outcome]) -> str:
    """The non-zero counts of the outcomes so far, by status."""
    counts = {s: sum(1 for o in outcomes if o.status == s) for s in STATUSES}
    return ", ".join(f"{n} {s}" for s, n in counts.items() if n) or "nothing yet"


def group(outcomes: list[Outcome]) -> list[Group]:
    """The disagreements, crashes and timeouts grouped by status and shape, largest group first."""
    groups: dict[tuple[str, tuple[str, ...]], Group] = {}
    for o in outcomes:
        if o.status in ("disagree", "crash", "timeout"):
            groups.setdefault((o.status, o.shape), Group(o.shape, o.status)).members.append(o)
    return sorted(groups.values(), key=lambda g: (-len(g.members), g.status, g.shape))


def confirm(live: Live, found: Group, where: Path) -> None:
    """Replays the group's minimal scenario alone and keeps the difference it shows there."""
    if found.minimal is None:
        return
    item = as_generated(live.layout, found.minimal, where / found.minimal.id)
    if item is None:
        return
    result = outcome_of(live.alone(item))
    found.minimal_changed = result.changed if result.status == found.status else []
