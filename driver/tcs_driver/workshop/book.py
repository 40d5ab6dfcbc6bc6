"""`./tcs book OUT_DIR`: the rules as a static site for a spec clarification workshop.

Generated from the catalogue (the areas of conformance/ that CONFORMANCE.md lists: rules, their
sources and model functions, clarifications), the cases (scenario, golden stream annotated by the
model's --explain), the expectations and the results per release. Plain HTML and CSS, one small
inline script for the search: it works from the file system, offline, with nothing loaded from
elsewhere. Everything is derived from the tree as it is, so new rules, cases and releases appear
without a change here."""
from __future__ import annotations

import argparse
import json
import re
import shutil
import tempfile
import time
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from html import escape
from pathlib import Path
from typing import Final

from .. import conformance, corpus, expectations, node, provision, recorder, rules, rundiff, stream
from ..report_html import cell_class
from ..results import STATUSES, CaseResult, counts_text, releases
from . import markdown, pages, sidebyside, try_
from .sidebyside import Golden, ReleaseView

DESCRIPTION: Final[str] = (
    "Write a static, self-contained site (plain HTML/CSS, offline, no server) into OUT_DIR: the release "
    "matrix (rules x releases) as its index, a page per rule (statement, quoted sentence and document, "
    "model function, clarifications, each case with its scenario, golden stream annotated line by line "
    "and verdict per release), a page per clarification, and a search box. The verdicts come from "
    "--results FILE (reports of ./tcs run --json; a later file wins for the same case and release) or, "
    "without --results, from running the whole corpus now on the releases of --otp.")
#: Marks a directory as a book, so that building again may replace it.
MARKER: Final[str] = ".tcs-book"
#: A result the book has no entry for (a release not run for that case).
NO_RESULT: Final[str] = "no result"

