"""`./tcs try FILE.tcs`: any scenario file, through the model and live on every release asked for,
shown side by side. Nothing is written into the source tree: the golden stream comes from the model
on the fly and nodes run in scratch directories (build/ only caches tracer libraries and beams).

Expectations (expectations/otp<N>.toml) are kept per corpus case. They apply only when FILE is that
case's own file in cases/; for any other scenario every difference is shown as it is, and `try`
says so."""
from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from .. import corpus, expectations, node, provision, recorder, rules
from ..results import CaseResult, exit_code
from . import pages, sidebyside
from .sidebyside import Golden, ReleaseView

Say = Callable[[str], None]


def available_spec() -> str:
    """The --otp value of every release this machine can run now without provisioning: the host's, and
    each release whose Debian root is already there (entering a root needs root)."""
    ready = [str(r) for r in provision.SUITES if os.geteuid() == 0 and provision.root_path(r).is_dir()]
    return ",".join(["local", *ready])


def add_otp_argument(parser: argparse.ArgumentParser) -> None:
    """--otp, as `try` and `book` take it: by default every release available."""
    parser.add_argument("--otp", default=None,
                        help="OTP releases, comma-separated (25,27,29), 'all' (provisions missing roots) or "
                             "'local'; default: every release available now (the host's and each "
                             "provisioned root)")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The command line of `./tcs try`."""
    parser.add_argument("file", help="a scenario file (.tcs, the language of cases/README.md), anywhere")
    add_otp_argument(parser)
    parser.add_argument("--html", help="also write the side by side view as one self-contained HTML page")
    parser.add_argument("--explain", action="store_true",
                        help="also print the statement of every rule the golden stream names (CONFORMANCE.md)")
    parser.add_argument("--strict", action="store_true", help="compare informative lines too")


def releases(spec: str | None, say: Say) -> list[node.Otp]:
    """The releases of an --otp value, each checked (or provisioned) in parallel; raises
    node.NoErlang or provision.ProvisionError."""
    spec = spec or available_spec()
    words = [w.strip() for w in spec.split(",") if w.strip()]
    if words in (["all"], ["local"]):
        return provision.otps(words[0], say)
    with ThreadPoolExecutor(max_workers=max(1, len(words))) as pool:
        found = list(pool.map(lambda word: provision.otps(word, say), words))
    return list({otp.name: otp for group in found for otp in group}.values())


@dataclass(frozen=True)
class Tried:
    """A scenario and what each release did with it."""
    case: corpus.Case
    golden: Golden
    results: list[CaseResult]
    views: list[ReleaseView]
    expectation_note: str


def expectation_entries(layout: corpus.Layout, path: Path, case: corpus.Case,
                        otps: list[str]) -> tuple[dict[str, expectations.Expectation], str]:
    """The expectations that apply to a scenario, per release, and a sentence saying which and why."""
    own = layout.cases / f"{case.id}.tcs"
    is_corpus_case = own.is_file() and own.resolve() == path.resolve()
    entries = {otp: entry for otp in otps
               if (entry := expectations.load(expectations.path_for(layout.expectations, otp)).get(case.id))}
    if is_corpus_case:
        listed = ", ".join(f"OTP {otp}" for otp in entries) or "no release"
        return entries, f"expectations: this is corpus case {case.id}; documented differences on {listed}"
    note = (f"expectations: none applied ({path} is not a case of cases/, and expectations are kept per "
            "corpus case): every difference below is shown as it is")
    if entries:
        note += (f"; corpus case {case.id} of the same id has documented differences on "
                 + ", ".join(f"OTP {otp} ({e.where})" for otp, e in entries.items()))
    return {}, note


def run(layout: corpus.Layout, path: Path, otps: list[node.Otp], *, strict: bool) -> Tried:
    """The scenario through the model, then on a fresh node of each release (in parallel).
    Raises corpus.ModelError for a scenario the model refuses (FILE:LINE:COL), recorder.BuildError."""
    case = corpus.load_case(layout, path)
    golden = sidebyside.golden_of(layout, path)
    entries, note = expectation_entries(layout, path, case, [o.name for o in otps])
    include = corpus.host_include()
    runnable = [o for o in otps if corpus.skip_reason(case, o.release) is None]
    job = corpus.job(layout, case, include) if runnable else None

    def on(otp: node.Otp) -> CaseResult:
        reason = corpus.skip_reason(case, otp.release)
        if reason is not None or job is None:
            return CaseResult(case.id, "skip", case.rules, otp.name, reason or "")
        ran = node.run_alone(otp, job, corpus.runner_beams(layout, otp), layout.nifs / "tcs_gate")
        judged = corpus.judge(layout, case, otp, ran, strict=strict, golden=golden.lines)
        return expectations.apply(judged, entries.get(otp.name))

    with ThreadPoolExecutor(max_workers=max(1, len(otps))) as pool:
        results = list(pool.map(on, otps))
    views = [sidebyside.release_view(case, golden, r.otp, r.status, r.detail, r.live, strict=strict)
             for r in results]
    return Tried(case, golden, results, views, note)


def render_text(tried: Tried, path: Path, statements: dict[str, str] | None = None) -> str:
    """The terminal view: the golden stream with one mark column per release and the rules of each
    line, then per release its verdict and, where it differs, the lines that differ."""
    views = tried.views
    head = "  ".join(f"{v.otp:>2}" for v in views)
    width = min(max((len(a.text) for a in tried.golden.annotated), default=0), 90)
    out = [f"{path}: case {tried.case.id} ({', '.join(tried.case.rules)})", tried.expectation_note, "",
           f"{head}  {'GOLDEN STREAM (the model)':<{width}}  RULES"]
    for number, line in enumerate(tried.golden.annotated):
        marks = "  ".join(f"{(v.marks[number] if v.marks else ' '):>2}" for v in views)
        out.append(f"{marks}  {line.text:<{width}}  {' '.join(line.rules)}")
    out.append("")
    out.append("marks: " + "; ".join(f"{m} {what}" for m, what in sidebyside.MARKS.items())
               + "; blank: not run")
    for view, result in zip(views, tried.results):
        out.append("")
        if view.status == "pass":
            out.append(f"OTP {view.otp}: pass, agrees with the model")
            continue
        out.append(f"OTP {view.otp}: {view.status}")
        out += ["  " + text for text in result.detail.rstrip().splitlines()]
        if view.unexpected and view.status != "fail":   # a fail's detail already shows them
            out += ["  lines only the node produced:"] + [f"  +{text}" for text in view.unexpected]
    if statements is not None:
        named = dict.fromkeys(r for line in tried.golden.annotated for r in line.rules)
        out += ["", "RULES"] + [f"{rule}: {statements.get(rule, '(not in CONFORMANCE.md)')}" for rule in named]
    return "\n".join(out) + "\n"


def main(args: argparse.Namespace, layout: corpus.Layout, say: Say,
         write: Callable[[Path, str], None]) -> int:
    """`./tcs try`: 0 every release agrees (or differs as documented, or is skipped), 1 a release
    differs, 2 bad input or a release that cannot run."""
    path = Path(args.file)
    if not path.is_file():
        say(f"{path}:1:1: no such scenario file")
        return 2
    if args.html and not Path(args.html).resolve().parent.is_dir():
        say(f"cannot write {args.html}: no directory {Path(args.html).resolve().parent}")
        return 2
    started = time.monotonic()
    try:
        corpus.load_case(layout, path)   # bad input is reported before any node starts
        otps = releases(args.otp, say)
        say(f"trying {path} on OTP {', '.join(o.name for o in otps)}")
        tried = run(layout, path, otps, strict=args.strict)
    except corpus.ModelError as why:
        print(str(why), file=sys.stderr)
        return 2
    except (node.NoErlang, provision.ProvisionError, recorder.BuildError) as why:
        say(str(why))
        return 2
    statements = rules.catalogue((layout.repo / "CONFORMANCE.md").read_text())
    print(render_text(tried, path, statements if args.explain else None), end="")
    if args.html:
        write(Path(args.html), pages.try_page(tried.case, path, tried.golden, tried.views,
                                              tried.expectation_note, statements))
    say(f"{time.monotonic() - started:.1f}s")
    return exit_code(tried.results)
