"""What changed between two runs (./tcs diff OLD.json NEW.json): the check before an OTP upgrade.

Results are paired by (case, release). When each report holds exactly one
release and they differ (a run on the old OTP against a run on the new one),
they are paired by case. Reported: cases newly failing (an OK status before,
pass/deviation/skip, and not now: the regressions), newly passing, other
status changes, cases present on one side only, and live streams that changed
(normative lines, compared tracee by tracee as a run compares; --strict: every
line)."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

from . import diff, stream, textfile
from .results import OK_STATUSES, STATUSES


class ReportError(Exception):
    """A file that is not a tcs JSON report; the message names the file."""


@dataclass(frozen=True)
class Entry:
    """One result of a report."""
    case: str
    otp: str
    status: str
    detail: str
    live: tuple[str, ...]
    lines: tuple[stream.Line, ...]      # live, parsed and checked as a stream


class Report(NamedTuple):
    """A JSON report as load() reads it."""
    otps: list[str]
    entries: list[Entry]
    incomplete: str           # why the run did not complete ('' when it did)


@dataclass
class RunDiff:
    """The changes from an old run to a new one, each list of (key, old entry, new entry)."""
    pairing: str                        # how results were paired, for the reader
    warnings: list[str] = field(default_factory=list)  # what the reader must know first (a report cut short)
    newly_failing: list[tuple[str, Entry | None, Entry]] = field(default_factory=list)
    newly_passing: list[tuple[str, Entry, Entry]] = field(default_factory=list)
    status_changed: list[tuple[str, Entry, Entry]] = field(default_factory=list)
    only_old: list[tuple[str, Entry]] = field(default_factory=list)
    only_new_ok: list[tuple[str, Entry]] = field(default_factory=list)
    streams_changed: list[tuple[str, diff.Comparison]] = field(default_factory=list)
    unchanged: int = 0

    @property
    def regressions(self) -> int:
        return len(self.newly_failing)


def load(path: Path) -> Report:
    """The releases and results of a report written by ./tcs run --json (one release or many,
    complete or cut short by Ctrl-C); ReportError for any other file, whatever its bytes."""
    try:
        data: Any = textfile.read_json(path)
    except textfile.InputError as why:
        raise ReportError(str(why)) from why
    if not isinstance(data, dict) or not isinstance(data.get("results"), list) or "otp" not in data:
        raise ReportError(f"{path}: not a tcs results report (expected an object with 'otp' and 'results', "
                          "as ./tcs run --json writes)")
    otps = data["otp"] if isinstance(data["otp"], list) else [data["otp"]]
    if not all(isinstance(o, str) for o in otps):
        raise ReportError(f"{path}: 'otp' is not a list of release names")
    entries = []
    for number, row in enumerate(data["results"], 1):
        if not (isinstance(row, dict) and all(isinstance(row.get(k), str) for k in ("case", "status", "otp"))
                and row["status"] in STATUSES and isinstance(row.get("detail", ""), str)):
            raise ReportError(f"{path}: result {number} is not a case result (needs 'case', 'otp', a "
                              f"'status' among {', '.join(STATUSES)} and a text 'detail')")
        live = row.get("live", [])
        if not isinstance(live, list) or not all(isinstance(x, str) for x in live):
            raise ReportError(f"{path}: result {number} ({row['case']}): 'live' is not a list of lines")
        where = f"{path}: result {number} ({row['case']}, OTP {row['otp']})"
        try:
            lines = stream.parse_classed_lines([(f"{where}: live line {n}", text) for n, text in enumerate(live, 1)])
        except stream.StreamError as why:
            raise ReportError(str(why)) from why
        entries.append(Entry(row["case"], row["otp"], row["status"], row.get("detail", ""), tuple(live),
                             tuple(lines)))
    incomplete = "" if data.get("complete", True) is not False else str(data.get("incomplete") or "interrupted")
    return Report(otps, entries, incomplete)


def compare(old: Report, new: Report, *, strict: bool = False) -> RunDiff:
    """The changes from the old report to the new one."""
    (old_otps, old_entries, _), (new_otps, new_entries, _) = old, new
    by_case = len(old_otps) == 1 and len(new_otps) == 1 and old_otps != new_otps
    if by_case:
        pairing = f"case by case, OTP {old_otps[0]} (old) against OTP {new_otps[0]} (new)"
    else:
        pairing = "by case and release"

    def key(e: Entry) -> str:
        return e.case if by_case else f"{e.case} (OTP {e.otp})"

    before = {key(e): e for e in old_entries}
    after = {key(e): e for e in new_entries}
    out = RunDiff(pairing, [f"the {side} report is incomplete ({report.incomplete}): cases it lacks were not run"
                            for side, report in (("old", old), ("new", new)) if report.incomplete])
    for k in sorted(before.keys() - after.keys()):
        out.only_old.append((k, before[k]))
    for k in sorted(after):
        now, then = after[k], before.get(k)
        if then is None:
            if now.status in OK_STATUSES:
                out.only_new_ok.append((k, now))
            else:
                out.newly_failing.append((k, None, now))
            continue
        was_ok, is_ok = then.status in OK_STATUSES, now.status in OK_STATUSES
        if was_ok and not is_ok:
            out.newly_failing.append((k, then, now))
        elif is_ok and not was_ok:
            out.newly_passing.append((k, then, now))
        elif then.status != now.status:
            out.status_changed.append((k, then, now))
        streams = diff.compare(list(then.lines), list(now.lines), strict=strict, observable=diff.ALL_KINDS)
        if not streams.agree:
            out.streams_changed.append((k, streams))
        elif then.status == now.status:
            out.unchanged += 1
    return out


def render(d: RunDiff) -> str:
    """The changes as text for a terminal, most important first."""
    out = [f"warning: {text}" for text in d.warnings] + [f"paired {d.pairing}"]

    def section(title: str, rows: list[str]) -> None:
        if rows:
            out.append("")
            out.append(f"{title} ({len(rows)}):")
            out.extend(rows)

    section("NEWLY FAILING (regressions)", [
        f"  {k}: {then.status if then else 'absent'} -> {now.status}" + _first(now.detail)
        for k, then, now in d.newly_failing])
    section("newly passing", [f"  {k}: {then.status} -> {now.status}" for k, then, now in d.newly_passing])
    section("status changed", [f"  {k}: {then.status} -> {now.status}" for k, then, now in d.status_changed])
    section("only in the old run", [f"  {k}: {e.status}" for k, e in d.only_old])
    section("only in the new run", [f"  {k}: {e.status}" for k, e in d.only_new_ok])
    rows = []
    for k, comparison in d.streams_changed:
        rows.append(f"  {k}:")
        rows.extend("    " + line for line in comparison.render().rstrip("\n").splitlines()[2:]
                    if not line.startswith(("AGREE", "DIFFER")))
    section("live streams changed ('-' old, '+' new)", rows)
    out.append("")
    out.append(f"{d.regressions} newly failing, {len(d.newly_passing)} newly passing, "
               f"{len(d.status_changed)} other status changes, {len(d.streams_changed)} streams changed, "
               f"{d.unchanged} unchanged")
    return "\n".join(out) + "\n"


def _first(detail: str) -> str:
    return f"  ({detail.splitlines()[0]})" if detail.strip() else ""
