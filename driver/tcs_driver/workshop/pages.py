"""HTML shared by the book and `./tcs try --html`: the page frame, its style sheet (readable on a
laptop and on a projector), and a case: scenario, golden stream with the rules of each line and one
mark column per release, and each release's verdict with its live stream where it differs."""
from __future__ import annotations

from collections.abc import Callable
from html import escape
from pathlib import Path
from typing import Final

from .. import corpus
from . import sidebyside
from .sidebyside import Golden, ReleaseView

#: Where a rule's page is, relative to the page being written (None: no page for it).
RuleHref = Callable[[str], "str | None"]

STYLE: Final[str] = """
:root { --fs: clamp(15px, 0.55vw + 10px, 24px); --mono: ui-monospace, "DejaVu Sans Mono", monospace;
        --pass: #d7f5d7; --fail: #f8c9c9; --deviation: #fbe7b5; --skip: #eaeaea; --crash: #e9b3e9; }
* { box-sizing: border-box; }
body { font: var(--fs)/1.5 system-ui, "DejaVu Sans", sans-serif; color: #1d1d1d; margin: 0; background: #fff; }
header.top { background: #23395d; color: #fff; padding: .5em 1em; display: flex; flex-wrap: wrap; gap: .5em 1.5em;
             align-items: center; }
header.top a { color: #fff; font-weight: 600; text-decoration: none; }
header.top form { margin-left: auto; }
input[type=search] { font: inherit; padding: .2em .5em; width: min(22em, 70vw); }
main { max-width: 110rem; margin: 0 auto; padding: .5em 1em 3em; }
h1 { font-size: 1.6em; margin: .6em 0 .3em; } h2 { font-size: 1.3em; margin-top: 1.6em; }
h3 { font-size: 1.1em; margin-top: 1.4em; }
a { color: #1b5fb5; }
code, pre { font-family: var(--mono); font-size: .9em; }
pre { background: #f5f5f2; padding: .5em .7em; white-space: pre-wrap; word-break: break-word; margin: .4em 0; }
.scroll { overflow-x: auto; }
table { border-collapse: collapse; }
th, td { border: 1px solid #c4c4c4; padding: .15em .5em; text-align: left; vertical-align: top; }
th { background: #eee; }
td.pass, span.pass { background: var(--pass); } td.fail, span.fail { background: var(--fail); }
td.deviation, td.mixed, span.deviation { background: var(--deviation); }
td.skip, span.skip { background: var(--skip); color: #555; }
td.crash, td.timeout, span.crash, span.timeout { background: var(--crash); }
span.status { padding: 0 .4em; border-radius: .3em; font-weight: 600; }
table.matrix td a { display: block; color: inherit; }
table.matrix tr.section th { background: #d9e2f0; text-align: left; }
table.stream { width: 100%; font-family: var(--mono); font-size: .85em; }
table.stream td.line { white-space: pre-wrap; word-break: break-word; width: 70%; }
table.stream td.mark { text-align: center; width: 2.2em; font-weight: 700; }
table.stream td.mark.agree { color: #1f7a1f; } table.stream td.mark.missing { background: var(--fail); }
table.stream td.mark.other { color: #999; }
table.stream tr.info td.line { color: #777; }
table.stream tr.focus td.line { background: #fff8d6; box-shadow: inset 4px 0 #d9a400; }
table.stream td.rules { font-size: .9em; } table.stream td.rules a { white-space: nowrap; }
pre.live span.add { background: #c9f0c9; display: block; }
section.case { border-top: 2px solid #23395d; margin-top: 2em; }
p.note { background: #eef3fa; padding: .4em .7em; }
dl.rule dt { font-weight: 700; margin-top: .6em; } dl.rule dd { margin: .2em 0 0 1.2em; }
ol#search-results li { margin: .3em 0; }
@media (max-width: 700px) { table.stream .rules { display: none; } main { padding: .5em .4em 2em; } }
@media print { header.top form { display: none; } }
"""


def page(title: str, body: str, *, root: str | None, script: str = "") -> str:
    """A whole page: `body`, under the book's header (a link home and a search box, which asks the
    index) unless `root` is None. `root` is the relative path from the page to the book's top
    ('' or '../')."""
    header = "" if root is None else (
        f'<header class="top"><a href="{root}index.html">tcs: the erl_tracer rules</a>'
        f'<a href="{root}index.html#clarifications">Clarifications</a>'
        f'<form action="{root}index.html" method="get" role="search">'
        '<input type="search" id="q" name="q" placeholder="rule ID, tag, callback, a word of a sentence" '
        'aria-label="search the rules"></form></header>\n')
    return ("<!DOCTYPE html>\n"
            '<html lang="en"><head><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{escape(title)}</title><style>{STYLE}</style></head><body>\n"
            f"{header}<main>\n{body}\n</main>{script}</body></html>\n")


def status_badge(status: str) -> str:
    """A verdict, coloured."""
    return f'<span class="status {escape(status)}">{escape(status)}</span>'


