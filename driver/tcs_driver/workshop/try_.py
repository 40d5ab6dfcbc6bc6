"""`./tcs try FILE.tcs`: any scenario file, through the model and live on every release asked for,
shown side by side. Nothing is written into the source tree: the golden stream comes from the model
on the fly and nodes run in scratch directories (build/ only caches tracer libraries and beams).

Expectations (expectations/otp<N>.toml) are kept per corpus case. They apply only when FILE is that
case's own file in cases/; for any other scenario every difference is shown as it is, and `try`
says so."""
from __future__ import annotations

import argparse
import functools
import os
import sys
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from .. import conformance, corpus, expectations, node, provision, recorder, rules
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
    parser.add_argument("file", help="a scenario file (.tcs, the language of cases/README.md; its case id is "
                                     "its file name), anywhere")
    add_otp_argument(parser)
    parser.add_argument("--html", help="also write the side by side view as one self-contained HTML page")
    parser.add_argument("--explain", action="store_true",
                        help="also print the statement of every rule the golden stream names (conformance/)")
    parser.add_argument("--strict", action="store_true", help="compare informative lines too")


#: A release to run on: ready, or how to make it ready (its root checked, or provisioned).
Release = node.Otp | Callable[[], node.Otp]


def releases(spec: str | None, say: Say) -> tuple[list[Release], Path]:
    """The releases of an --otp value and the host OTP's NIF headers. The host's release is ready;
    the others are made ready as their run starts, so that checking a root (a node started in it)
    overlaps the other releases' runs. Raises node.NoErlang, or provision.ProvisionError for a word
    that is no release (a release without a root raises it when made ready)."""
    host, host_release, include = node.probe_local()
    spec = spec or available_spec()
    wanted: list[int] = []
    for word in (w.strip() for w in spec.split(",") if w.strip()):
        if not (word in ("local", "all") or word.isdigit()):
            raise provision.ProvisionError(f"--otp {spec}: {word!r} is not a release number "
                                           "(use e.g. 25,27,29, 'all' or 'local')")
        wanted += ([host_release] if word == "local" else sorted({host_release, *provision.SUITES})
                   if word == "all" else [int(word)])
    return [host if release == host_release else functools.partial(provision.otp, release, say)
            for release in dict.fromkeys(wanted)], include


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
    own = layout.case_file(case.id)
    is_corpus_case = own.is_file() and own.resolve() == path.resolve()
    entries = {otp: entry for otp in otps
               if (entry := expectations.load(expectations.path_for(layout.expectations, otp)).get(case.id))}
    if is_corpus_case:
        listed = ", ".join(f"OTP {otp}" for otp in entries) or "no release"
        return entries, f"expectations: this is corpus case {case.id}; documented differences on {listed}"
    note = (f"expectations: none applied ({path} is not a case of cases/, and expectations are kept per "
            "corpus case); each release's own prediction applies to it, as to any scenario")
    if entries:
        note += (f"; corpus case {case.id} of the same id has documented differences on "
                 + ", ".join(f"OTP {otp} ({e.where})" for otp, e in entries.items()))
    return {}, note


def run(layout: corpus.Layout, path: Path, otps: list[Release], *, strict: bool,
        include: Path | None = None) -> Tried:
    """The scenario through the model, then on a fresh node of each release (in parallel); tracer
    libraries are built against `include` (default: the host OTP's NIF headers, as for a run).
    Raises corpus.ModelError for a scenario the model refuses (FILE:LINE:COL), recorder.BuildError,
    provision.ProvisionError for a release that cannot be made ready."""
    case = corpus.load_case(layout, path)
    golden = sidebyside.golden_of(layout, path)
    job = corpus.job(layout, case, include or corpus.host_include())

    def on(release: Release) -> CaseResult:
        otp = release if isinstance(release, node.Otp) else release()
        reason = corpus.skip_reason(case, otp.release)
        if reason is not None:
            return CaseResult(case.id, "skip", case.rules, otp.name, reason)
        ran = node.run_alone(otp, job, corpus.runner_beams(layout, otp), layout.nifs / "tcs_gate")
        return corpus.judged(layout, case, otp, ran, expectation_entries(layout, path, case, [otp.name])[0].get(otp.name),
                             strict=strict, golden=golden.lines)

    with ThreadPoolExecutor(max_workers=max(1, len(otps))) as pool:
        results = list(pool.map(on, otps))
    views = [sidebyside.release_view(case, golden, r.otp, r.status, r.detail, r.live, strict=strict)
             for r in results]
    return Tried(case, golden, results, views, expectation_entries(layout, path, case, [r.otp for r in results])[1])


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
        out.append(f"OTP {view.otp}: {result.verdict()}")
        out += ["  " + text for text in result.detail.rstrip().splitlines()]
        if view.unexpected and view.status != "fail":   # a fail's detail already shows them
            out += ["  lines only the node produced:"] + [f"  +{text}" for text in view.unexpected]
    if statements is not None:
        named = dict.fromkeys(r for line in tried.golden.annotated for r in line.rules)
        out += ["", "RULES"] + [f"{rule}: {statements.get(rule, '(not in the catalogue)')}" for rule in named]
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
        otps, include = releases(args.otp, say)
        say(f"trying {path}")
        tried = run(layout, path, otps, strict=args.strict, include=include)
    except corpus.ModelError as why:
        print(str(why), file=sys.stderr)
        return 2
    except (node.NoErlang, provision.ProvisionError, recorder.BuildError) as why:
        say(str(why))
        return 2
    statements = rules.catalogue(conformance.text(layout.repo))
    print(render_text(tried, path, statements if args.explain else None), end="")
    if args.html:
        write(Path(args.html), pages.try_page(tried.case, path, tried.golden, tried.views,
                                              tried.expectation_note, statements))
    say(f"{time.monotonic() - started:.1f}s")
    return exit_code(tried.results)
