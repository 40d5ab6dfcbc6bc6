"""`./tcs merge` of fuzz campaigns' JSON reports: the shards of one seed (`./tcs fuzz --shard K/N`,
one CI job each) as the report of its whole campaign.

The outcomes are put together; the counts, throughput, groups and lost results are computed again
by the campaign's own report writer (report.to_json). The coverage is the one every shard reports
(each shard generates the seed's whole sequence: it is the same); shards of campaigns of different
lengths (--minutes) report different coverage and are refused. A group's minimal scenario is the one
a shard shrank for the same shape, when one did."""
from __future__ import annotations

from typing import Any

from ..merge import Input, MergeError, incomplete, one_value, origins, otps_of, union
from ..results import sorted_releases
from . import campaign as cp
from . import report, steer

#: The fields every shard of one campaign reports alike.
SAME_CAMPAIGN = ("seed", "coverage")


def merge(inputs: list[Input]) -> tuple[dict[str, Any], cp.Campaign]:
    """Guarantees: the JSON report of the campaign the inputs are shards of, and that campaign as far as
    the reports tell it (its outcomes, groups, seconds: what its JUnit XML needs); MergeError when they
    cannot be one campaign's."""
    seed = one_value(inputs, "seed")
    coverage = one_value(inputs, "coverage")
    otps = sorted_releases(o for given in inputs for o in otps_of(given))
    order = {otp: n for n, otp in enumerate(otps)}
    try:
        rows = sorted(union(inputs, "scenario"), key=lambda row: (_index(row["scenario"]), order[row["otp"]]))
        outcomes = [cp.Outcome(row["scenario"], row["otp"], row["status"], tuple(row["shape"]),
                               list(row["changed"]), row["detail"], row["rerun_alone"], row["polluted"])
                    for row in rows]
    except (KeyError, TypeError, ValueError, IndexError) as why:
        raise MergeError(f"a result is not a fuzz outcome (its {why} is missing or malformed): "
                         "merge takes the reports of ./tcs fuzz --json") from why
    seconds = {otp: sum(given.data.get("seconds", {}).get(otp, 0.0) for given in inputs) for otp in otps}
    campaign = cp.Campaign(seed, otps, [], outcomes, cp.group(outcomes), seconds, steer.Coverage(),
                           steer.Coverage(), lost=sum(given.data.get("lost", 0) for given in inputs))
    merged = report.to_json(campaign)
    why = "; ".join(incomplete(inputs, otps))
    minimal = _minimal_cases(inputs)
    for found in merged["groups"]:
        found.update(minimal.get((found["status"], tuple(found["shape"])), {}))
    merged.update({"shard": "1/1", "scenarios": len({row["scenario"] for row in rows}), "coverage": coverage,
                   "complete": not why, **({"incomplete": why} if why else {}), "merged": origins(inputs)})
    return merged, campaign


def _index(scenario: str) -> int:
    """A scenario's index in its seed's sequence, from its id fuzz_SEED_INDEX."""
    return int(scenario.rsplit("_", 1)[1])


def _minimal_cases(inputs: list[Input]) -> dict[tuple[str, tuple[str, ...]], dict[str, Any]]:
    """Per group (status, shape), the minimal scenario the first shard that shrank one found."""
    found: dict[tuple[str, tuple[str, ...]], dict[str, Any]] = {}
    for given in inputs:
        for g in given.data.get("groups", []):
            if g.get("minimal_text"):
                found.setdefault((g["status"], tuple(g["shape"])),
                                 {k: g[k] for k in ("minimal", "minimal_text", "minimal_changed", "shrink_runs")})
    return found
