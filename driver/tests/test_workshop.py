"""./tcs try (a scenario from outside the tree, on every release) and ./tcs book (the static site of
the rules), the book checked in headless Chromium: its pages render, every link resolves, the search
finds a rule by a word of its sentence; screenshots kept in build/test-output/."""
from __future__ import annotations

import json
import re
import subprocess
from html.parser import HTMLParser
from pathlib import Path
from types import SimpleNamespace
from urllib.parse import unquote, urlsplit

import pytest

from conftest import TEST_RELEASES
from tcs_driver import conformance, corpus, expectations
from tcs_driver.results import CaseResult, to_json
from tcs_driver.workshop import book, markdown, sidebyside, try_
from test_report_html import _chromium, _png_pixels

#: A scenario written on the spot: the same match spec as corpus case ms_is_boolean (C-12: the
#: documents and OTP 26 and later accept is_boolean/1 in a match spec, OTP 25 refuses it, as the
#: model predicts for it), under an id of its own.
IDEA = """case     idea_is_boolean
rules    MS-GUARD-TYPE
desc     "a workshop idea: is is_boolean/1 a match spec guard?"
otp      25
features call ms

tracer recorder

process a
pattern tcs_target:id/1 [{['$1'],[{is_boolean,'$1'}],[]}] global
a call tcs_target:id(true)
"""
TCS = Path(__file__).resolve().parents[2] / "tcs"


def write_idea(directory: Path, text: str = IDEA) -> Path:
    path = directory / "idea_is_boolean.tcs"
    path.write_text(text)
    return path


def tree_status(layout: corpus.Layout) -> tuple[frozenset[str], list[str]]:
    """Where try could write into the tree: the files git does not track (build/ is ignored), and
    the changes git sees in cases/, golden/ and expectations/ (not the code, which a developer may
    be editing while the tests run)."""
    status = subprocess.run(["git", "status", "--porcelain", "--untracked-files=all"], cwd=layout.repo,
                            capture_output=True, text=True, check=True).stdout.splitlines()
    return (frozenset(line[3:] for line in status if line.startswith("??")),
            [line for line in status if line[3:].startswith(("cases/", "golden/", "expectations/"))])


def assert_nothing_written(layout: corpus.Layout, before: tuple[frozenset[str], list[str]]) -> None:
    untracked, corpus_changes = tree_status(layout)
    assert untracked <= before[0], f"new files in the tree: {sorted(untracked - before[0])}"
    assert corpus_changes == before[1]


# -- the model side, no node --------------------------------------------------------------------

def test_explained_lines_keep_their_rules() -> None:
    text = ("% tcs stream v1: x\n"
            "I enabled(trace_status, <tracer>, <a>) -> trace  % STATUS-PROBE\n"
            "N trace(send, <tracer>, <a>, '%', #{extra=><b>})  % EV-SEND OPTS-EXTRA\n")
    assert sidebyside.parse_explained(text) == [
        sidebyside.AnnotatedLine("I enabled(trace_status, <tracer>, <a>) -> trace", ("STATUS-PROBE",)),
        sidebyside.AnnotatedLine("N trace(send, <tracer>, <a>, '%', #{extra=><b>})", ("EV-SEND", "OPTS-EXTRA"))]


def test_marks_say_what_each_golden_line_became(layout: corpus.Layout, tmp_path: Path) -> None:
    path = write_idea(tmp_path)
    case = corpus.load_case(layout, path)
    golden = sidebyside.golden_of(layout, path)
    pattern = next(n for n, a in enumerate(golden.annotated) if "trace_pattern" in a.text)
    live = [a.text for a in golden.annotated]
    live[pattern] = live[pattern].replace("-> 1", "raises error:badarg")
    view = sidebyside.release_view(case, golden, "27", "fail", "", live)
    assert view.marks[pattern] == "-"
    assert view.unexpected == [live[pattern]]
    assert all(mark == ("." if a.text.startswith("I ") else "=")
               for n, (mark, a) in enumerate(zip(view.marks, golden.annotated)) if n != pattern)
    assert sidebyside.release_view(case, golden, "25", "skip", "why", []).marks == []


