"""`./tcs fuzz`: the command line of a fuzz campaign."""
from __future__ import annotations

import argparse
import json
import os
import tempfile
from collections.abc import Callable
from pathlib import Path

from .. import corpus, junit, node, provision, shard
from . import campaign, journal, report


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The options of ./tcs fuzz."""
    p.description = ("Differential fuzzing: random valid scenarios, the model's golden stream against live OTP "
                     "nodes; every disagreement shrunk to a minimal case, grouped by the shape of its differing "
                     "lines. Exit 0 when nothing disagrees beyond documented deviations, nothing crashed, timed "
                     "out, was refused or got lost; 1 otherwise; 2 for bad input.")
    p.add_argument("--seed", type=int, default=1, help="the campaign's seed: the same seed gives the same "
                   "scenarios, byte for byte (default 1)")
    size = p.add_mutually_exclusive_group()
    size.add_argument("--count", type=int, help="how many scenarios (default 200)")
    size.add_argument("--minutes", type=float, help="generate and run scenarios for about this long instead")
    p.add_argument("--otp", default="local", help=provision.OTP_HELP)
    p.add_argument("--json", help="write the campaign as JSON to this file")
    p.add_argument("--html", help="write a self-contained HTML report to this file")
    p.add_argument("--junit", help="write JUnit XML for CI to this file (a testcase per scenario and release)")
    p.add_argument("--out", help="write each group's minimal scenario here as a ready .tcs case, and the "
                   "campaign's journal: the same command run again goes on where it stopped (scenarios "
                   "judged on a release are not run again)")
    shard.add_argument(p, "the seed's scenarios (by index: the shards of a seed together are its campaign)")
    p.add_argument("--workers", type=int, default=max(1, min(2, os.cpu_count() or 1)),
                   help="nodes side by side per release (default: 2, or 1 on a one-core machine)")
    p.add_argument("--shrink-seconds", type=float, default=90.0,
                   help="time budget for shrinking each group (default 90)")
    p.add_argument("--strict", action="store_true", help="compare informative lines too")
    p.add_argument("--model-only", action="store_true",
                   help="generate and check the scenarios with the model alone, no live node (--otp is "
                   "ignored): the report's reach, the rules no scenario reached, and the model's refusals")


def exit_status(result: campaign.Campaign) -> int:
    """0 when every scenario agreed or differed in a documented way, the model took every one and none
    was lost, else 1."""
    bad = {"disagree", "refused", "crash", "timeout"}
    refused = any(g.refused for g in result.generated)     # also where no release ran (--model-only)
    return 1 if result.lost or refused or any(o.status in bad or o.polluted for o in result.outcomes) else 0


def main(args: argparse.Namespace, where: corpus.Layout, otps: list[node.Otp],
         say: Callable[[str], None], write: Callable[[Path, str], None]) -> int:
    """Runs a campaign and writes its reports."""
    if args.count is not None and args.count < 1 or args.minutes is not None and args.minutes <= 0:
        say("--count and --minutes must be positive")
        return 2
    for target in filter(None, (args.json, args.html, args.junit)):
        if not Path(target).resolve().parent.is_dir():
            say(f"cannot write {target}: no directory {Path(target).resolve().parent}")
            return 2
    count = args.count if args.count is not None or args.minutes is not None else 200
    past: journal.Journal | None = None
    if args.out:
        try:
            past = journal.open_journal(Path(args.out), args.seed, args.shard, args.strict)
        except (journal.JournalError, OSError) as why:
            say(str(why))
            return 2
        if past.judged:
            say(f"resuming from {past.path}: {len(past.judged)} outcome(s) judged before")
    work = Path(tempfile.mkdtemp(prefix=f"fuzz-{args.seed}-", dir=where.build))
    say(f"seed {args.seed}: scenarios in {work / 'scenarios'}")
    result = campaign.run(where, args.seed, otps, count=count, minutes=args.minutes, where=work,
                          workers=max(1, args.workers), shrink_seconds=args.shrink_seconds, say=say,
                          strict=args.strict, part=args.shard,
                          judged_before=past.judged if past else None, seconds_before=past.seconds if past else None,
                          record=past.record if past else None)
    out = Path(args.out) if args.out else work / "minimal-cases"
    paths = report.write_minimal(where, result, out)
    if paths:
        say(f"{len(paths)} minimal case(s) in {out}")
    print(report.render_text(result), end="")
    if args.json:
        write(Path(args.json), json.dumps(report.to_json(result), indent=2) + "\n")
    if args.html:
        write(Path(args.html), report.render_html(result))
    if args.junit:
        write(Path(args.junit), junit.render(f"tcs fuzz seed {args.seed}", report.junit_cases(result)))
    return exit_status(result)
