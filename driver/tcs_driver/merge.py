"""`./tcs merge OUT.json IN.json...`: the JSON reports of shards (`run --shard K/N`, one job of a CI
matrix per release and shard) made into the report one run would have written.

The results are put together and everything derived from them is computed again, by the writer a
run uses (results.to_json): the summaries, the order. Refused (MergeError): a file that is no run
report, reports of different trees (corpus digest, commit), selections (--cases) or comparisons
(--strict), and two results for one case and release with different statuses. The merge is
incomplete, saying why, when an input is, or when a release lacks a shard of its split."""
from __future__ import annotations

import hashlib
import subprocess
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from . import rundiff, textfile
from .layout import Layout
from .results import from_json, sorted_releases, to_json
from .shard import WHOLE, Shard, parse


class MergeError(Exception):
    """Reports that cannot be one run's; the message names the files."""


#: The report fields that say where results come from: equal in every report a merge takes.
SAME_TREE = ("corpus", "commit", "cases", "strict")


def corpus_digest(layout: Layout) -> str:
    """Guarantees: a digest of what decides a run's verdicts in the tree: the cases, their golden
    streams and the expectations (paths and bytes), equal on every machine with the same files."""
    digest = hashlib.sha256()
    for top in (layout.cases, layout.golden, layout.expectations):
        for path in sorted(p for p in top.rglob("*") if p.is_file() and not p.name.startswith(".")):
            digest.update(f"{path.relative_to(top).as_posix()}\0".encode() + path.read_bytes() + b"\0")
    return digest.hexdigest()


def commit(layout: Layout) -> str | None:
    """Guarantees: the git commit of the tree checked out, or None outside a git checkout."""
    done = subprocess.run(["git", "-C", str(layout.repo), "rev-parse", "HEAD"], capture_output=True, text=True)
    return done.stdout.strip() if done.returncode == 0 else None


def provenance(layout: Layout, pattern: str, strict: bool, shard: Shard) -> dict[str, Any]:
    """Guarantees: the fields a run's JSON report carries so that merge can check its shards belong together."""
    return {"corpus": corpus_digest(layout), "commit": commit(layout), "cases": pattern, "strict": strict,
            "shard": str(shard)}


@dataclass(frozen=True)
class Input:
    """One report given to merge."""
    path: Path
    data: dict[str, Any]

    @property
    def shard(self) -> Shard:
        return parse(self.data.get("shard", str(WHOLE)))


    @property
    def is_fuzz(self) -> bool:
        """Whether it is a fuzz campaign's report (./tcs fuzz --json), not a run's."""
        return "seed" in self.data


def load(path: Path) -> Input:
    """Guarantees: a run's JSON report, checked as ./tcs diff checks it, or a fuzz campaign's (with its
    seed and results); MergeError naming the file otherwise."""
    try:
        data = textfile.read_json(path)
        if not (isinstance(data, dict) and "seed" in data and isinstance(data.get("results"), list)):
            rundiff.load(path)
        parse(data.get("shard", str(WHOLE)))
        return Input(path, data)
    except (rundiff.ReportError, textfile.InputError, ValueError) as why:
        raise MergeError(str(why)) from why


def merge(inputs: list[Input]) -> dict[str, Any]:
    """Guarantees: the report one run of every input's releases and shards would have written, or
    MergeError when the inputs cannot come from one run."""
    same = {field: one_value(inputs, field) for field in SAME_TREE}
    results = [from_json(row) for row in union(inputs, "case")]
    otps = sorted_releases(o for given in inputs for o in otps_of(given))
    why = "; ".join(incomplete(inputs, otps))
    return to_json(otps, results, incomplete=why,
                   provenance={**{k: v for k, v in same.items() if v is not None}, "merged": origins(inputs)})


def union(inputs: list[Input], subject: str) -> list[dict[str, Any]]:
    """Guarantees: the result rows of the inputs, one per (subject, release), in the inputs' order;
    MergeError when there are none to merge, when the inputs are not all of one kind (runs or fuzz
    campaigns), or when two give one (subject, release) different statuses."""
    if not inputs:
        raise MergeError("nothing to merge")
    if len({given.is_fuzz for given in inputs}) > 1:
        raise MergeError("a fuzz campaign's report and a run's report: merge the reports of one kind")
    merged: dict[tuple[str, str], tuple[Input, dict[str, Any]]] = {}
    for given in inputs:
        for row in given.data["results"]:
            key = (row[subject], row["otp"])
            if key in merged and merged[key][1]["status"] != row["status"]:
                raise MergeError(f"{row[subject]} on OTP {row['otp']}: {merged[key][1]['status']} in "
                                 f"{merged[key][0].path}, {row['status']} in {given.path}: not one run")
            merged.setdefault(key, (given, row))
    return [row for _, row in merged.values()]


def origins(inputs: list[Input]) -> list[str]:
    """Guarantees: each input's file and shard, as the merged report lists them."""
    return [f"{given.path} (shard {given.shard})" for given in inputs]


def otps_of(given: Input) -> list[str]:
    otp = given.data["otp"]
    return otp if isinstance(otp, list) else [otp]


def one_value(inputs: Iterable[Input], field: str) -> Any:
    """Guarantees: the value every input that has the field gives it (None when none has it);
    MergeError when two differ."""
    seen: dict[str, Path] = {}
    for given in inputs:
        if field in given.data:
            seen.setdefault(repr(given.data[field]), given.path)
    if len(seen) > 1:
        raise MergeError(f"the reports differ in {field!r} ("
                         + "; ".join(f"{value} in {path}" for value, path in seen.items())
                         + "): they are not the shards of one run")
    given_values = [given.data[field] for given in inputs if field in given.data]
    return given_values[0] if given_values else None


def incomplete(inputs: list[Input], otps: list[str]) -> list[str]:
    """Guarantees: why the inputs are not a whole run: inputs cut short, releases with a shard missing
    (or shards of different splits); empty when they are one."""
    why = [f"{given.path}: {given.data.get('incomplete') or 'incomplete'}"
           for given in inputs if given.data.get("complete") is False]
    for otp in otps:
        shards = {given.shard for given in inputs if otp in otps_of(given)}
        if WHOLE in shards:
            continue
        totals = sorted({s.total for s in shards})
        if len(totals) > 1:
            why.append(f"OTP {otp}: shards of different splits ({', '.join(map(str, sorted(shards, key=str)))})")
            continue
        missing = [Shard(k, totals[0]) for k in range(1, totals[0] + 1) if Shard(k, totals[0]) not in shards]
        if missing:
            why.append(f"OTP {otp}: shard {', '.join(map(str, missing))} missing")
    return why