def test_bad_scenario_is_named_by_file_line_col(layout: corpus.Layout, tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    path = write_idea(tmp_path, IDEA.replace("process a", "process A"))
    args = SimpleNamespace(file=str(path), otp="local", html=str(tmp_path / "x.html"), explain=False, strict=False)
    assert try_.main(args, layout, lambda text: None, lambda p, t: p.write_text(t)) == 2
    assert re.search(rf"^{re.escape(str(path))}:\d+:\d+: ", capsys.readouterr().err, re.MULTILINE)
    assert not (tmp_path / "x.html").exists()
    args.file = str(tmp_path / "missing.tcs")
    assert try_.main(args, layout, lambda text: None, lambda p, t: None) == 2


def test_catalogue_is_read_from_conformance_markdown() -> None:
    text = ("# C\n\n`000` is `000_x.txt` (the `erl_tracer` behaviour, primary), `002` the draft of `a.xml`.\n\n"
            "## 2. Rules\n\n### Sends (`ref/messages.c`)\n\n| ID | statement | source | model |\n|---|---|---|---|\n"
            "| EV-SEND | `send`: a \\| b | 003; Clarification C-7 | `messages_send` (`ref/messages.c`) |\n\n"
            "### Implementation-defined behaviour\n\n| what | the model | OTP |\n|---|---|---|\n"
            "| probes (EV-SEND) | once | more |\n\n## 3. Clarifications\n\n### C-7: a title\n\nbody EV-SEND\n\n"
            "```\nN x\n```\n\n### C-8: other\n\nnothing\n")
    catalogue = book.read_catalogue(text)
    assert catalogue.documents == {"000": "the `erl_tracer` behaviour, primary (000_x.txt)",
                                   "002": "the draft of `a.xml`"}
    assert catalogue.rules == [book.Rule("EV-SEND", "Sends (`ref/messages.c`)", "`send`: a | b",
                                         "003; Clarification C-7", "`messages_send` (`ref/messages.c`)")]
    assert catalogue.implementation_defined == [["probes (EV-SEND)", "once", "more"]]
    assert [(c.id, c.title, c.body) for c in catalogue.clarifications] == [
        ("C-7", "a title", "body EV-SEND\n\n```\nN x\n```"), ("C-8", "other", "nothing")]


def test_markdown_links_known_words_only() -> None:
    links = {"EV-SEND": "rules/EV-SEND.html", "send_basic": "rules/EV-SEND.html#case-send_basic"}.get
    html = markdown.inline("EV-SEND and EV-OTHER in `send_basic`, **a** <b> *c*", links)
    assert html == ('<a href="rules/EV-SEND.html">EV-SEND</a> and EV-OTHER in <a href="rules/EV-SEND.html'
                    '#case-send_basic"><code>send_basic</code></a>, <strong>a</strong> &lt;b&gt; <em>c</em>')
    assert markdown.blocks("- one\n  two\n- three\n\n```\n<x>\n```", links) == \
        "<ul><li>one two</li><li>three</li></ul>\n<pre>&lt;x&gt;</pre>"


def test_book_refuses_a_directory_it_did_not_write(tmp_path: Path) -> None:
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "notes.txt").write_text("keep")
    with pytest.raises(OSError, match="not a book"):
        book.write_site(tmp_path / "mine", {"index.html": "x"})
    book.write_site(tmp_path / "site", {"index.html": "one", "rules/A.html": "a"})
    book.write_site(tmp_path / "site", {"index.html": "two"})       # an earlier book is replaced
    assert (tmp_path / "site" / "index.html").read_text() == "two"
    assert not (tmp_path / "site" / "rules").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mine", "site"]   # no scratch left