Say = Callable[[str], None]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The command line of `./tcs book`."""
    parser.add_argument("out_dir", help="the directory to write the site into (made, or replaced if it "
                                        "holds an earlier book)")
    try_.add_otp_argument(parser)
    parser.add_argument("--results", action="append", metavar="FILE",
                        help="take the verdicts from this JSON report of ./tcs run --json instead of running "
                             "the corpus (repeatable; with --otp, only those releases are shown)")
    parser.add_argument("--cases", default="*",
                        help="without --results, run only the cases whose id matches this shell pattern "
                             "(default: all; the others are shown without verdicts)")


@dataclass(frozen=True)
class Rule:
    """A row of the rule catalogue."""
    id: str
    section: str
    statement: str
    source: str
    model: str


@dataclass(frozen=True)
class Clarification:
    """A clarification of an area of conformance/."""
    id: str          # C-12
    title: str
    body: str        # Markdown


@dataclass(frozen=True)
class Catalogue:
    """What the book takes from the catalogue."""
    documents: dict[str, str]            # "000" -> what it is
    rules: list[Rule]
    clarifications: list[Clarification]
    implementation_defined: list[list[str]]   # table rows: what is open, the model, what OTP does


_CLARIFICATION = re.compile(r"###\s+(C-\d+):\s*(.*)")
_HEADING = re.compile(r"(#{1,6})\s+(.*)")
_DOCUMENT = re.compile(r"`(\d{3})`\s+(?:is\s+`([^`]+)`\s+\(([^)]*)\)|(the\s(?:[^,.`]|`[^`]*`)*))")


def read_catalogue(text: str) -> Catalogue:
    """The rules, clarifications, documents and implementation-defined rows of the catalogue
    (conformance.text: the index's preamble and the area files)."""
    ids = rules.catalogue(text)
    documents = {m.group(1): (f"{m.group(3)} ({m.group(2)})" if m.group(2) else m.group(4)).strip()
                 for m in _DOCUMENT.finditer(text.split("\n## ", 1)[0])}
    found: list[Rule] = []
    clarifications: list[Clarification] = []
    implementation_defined: list[list[str]] = []
    section, open_clarification, body, row_number = "", None, [], 0
    lines = text.splitlines()
    for line in lines + ["## end"]:
        row_number = row_number + 1 if line.startswith("|") else 0   # 1: a table's header, 2: its rule
        heading = _HEADING.match(line)
        if heading and len(heading.group(1)) <= 3 and open_clarification:
            clarifications.append(Clarification(*open_clarification, "\n".join(body).strip()))
            open_clarification = None
        if heading:
            section = heading.group(2)
            if clar := _CLARIFICATION.match(line):
                open_clarification, body = (clar.group(1), clar.group(2)), []
            continue
        if open_clarification:
            body.append(line)
        elif line.startswith("|"):
            cells = markdown.table_cells(line)
            if cells[0] in ids and len(cells) >= 4:
                found.append(Rule(cells[0], section, cells[1], cells[2], cells[3]))
            elif "implementation-defined" in section.lower() and len(cells) >= 3 and row_number > 2:
                implementation_defined.append(cells)
    return Catalogue(documents, found, clarifications, implementation_defined)


@dataclass(frozen=True)
class CaseView:
    """A case with its scenario, annotated golden stream and what each release did."""
    case: corpus.Case
    scenario: str
    golden: Golden
    views: list[ReleaseView]


def load_cases(layout: corpus.Layout) -> list[tuple[corpus.Case, str, Golden]]:
    """Every case of cases/ with its scenario text and annotated golden stream (from the model)."""
    def one(path: Path) -> tuple[corpus.Case, str, Golden]:
        return corpus.load_case(layout, path), path.read_text(), sidebyside.golden_of(layout, path)
    with ThreadPoolExecutor(max_workers=4) as pool:
        return list(pool.map(one, corpus.case_paths(layout)))


def case_views(loaded: list[tuple[corpus.Case, str, Golden]], results: list[rundiff.Entry],
               otps: list[str]) -> list[CaseView]:
    """Each case's release views from the results (a case without a result on a release says so)."""
    by_key = {(r.case, r.otp): r for r in results}
    out = []
    for case, scenario, golden in loaded:
        views = []
        for otp in otps:
            got = by_key.get((case.id, otp))
            views.append(ReleaseView(otp, NO_RESULT, f"the results hold no run of {case.id} on OTP {otp}")
                         if got is None else
                         sidebyside.release_view(case, golden, otp, got.status, got.detail, list(got.live)))
        out.append(CaseView(case, scenario, golden, views))
    return out


class Book:
    """The pages of the book, each a path relative to its top and its HTML."""

    def __init__(self, catalogue: Catalogue, cases: list[CaseView], otps: list[str],
                 expected: dict[str, dict[str, expectations.Expectation]], origin: str) -> None:
        self.catalogue, self.cases, self.otps, self.expected, self.origin = catalogue, cases, otps, expected, origin
        self.rule_ids = {r.id for r in catalogue.rules}
        self.clarification_ids = {c.id for c in catalogue.clarifications}
        self.cases_of: dict[str, list[CaseView]] = {r.id: [] for r in catalogue.rules}
        for view in cases:
            for rule in dict.fromkeys(view.case.rules):
                if rule in self.cases_of:
                    self.cases_of[rule].append(view)
        # A case is shown on the page of each rule it names; its home is the first of them.
        self.case_home = {v.case.id: next(r for r in v.case.rules if r in self.rule_ids)
                          for v in cases if any(r in self.rule_ids for r in v.case.rules)}
        self.clarifications_of = {r.id: self._clarifications_of(r) for r in catalogue.rules}

    def _clarifications_of(self, rule: Rule) -> list[Clarification]:
        """The clarifications a rule's row names, and those whose text names the rule."""
        row = f"{rule.statement} {rule.source} {rule.model}"
        named = set(re.findall(r"\bC-\d+\b", row))
        return [c for c in self.catalogue.clarifications
                if c.id in named or re.search(rf"(?<![\w-]){re.escape(rule.id)}(?![\w-])", c.body)]

    def link(self, root: str) -> markdown.Linker:
        """Where a word goes from a page `root` away from the top: a rule, a clarification, a case."""
        def href(word: str) -> str | None:
            if word in self.rule_ids:
                return f"{root}rules/{word}.html"
            if word in self.clarification_ids:
                return f"{root}clarifications/{word}.html"
            if word in self.case_home:
                return f"{root}rules/{self.case_home[word]}.html#case-{word}"
            return None
        return href

    def pages(self) -> dict[str, str]:
        """Every page of the book."""
        out = {"index.html": self.index()}
        out |= {f"rules/{rule.id}.html": self.rule_page(rule) for rule in self.catalogue.rules}
        out |= {f"clarifications/{c.id}.html": self.clarification_page(c) for c in self.catalogue.clarifications}
        return out

    # -- the index ------------------------------------------------------------------------------

    def counts(self, rule: str, otp: str) -> dict[str, int]:
        """The statuses of a rule's cases on a release."""
        counts = dict.fromkeys([*STATUSES, NO_RESULT], 0)
        for view in self.cases_of[rule]:
            counts[next(v.status for v in view.views if v.otp == otp)] += 1
        return counts

    def index(self) -> str:
        """The index: the release matrix (each cell linked to the rule's verdicts on that release),
        the search's results, the clarifications."""
        link = self.link("")
        head = ("<tr><th>rule</th><th>cases</th>" + "".join(f"<th>OTP {escape(o)}</th>" for o in self.otps)
                + "<th>clarifications</th></tr>")
        rows, section = [], None
        for rule in self.catalogue.rules:
            if rule.section != section:
                section = rule.section
                rows.append(f'<tr class="section"><th colspan="{len(self.otps) + 3}">'
                            f"{markdown.inline(section, link)}</th></tr>")
            cells = []
            for otp in self.otps:
                counts = self.counts(rule.id, otp)
                cells.append(f'<td class="{_cell_class(counts)}" '
                             f'data-rule="{escape(rule.id)}" data-otp="{escape(otp)}">'
                             f'<a href="rules/{escape(rule.id)}.html#otp-{escape(otp)}">'
                             f"{escape(counts_text(counts))}</a></td>")
            clar = " ".join(f'<a href="clarifications/{c.id}.html">{c.id}</a>' for c in self.clarifications_of[rule.id])
            rows.append(f'<tr><th><a href="rules/{escape(rule.id)}.html" title="{escape(_plain(rule.statement))}">'
                        f"{escape(rule.id)}</a></th><td>{len(self.cases_of[rule.id])}</td>{''.join(cells)}"
                        f"<td>{clar}</td></tr>")
        clarifications = "".join(f'<li><a href="clarifications/{c.id}.html">{c.id}</a>: '
                                 f"{markdown.inline(c.title, lambda w: None)}</li>"
                                 for c in self.catalogue.clarifications)
        body = (f"<h1>The erl_tracer rules, their cases and what each release does</h1>"
                f'<p class="note">{len(self.catalogue.rules)} rules, {len(self.cases)} cases, '
                f"{len(self.catalogue.clarifications)} clarifications; releases: "
                f"{', '.join('OTP ' + o for o in self.otps) or 'none'}. Verdicts: {escape(self.origin)}.</p>"
                '<section id="search"><h2>Search</h2><p id="search-status">Type in the box at the top: a rule ID, '
                "a tag, a callback, or a word of a rule's sentence.</p><ol id=\"search-results\"></ol></section>"
                '<h2 id="matrix">Rules &times; releases</h2><p>Each cell: the verdicts of the rule\'s cases on '
                "that release; it links to them.</p>"
                f'<div class="scroll"><table class="matrix" id="rule-matrix">{head}{"".join(rows)}</table></div>'
                f'<h2 id="clarifications">Clarifications</h2><ul>{clarifications}</ul>')
        return pages.page("tcs: the erl_tracer rules", body, root="", script=self.search_script())

    def search_entries(self) -> list[dict[str, str]]:
        """What the search looks through: per rule its ID, statement, sentence, model, tags (feature tags
        of its cases, trace tags of its lines) and callbacks; per clarification its title and text."""
        entries = []
        for rule in self.catalogue.rules:
            tags, callbacks = set(), set()
            for view in self.cases_of[rule.id]:
                tags |= set(view.case.features)
                for annotated, line in zip(view.golden.annotated, view.golden.lines):
                    if rule.id in annotated.rules:
                        tags |= {line.tag} if line.tag else set()
                        callbacks |= {line.callback} if line.callback else set()
            words = " ".join([rule.id, rule.section, rule.statement, rule.source, rule.model,
                              *sorted(tags), *sorted(callbacks)])
            entries.append({"id": rule.id, "href": f"rules/{rule.id}.html", "title": _plain(rule.statement),
                            "tags": " ".join(sorted(tags)), "callbacks": " ".join(sorted(callbacks)),
                            "hay": _plain(words).lower()})
        for c in self.catalogue.clarifications:
            entries.append({"id": c.id, "href": f"clarifications/{c.id}.html", "title": _plain(c.title),
                            "tags": "", "callbacks": "", "hay": _plain(f"{c.id} {c.title} {c.body}").lower()})
        return entries

    def search_script(self) -> str:
        """The search: its index embedded as JSON, and the script that runs it on the index page."""
        data = json.dumps(self.search_entries(), separators=(",", ":")).replace("</", "<\\/")
        return f'<script type="application/json" id="search-index">{data}</script><script>{SEARCH_JS}</script>'

    # -- a rule ---------------------------------------------------------------------------------

    def rule_page(self, rule: Rule) -> str:
        """A rule: its row of the catalogue, its clarifications, its verdicts per release, its cases."""
        link = self.link("../")
        documents = "".join(f"<li><code>{escape(code)}</code>: {markdown.inline(what, link)}</li>"
                            for code, what in self.catalogue.documents.items()
                            if re.search(rf"\b{code}\b", rule.source))
        clarifications = "".join(f'<li><a href="../clarifications/{c.id}.html">{c.id}</a>: '
                                 f"{markdown.inline(c.title, link)}</li>" for c in self.clarifications_of[rule.id])
        open_rows = [row for row in self.catalogue.implementation_defined
                     if re.search(rf"(?<![\w-]){re.escape(rule.id)}(?![\w-])", " ".join(row))]
        implementation = "".join(f"<li>{markdown.inline(row[0], link)}: the model: {markdown.inline(row[1], link)}; "
                                 f"live: {markdown.inline(row[2], link)}</li>" for row in open_rows)
        per_release = []
        for otp in self.otps:
            counts = self.counts(rule.id, otp)
            notable = [v for v in self.cases_of[rule.id]
                       if next(x.status for x in v.views if x.otp == otp) in ("fail", "deviation", "crash", "timeout")]
            per_release.append(f'<li id="otp-{escape(otp)}">OTP {escape(otp)}: {escape(counts_text(counts))}'
                               + (": " + ", ".join(
                                   f'<a href="#case-{escape(v.case.id)}-otp{escape(otp)}">{escape(v.case.id)}</a> '
                                   f"({escape(next(x.status for x in v.views if x.otp == otp))})"
                                   for v in notable) if notable else "")
                               + "</li>")
        cases = "".join(pages.case_section(v.case, v.scenario, v.golden, v.views,
                                           lambda r: f"{r}.html" if r in self.rule_ids else None, focus=rule.id)
                        for v in self.cases_of[rule.id])
        body = (f"<h1>{escape(rule.id)}</h1><p>{markdown.inline(rule.section, link)}</p>"
                '<dl class="rule">'
                f"<dt>Statement</dt><dd>{markdown.inline(rule.statement, link)}</dd>"
                f"<dt>Source: the sentence and its document</dt><dd>{markdown.inline(rule.source, link)}"
                + (f"<ul>{documents}</ul>" if documents else "") + "</dd>"
                f"<dt>Model</dt><dd>{markdown.inline(rule.model, link)}</dd>"
                f"<dt>Clarifications</dt><dd>{f'<ul>{clarifications}</ul>' if clarifications else 'none'}</dd>"
                + (f"<dt>Left open by the documents</dt><dd><ul>{implementation}</ul></dd>" if implementation else "")
                + f"<dt>Verdicts per release</dt><dd><ul>{''.join(per_release)}</ul></dd></dl>"
                f"<h2>Cases ({len(self.cases_of[rule.id])})</h2><p>In each golden stream the lines "
                f"{escape(rule.id)} produces are marked; the columns are the releases: "
                + "; ".join(f"<code>{escape(m)}</code> {escape(what)}" for m, what in sidebyside.MARKS.items())
                + ".</p>"
                + (cases or "<p>No case names this rule (./tcs rules reports it).</p>"))
        return pages.page(f"{rule.id}: tcs", body, root="../")

    # -- a clarification ------------------------------------------------------------------------

    def clarification_page(self, c: Clarification) -> str:
        """A clarification: its text, the rules it concerns, what each release does in the cases it
        cites or documents in expectations/, with the evidence."""
        link = self.link("../")
        named_rules = [r for r in self.catalogue.rules if c in self.clarifications_of[r.id]]
        mentioned = set(re.findall(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b", c.body))
        documented = {otp: [e for e in entries.values() if re.search(rf"\b{c.id}\b", e.reason)]
                      for otp, entries in self.expected.items()}
        in_evidence = mentioned | {e.case for found in documented.values() for e in found}
        cases = [v for v in self.cases if v.case.id in in_evidence]
        head = "<tr><th>case</th>" + "".join(f"<th>OTP {escape(o)}</th>" for o in self.otps) + "</tr>"
        rows = "".join(
            f'<tr><th><a href="{escape(link(v.case.id) or "")}">{escape(v.case.id)}</a></th>'
            + "".join(f'<td class="{escape(x.status)}"><a href="../rules/{self.case_home[v.case.id]}.html'
                      f'#case-{escape(v.case.id)}-otp{escape(x.otp)}">{escape(x.status)}</a></td>' for x in v.views)
            + "</tr>" for v in cases if v.case.id in self.case_home)
        entries = "".join(
            f"<h3>OTP {escape(otp)}: documented differences</h3>"
            + "".join(f"<p><a href=\"{escape(link(e.case) or '')}\">{escape(e.case)}</a> ({escape(e.status)}, "
                      f"{markdown.inline(e.rule, link)}): {markdown.inline(e.reason, link)}</p>"
                      f"<pre>{escape(chr(10).join(e.evidence))}</pre>" for e in found)
            for otp, found in documented.items() if found)
        body = (f"<h1>{escape(c.id)}: {markdown.inline(c.title, link)}</h1>"
                f"{markdown.blocks(c.body, link, heading_offset=1)}"
                "<h2>Rules</h2>"
                + ("<ul>" + "".join(f'<li><a href="../rules/{r.id}.html">{r.id}</a>: {markdown.inline(r.statement, link)}</li>'
                                    for r in named_rules) + "</ul>" if named_rules else "<p>No rule names it.</p>")
                + "<h2>What each release does</h2>"
                + (f'<div class="scroll"><table class="matrix">{head}{rows}</table></div>' if rows else
                   "<p>No case of the corpus is named here.</p>")
                + entries)
        return pages.page(f"{c.id}: tcs", body, root="../")


def _cell_class(counts: dict[str, int]) -> str:
    """The colour of a matrix cell: as the HTML report's, skipped cases beside others left out
    (a rule that passes wherever its cases apply is green)."""
    ran = {k: n for k, n in counts.items() if k in STATUSES and k != "skip"}
    return cell_class(ran if any(ran.values()) else {k: n for k, n in counts.items() if k in STATUSES})


def _plain(markdown_text: str) -> str:
    """Markdown inline text without its markup, for tooltips and the search."""
    return re.sub(r"[`*]", "", markdown_text).replace("\\|", "|")


SEARCH_JS: Final[str] = """
(function () {
  var index = JSON.parse(document.getElementById('search-index').textContent);
  var box = document.getElementById('q'), list = document.getElementById('search-results'),
      status = document.getElementById('search-status');
  function run(query) {
    var words = query.toLowerCase().split(/\\s+/).filter(function (w) { return w; });
    list.textContent = '';
    if (!words.length) { return; }
    var hits = index.filter(function (e) { return words.every(function (w) { return e.hay.indexOf(w) >= 0; }); });
    hits.sort(function (a, b) {
      var q = query.trim().toUpperCase();
      return (b.id === q) - (a.id === q) || (b.id.indexOf(q) >= 0) - (a.id.indexOf(q) >= 0);
    });
    hits.forEach(function (e) {
      var li = document.createElement('li'), a = document.createElement('a');
      a.href = e.href; a.textContent = e.id; li.appendChild(a);
      li.appendChild(document.createTextNode(': ' + e.title + (e.tags ? ' [' + e.tags + ']' : '')));
      list.appendChild(li);
    });
    status.textContent = hits.length + ' found for \\u201c' + query + '\\u201d';
  }
  var query = new URLSearchParams(location.search).get('q');
  var hash = location.hash.match(/^#q=(.*)$/);
  if (hash) { query = decodeURIComponent(hash[1]); }
  box.addEventListener('input', function () { run(box.value); });
  if (query) { box.value = query; run(query); document.getElementById('search').scrollIntoView(); }
})();
"""


def results_from_files(paths: Iterable[str]) -> list[rundiff.Entry]:
    """The results of JSON reports, a later report's result winning for the same case and release;
    raises rundiff.ReportError."""
    latest: dict[tuple[str, str], rundiff.Entry] = {}
    for path in paths:
        for entry in rundiff.load(Path(path))[1]:
            latest[(entry.case, entry.otp)] = entry
    return list(latest.values())


def entries_of(results: list[CaseResult]) -> list[rundiff.Entry]:
    """A run's results as the entries of a JSON report."""
    return [rundiff.Entry(r.case, r.otp, r.status, r.detail, tuple(r.live), tuple(stream.parse_classed_lines(
        [(f"{r.case}, OTP {r.otp}: live line {n}", text) for n, text in enumerate(r.live, 1)]))) for r in results]


def write_site(out_dir: Path, site: dict[str, str]) -> None:
    """Writes the pages into a scratch directory beside OUT_DIR, then puts it in OUT_DIR's place:
    OUT_DIR is never half-written, and replaced only when it holds an earlier book."""
    out_dir = out_dir.resolve()
    if out_dir.exists() and not (out_dir / MARKER).exists() and (not out_dir.is_dir() or any(out_dir.iterdir())):
        raise OSError(f"{out_dir} exists and is not a book written by ./tcs book: choose another directory")
    scratch = Path(tempfile.mkdtemp(prefix=f".{out_dir.name}-", dir=out_dir.parent))
    try:
        for name, text in site.items():
            (scratch / name).parent.mkdir(parents=True, exist_ok=True)
            (scratch / name).write_text(text)
        (scratch / MARKER).write_text("written by ./tcs book; building again replaces this directory\n")
        scratch.chmod(0o755)
        if out_dir.exists():
            old = Path(tempfile.mkdtemp(prefix=f".{out_dir.name}-old-", dir=out_dir.parent))
            out_dir.rename(old / "book")
            shutil.rmtree(old)
        scratch.rename(out_dir)
    except BaseException:
        shutil.rmtree(scratch, ignore_errors=True)
        raise


def build(layout: corpus.Layout, results: list[rundiff.Entry], otps: list[str], origin: str) -> dict[str, str]:
    """The pages of the book for the tree as it is and these results."""
    catalogue = read_catalogue(conformance.text(layout.repo))
    views = case_views(load_cases(layout), results, otps)
    expected = {otp: expectations.load(expectations.path_for(layout.expectations, otp)) for otp in otps}
    return Book(catalogue, views, otps, expected, origin).pages()


def main(args: argparse.Namespace, layout: corpus.Layout, say: Say,
         run_live: Callable[[list[node.Otp]], list[CaseResult]]) -> int:
    """`./tcs book`: 0 written, 2 bad input (a results file, a release, OUT_DIR) with nothing written."""
    out_dir = Path(args.out_dir)
    if not out_dir.resolve().parent.is_dir():
        say(f"cannot write {out_dir}: no directory {out_dir.resolve().parent}")
        return 2
    started = time.monotonic()
    try:
        if args.results:
            results = results_from_files(args.results)
            wanted = None if args.otp in (None, "all") else \
                [str(node.probe_local()[1]) if w.strip() == "local" else w.strip() for w in args.otp.split(",")]
            results = [r for r in results if wanted is None or r.otp in wanted]
            origin = "from " + ", ".join(args.results)
        else:
            otps = [o if isinstance(o, node.Otp) else o() for o in try_.releases(args.otp, say)[0]]
            results = entries_of(run_live(otps))
            origin = f"the corpus run by ./tcs book on {time.strftime('%Y-%m-%d %H:%M %Z')}"
        say("writing the book")
        site = build(layout, results, releases(results), origin)
        write_site(out_dir, site)
    except (rundiff.ReportError, stream.StreamError, expectations.ExpectationError, corpus.ModelError,
            node.NoErlang, provision.ProvisionError, recorder.BuildError, OSError) as why:
        say(str(why))
        return 2
    size = sum(len(text.encode()) for text in site.values())
    say(f"wrote {out_dir}: {len(site)} pages, {size / 1e6:.1f} MB, {time.monotonic() - started:.1f}s; "
        f"open {out_dir / 'index.html'}")
    return 0