_MARK_CLASS: Final[dict[str, str]] = {"=": "agree", "-": "missing", ".": "other", "": "other"}


def stream_table(golden: Golden, views: list[ReleaseView], rule_href: RuleHref, focus: str | None = None) -> str:
    """The golden stream, one row per line: a mark per release, the line, its rules (linked); the
    lines of rule `focus` stand out."""
    head = ("<tr>" + "".join(f'<th title="OTP {escape(v.otp)}">{escape(v.otp)}</th>' for v in views)
            + "<th>golden stream (the model)</th><th class=\"rules\">rules</th></tr>")
    rows = []
    for number, line in enumerate(golden.annotated):
        marks = "".join(
            f'<td class="mark {_MARK_CLASS[mark]}" title="OTP {escape(v.otp)}: '
            f'{escape(sidebyside.MARKS.get(mark, "not run"))}">{escape(mark)}</td>'
            for v in views for mark in [v.marks[number] if v.marks else ""])
        rules = " ".join(f"<strong>{escape(rule)}</strong>" if rule == focus else _rule_link(rule, rule_href)
                         for rule in line.rules)
        classes = " ".join(c for c, on in (("info", line.text.startswith("I ")), ("focus", focus in line.rules)) if on)
        rows.append(f'<tr class="{classes}">{marks}<td class="line">{escape(line.text)}</td>'
                    f'<td class="rules">{rules}</td></tr>')
    return f'<div class="scroll"><table class="stream">{head}{"".join(rows)}</table></div>'


def _rule_link(rule: str, rule_href: RuleHref) -> str:
    """A rule ID, linked to its page when it has one."""
    href = rule_href(rule)
    return f'<a href="{escape(href)}">{escape(rule)}</a>' if href else escape(rule)


def verdicts(views: list[ReleaseView], anchor: str) -> str:
    """Each release's verdict; for one that differs, its detail and its live stream with the lines
    only the node produced marked."""
    items = []
    for view in views:
        text = f'<li id="{escape(anchor)}-otp{escape(view.otp)}">OTP {escape(view.otp)}: {status_badge(view.status)}'
        if view.status == "pass":
            text += " agrees with the model"
        elif view.status not in ("fail", "deviation", "crash", "timeout"):   # skipped, or not run
            text += f" {escape(view.detail)}"
        else:
            unexpected = set(view.unexpected)
            live = "".join(f'<span class="add">{escape(t)}</span>' if t in unexpected else escape(t) + "\n"
                           for t in view.live)
            text += (f"<pre>{escape(view.detail.rstrip())}</pre>"
                     f"<details open><summary>live stream on OTP {escape(view.otp)} "
                     f"({len(view.live)} lines, unexpected ones marked)</summary>"
                     f'<pre class="live">{live}</pre></details>')
        items.append(text + "</li>")
    return '<ul class="verdicts">' + "".join(items) + "</ul>"


def case_section(case: corpus.Case, scenario: str, golden: Golden, views: list[ReleaseView],
                 rule_href: RuleHref, focus: str | None = None) -> str:
    """A case: what it is, its scenario, its annotated golden stream against each release (the lines
    of rule `focus` standing out), the verdicts."""
    anchor = f"case-{case.id}"
    tracers = ", ".join([f"{case.tracer}" + (f" ({' '.join(case.callbacks)})" if case.callbacks else "")]
                        + [f"session {s.name}: {s.tracer}" for s in case.sessions])
    facts = (f"OTP &ge; {case.otp}; tracer: {escape(tracers)}"
             + (f"; features: {escape(' '.join(case.features))}" if case.features else "")
             + "; rules: " + " ".join(_rule_link(r, rule_href) for r in case.rules))
    return (f'<section class="case" id="{escape(anchor)}"><h3>{escape(case.id)}</h3>'
            + (f"<p>{escape(case.desc)}</p>" if case.desc else "")
            + f"<p>{facts}</p>"
            + f"<details><summary>scenario ({escape(case.path.name)})</summary><pre>{escape(scenario)}</pre></details>"
            + stream_table(golden, views, rule_href, focus)
            + verdicts(views, anchor) + "</section>")


def try_page(tried_case: corpus.Case, path: Path, golden: Golden, views: list[ReleaseView], note: str,
             statements: dict[str, str]) -> str:
    """The page of `./tcs try --html`: the scenario side by side on each release, self-contained
    (rule IDs carry their statement as a tooltip, no links out)."""
    body = (f"<h1>try {escape(str(path))}</h1><p class=\"note\">{escape(note)}</p>"
            + case_section(tried_case, path.read_text(), golden, views, lambda rule: None)
            + "<h2>Rules named</h2><dl class=\"rule\">"
            + "".join(f"<dt>{escape(r)}</dt><dd>{escape(statements.get(r, '(not in the catalogue)'))}</dd>"
                      for r in dict.fromkeys(r for line in golden.annotated for r in line.rules))
            + "</dl>")
    return page(f"try {path.name}", body, root=None)