def test_book_with_a_bad_results_file_writes_nothing(layout: corpus.Layout, tmp_path: Path) -> None:
    bad = tmp_path / "r.json"
    bad.write_text('{"otp": ["25"], "results": [{"case": "x"}]}')
    args = SimpleNamespace(out_dir=str(tmp_path / "out"), otp=None, results=[str(bad)])
    said: list[str] = []
    assert book.main(args, layout, said.append, lambda otps: []) == 2
    assert not (tmp_path / "out").exists()
    assert any(str(bad) in text for text in said)


# -- try, live ------------------------------------------------------------------------------------

@pytest.mark.live
@pytest.mark.parametrize("release", TEST_RELEASES, ids=[f"otp{r}" for r in TEST_RELEASES])
def test_try_a_scenario_outside_the_tree(layout: corpus.Layout, otp_for, release: str, tmp_path: Path) -> None:
    """C-12 live: OTP 26 and later accept is_boolean/1 in a match spec and agree with the model; OTP 25
    refuses it, which the scenario being no corpus case, no expectation but the release's prediction
    makes a deviation (C-12)."""
    otp = otp_for(release)
    before = tree_status(layout)
    tried = try_.run(layout, write_idea(tmp_path), [otp], strict=False)
    [view], [result] = tried.views, tried.results
    assert "expectations: none applied" in tried.expectation_note
    pattern = next(n for n, a in enumerate(tried.golden.annotated) if "trace_pattern" in a.text)
    assert "CALL-PATTERN-COUNT" in tried.golden.annotated[pattern].rules
    if otp.release >= 26:
        assert (view.status, view.marks[pattern], view.unexpected) == ("pass", "=", []), result.detail
    else:
        assert (result.status, result.clarification) == ("deviation", "C-12"), result.detail
        assert view.marks[pattern] == "-", result.detail
        assert view.unexpected == [tried.golden.annotated[pattern].text.replace("-> 1", "raises error:badarg")]
    assert_nothing_written(layout, before)


#: Per release, a corpus case the release is predicted to deviate in, and the clarification that says so.
PREDICTED_CASES = {"25": ("inherit_first_link_all", "C-41"), "27": ("inherit_new_and_set_on_spawn", "C-48"),
                   "29": ("inherit_new_and_set_on_spawn", "C-48")}


def _own_copy(layout: corpus.Layout, case: str, directory: Path) -> Path:
    """The corpus case written as a user's own scenario, my_scenario, in directory (no case of cases/)."""
    text = layout.case_file(case).read_text()
    copy = directory / "my_scenario.tcs"
    copy.write_text(re.sub(r"(?m)^case\s+\S+", "case     my_scenario", text, count=1))
    return copy


