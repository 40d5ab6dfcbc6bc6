#!/usr/bin/python3
"""A 10 MB term through the model, the plan reader and a live node: where the time goes.

    /usr/bin/python3 bench/bigterm.py [--runs 3] [--tcsref PATH] [--baseline PATH] [--live 25,27,29]
                                      [--json FILE]

(issue 25, "a 10 MB term runs"). Four scenarios, generated into a temporary directory (never
committed), each sending a 10 MB term from a to b (traced send and receive) and passing it
to a traced call whose match spec returns it (its message and its return value): a binary of
10485760 bytes and a list of 655360 cells, each written as a literal (the binary as 160
segments `0:524288`, the list as 1.3 MB of `0,`) and with the constructors
`binary:copy(<<0>>, 10485760)` and `lists:duplicate(655360, 0)` (cases/README.md "Terms").

For each tcsref (the one built here, and --baseline, e.g. a build of an older commit): the
wall seconds of `tcsref sim` and `tcsref plan` (medians of --runs) and the bytes they wrote,
or how they failed; then the seconds the host's `erl` takes to read each plan with
file:consult/1, as the runner does (tcs_runner.erl), medians of --runs reads in one node.
With --live, `./tcs try` of each constructor scenario on those releases (wall seconds of the
whole command: model, node start, run, comparison). Wall times depend on the machine's load:
compare figures of one run.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MB10 = 10 * 1024 * 1024
CELLS = MB10 // 16  # a list cell is two words on a 64-bit node
TERMS = {
    "binary_literal": "<<" + ",".join(["0:524288"] * (MB10 // 65536)) + ">>",
    "binary_copy": f"binary:copy(<<0>>,{MB10})",
    "list_literal": "[" + ",".join(["0"] * CELLS) + "]",
    "list_duplicate": f"lists:duplicate({CELLS},0)",
}


def scenario(name: str, term: str) -> str:
    """The case text carrying term: sent, received, passed to a call and returned."""
    return (f"case {name}\nrules EV-SEND\ndesc \"a 10 MB term\"\notp 25\nfeatures send\n\ntracer recorder\n\n"
            "process a b\ntrace a on send call\ntrace b on 'receive'\n"
            "pattern tcs_target:id/1 [{['$1'],[],[{return_trace},{message,'$1'}]}] global\n"
            f"a send b {{data,{term}}}\nb recv\na call tcs_target:id({term})\n")


def timed(argv: list[str], out: Path) -> tuple[float, str]:
    """argv's wall seconds with its stdout to out, and '' or how it failed."""
    with out.open("wb") as sink:
        started = time.perf_counter()
        done = subprocess.run(argv, stdout=sink, stderr=subprocess.PIPE)
        wall = time.perf_counter() - started
    if done.returncode < 0:
        return wall, f"killed by signal {-done.returncode}"
    return wall, done.stderr.decode(errors="replace").strip()[:120] if done.returncode else ""


def model_row(binary: str, case: Path, runs: int, plan: Path) -> dict[str, object]:
    """sim and plan of case by binary: median seconds, bytes written, failure; the plan kept at plan."""
    row: dict[str, object] = {}
    for command, out in (("sim", plan.with_suffix(".stream")), ("plan", plan)):
        samples = [timed([binary, command, str(case)], out) for _ in range(runs)]
        row[f"{command}_s"] = statistics.median(wall for wall, _ in samples)
        row[f"{command}_bytes"] = out.stat().st_size
        row[f"{command}_error"] = samples[0][1]
    return row


def consult_seconds(plans: list[Path], runs: int) -> list[float]:
    """The median seconds of file:consult/1 of each plan, read runs times in one node of the host's erl."""
    reads = ",".join(f'"{p}"' for p in plans)
    script = (f"[io:format(\"~p~n\", [lists:nth((1 + {runs}) div 2, lists:sort("
              f"[element(1, timer:tc(file, consult, [F])) || _ <- lists:seq(1, {runs})]))]) "
              f"|| F <- [{reads}]], halt().")
    out = subprocess.run(["erl", "-noshell", "-eval", script], capture_output=True, text=True, check=True).stdout
    return [int(line) / 1e6 for line in out.split()]


def main() -> int:
    args = argparse.ArgumentParser(prog="bench/bigterm.py", description=__doc__.splitlines()[0])
    args.add_argument("--runs", type=int, default=3)
    args.add_argument("--tcsref", default=str(ROOT / "build" / "tcsref"), help="the binary to time")
    args.add_argument("--baseline", help="another tcsref to time alongside, e.g. one of an older commit")
    args.add_argument("--live", help="releases to `./tcs try` the constructor scenarios on, e.g. 25,27,29")
    args.add_argument("--json", help="write the figures to this file as well")
    options = args.parse_args()
    if options.runs < 1:
        args.error("--runs takes at least 1")
    binaries = {"tcsref": options.tcsref, **({"baseline": options.baseline} if options.baseline else {})}
    rows: list[dict[str, object]] = []
    print(f"median of {options.runs} runs, load average {os.getloadavg()[0]:.1f}")
    print(f"{'binary':<9} {'scenario':<15} {'sim s':>7} {'stream KB':>10} {'plan s':>7} {'plan KB':>8} "
          f"{'consult s':>10}  error")
    with tempfile.TemporaryDirectory(prefix="tcs-bench-bigterm-") as tmp:
        directory = Path(tmp)
        for name, binary in binaries.items():
            plans: list[Path] = []
            for scenario_name, term in TERMS.items():
                case = directory / f"{scenario_name}.tcs"
                case.write_text(scenario(scenario_name, term))
                plan = directory / f"{name}-{scenario_name}.plan"
                row = {"binary": name, "scenario": scenario_name,
                       **model_row(binary, case, options.runs, plan)}
                rows.append(row)
                plans.append(plan)
            readable = [(row, plan) for row, plan in zip(rows[-len(TERMS):], plans) if not row["plan_error"]]
            for (row, _), seconds in zip(readable, consult_seconds([p for _, p in readable], options.runs)):
                row["consult_s"] = seconds
            for row in rows[-len(TERMS):]:
                consult = f"{row['consult_s']:>10.2f}" if "consult_s" in row else f"{'-':>10}"
                print(f"{name:<9} {row['scenario']:<15} {row['sim_s']:>7.2f} {row['sim_bytes'] / 1e3:>10.1f} "
                      f"{row['plan_s']:>7.2f} {row['plan_bytes'] / 1e3:>8.1f} {consult}  "
                      f"{row['sim_error'] or row['plan_error']}")
        for scenario_name in ("binary_copy", "list_duplicate") if options.live else ():
            case = directory / f"{scenario_name}.tcs"
            wall, error = timed([str(ROOT / "tcs"), "try", str(case), "--otp", options.live],
                                directory / "try.out")
            rows.append({"binary": "live", "scenario": scenario_name, "try_s": wall, "try_error": error,
                         "passed": (directory / "try.out").read_text().count(": pass")})
            print(f"./tcs try {scenario_name} --otp {options.live}: {wall:.1f} s, "
                  f"{rows[-1]['passed']} release(s) pass {error}")
    print(f"load average after: {os.getloadavg()[0]:.1f}")
    if options.json:
        Path(options.json).write_text(json.dumps({"runs": options.runs, "results": rows}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