@pytest.mark.live
@pytest.mark.parametrize("release", TEST_RELEASES, ids=[f"otp{r}" for r in TEST_RELEASES])
def test_a_known_deviation_is_one_in_any_scenario(layout: corpus.Layout, otp_for, release: str,
                                                   tmp_path: Path) -> None:
    """A scenario outside cases/ that meets a release's known deviation is a `deviation (C-n)` in `try`
    and in `run --cases-dir`, from the release's own prediction: no expectations entry is needed."""
    case, clarification = PREDICTED_CASES[release]
    otp = otp_for(release)
    copy = _own_copy(layout, case, tmp_path)
    tried = try_.run(layout, copy, [otp], strict=False)
    [result] = tried.results
    assert (result.status, result.clarification) == ("deviation", clarification), result.detail
    assert "none applied" in tried.expectation_note
    assert f"OTP {otp.name}: deviation ({clarification})" in try_.render_text(tried, copy)
    done = subprocess.run([str(layout.repo / "tcs"), "run", "--cases-dir", str(tmp_path), "--otp", release],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    assert re.search(rf"OTP {release} my_scenario +deviation \({clarification}\)", done.stdout), done.stdout


def test_run_cases_dir_refuses_a_scenario_the_model_refuses(layout: corpus.Layout, tmp_path: Path) -> None:
    """`run --cases-dir` with a bad scenario names it (FILE:LINE:COL), exits 2 and runs nothing."""
    (tmp_path / "bad_one.tcs").write_text("case bad_one\nrules EV-SEND\nbogus\n")
    done = subprocess.run([str(layout.repo / "tcs"), "run", "--cases-dir", str(tmp_path)], capture_output=True,
                          text=True)
    assert done.returncode == 2, done.stdout + done.stderr
    assert f"{tmp_path / 'bad_one.tcs'}:" in done.stderr and "nothing was run" in done.stderr
    assert "OTP" not in done.stdout


@pytest.mark.live
def test_try_command_side_by_side(layout: corpus.Layout, otp_for, tmp_path: Path) -> None:
    """./tcs try on every test release available, from a scenario in a temporary directory: the
    golden stream with its rules and one column per release; nothing written into the tree."""
    ready = []
    for release in TEST_RELEASES:
        try:
            ready.append(otp_for(release))
        except pytest.skip.Exception as why:
            print(f"OTP {release} left out: {why}")
    if not ready:
        pytest.skip("no release of TEST_RELEASES is available")
    before = tree_status(layout)
    path, page = write_idea(tmp_path), tmp_path / "try.html"
    done = subprocess.run([str(TCS), "try", str(path), "--otp", ",".join(o.name for o in ready),
                           "--html", str(page), "--explain"],
                          capture_output=True, text=True, timeout=600, cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr     # a deviation is no failure
    out = done.stdout
    assert re.search(r"^" + r"\s+".join(o.name for o in ready) + r"\s+GOLDEN STREAM", out, re.MULTILINE), out
    pattern_row = next(line for line in out.splitlines() if "trace_pattern" in line)
    marks = pattern_row.split()[:len(ready)]
    assert marks == ["=" if o.release >= 26 else "-" for o in ready], pattern_row
    assert "CALL-PATTERN-COUNT" in pattern_row
    for o in ready:
        verdict = r"pass" if o.release >= 26 else r"deviation \(C-12\)"
        assert re.search(rf"^OTP {o.name}: {verdict}", out, re.MULTILINE), out
    assert re.search(r"^CALL-PATTERN-COUNT: ", out, re.MULTILINE)      # --explain: the rule's statement
    assert "<table class=\"stream\">" in page.read_text()
    assert_nothing_written(layout, before)
    print(out)


# -- the book, in Chromium ------------------------------------------------------------------------

class _Page(HTMLParser):
    """The ids, hrefs and srcs of a page."""

    def __init__(self) -> None:
        super().__init__()
        self.ids: set[str] = set()
        self.links: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if found.get("id"):
            self.ids.add(found["id"] or "")
        for key in ("href", "src", "action"):
            if found.get(key) is not None:
                self.links.append(found[key] or "")


def _parsed(path: Path) -> _Page:
    page = _Page()
    page.feed(path.read_text())
    return page


def broken_links(site: Path) -> list[str]:
    """Every link of every page whose file or #anchor does not exist, or that leaves the site."""
    parsed = {path: _parsed(path) for path in site.rglob("*.html")}
    broken = []
    for path, page in parsed.items():
        for link in page.links:
            parts = urlsplit(link)
            if parts.scheme or parts.netloc:
                broken.append(f"{path}: {link} leaves the site")
                continue
            target = (path.parent / unquote(parts.path)).resolve() if parts.path else path
            if target not in parsed:
                broken.append(f"{path}: {link}: no page {target}")
            elif parts.fragment and not parts.fragment.startswith("q=") and parts.fragment not in parsed[target].ids:
                broken.append(f"{path}: {link}: no #{parts.fragment} in {target.name}")
    return broken


@pytest.fixture(scope="module")
def built_book(layout: corpus.Layout, corpus_results) -> tuple[Path, list[CaseResult]]:
    """./tcs book over the whole corpus, its verdicts from the test run's results (as --results)."""
    results = [r for release in TEST_RELEASES for r in corpus_results(release).values()]
    out = layout.build / "test-output"
    out.mkdir(exist_ok=True)
    report = out / "book-results.json"
    report.write_text(json.dumps(to_json(TEST_RELEASES, results)))
    site = out / "book"
    done = subprocess.run([str(TCS), "book", "--results", str(report), str(site)],
                          capture_output=True, text=True, timeout=1200)
    assert done.returncode == 0, done.stdout + done.stderr
    print(done.stderr.strip().splitlines()[-1])       # pages, size, build time
    return site, results


@pytest.mark.live
def test_book_every_link_resolves(built_book) -> None:
    site, results = built_book
    assert {p.stem for p in (site / "rules").glob("*.html")} >= {rule for r in results for rule in r.rules}
    assert broken_links(site) == []


@pytest.mark.live
def test_book_index_and_rule_page_render_in_chromium(layout: corpus.Layout, built_book) -> None:
    if not Path("/usr/bin/chromium").exists():
        pytest.skip("needs the Debian package chromium (./tcs test installs it when run as root)")
    site, results = built_book
    dumped = _chromium("--dump-dom", (site / "index.html").as_uri())
    assert dumped.returncode == 0, dumped.stderr[-2000:]
    for rule in {rule for r in results for rule in r.rules}:
        for release in TEST_RELEASES:
            assert f'data-rule="{rule}" data-otp="{release}"' in dumped.stdout, (rule, release)
    # A rule page: each of its cases, with a verdict per release.
    rule = max({rule for r in results for rule in r.rules},
               key=lambda x: sum(x in r.rules for r in results))
    page = site / "rules" / f"{rule}.html"
    dom = _chromium("--dump-dom", page.as_uri()).stdout
    for case in {r.case for r in results if rule in r.rules}:
        assert f'<section class="case" id="case-{case}">' in dom, case
        for release in TEST_RELEASES:
            assert f'id="case-{case}-otp{release}"' in dom, (case, release)
    out = layout.build / "test-output"
    for name, uri in (("book-index.png", (site / "index.html").as_uri()), ("book-rule.png", page.as_uri())):
        shot = out / name
        shot.unlink(missing_ok=True)
        done = _chromium("--window-size=1280,1600", f"--screenshot={shot}", uri)
        assert done.returncode == 0 and shot.exists(), done.stderr[-2000:]
        width, height, pixels = _png_pixels(shot)
        assert (width, height) == (1280, 1600) and len(set(pixels)) > 16, f"{shot} is blank"
        print(f"screenshot: {shot}")


def _sentence_word(source: str) -> str | None:
    """The longest word of the first quoted sentence of a rule's source cell."""
    quoted = re.search(r'"([^"]{20,})"', source)
    words = re.findall(r"[A-Za-z]{6,}", quoted.group(1)) if quoted else []
    return max(words, key=len) if words else None


@pytest.mark.live
def test_book_search_finds_a_rule_by_a_word_of_its_sentence(layout: corpus.Layout, built_book) -> None:
    if not Path("/usr/bin/chromium").exists():
        pytest.skip("needs the Debian package chromium (./tcs test installs it when run as root)")
    site, _ = built_book
    catalogue = book.read_catalogue(conformance.text(layout.repo))
    rule, word = next((r, w) for r in catalogue.rules if (w := _sentence_word(r.source)))
    for how in (f"?q={word.lower()}", f"#q={word.upper()}"):
        dom = _chromium("--dump-dom", (site / "index.html").as_uri() + how).stdout
        found = dom[dom.index('<ol id="search-results">'):]
        found = found[:found.index("</ol>")]
        assert f'<a href="rules/{rule.id}.html">{rule.id}</a>' in found, (word, found[:2000])
        assert re.search(r'<p id="search-status">\d+ found for', dom), how
    nothing = _chromium("--dump-dom", (site / "index.html").as_uri() + "?q=zzqqxx").stdout
    assert '<ol id="search-results"></ol>' in nothing and "0 found for" in nothing
