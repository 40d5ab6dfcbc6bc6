"""The HTML report of a run (./tcs run --html FILE): one self-contained page, no external assets.

It shows the rule x release matrix, the case x release matrix, and for every
result that is not a plain pass or skip the golden and live streams side by
side, the lines that differ marked."""
from __future__ import annotations

from collections.abc import Iterable
from html import escape

from .results import SHOWN_WITH_GOLDEN, CaseResult, by_case, counts_text, releases, rule_matrix, summarise

#: Results worth showing stream by stream (the JSON report keeps their golden streams for this page).
DIFFERENCES = SHOWN_WITH_GOLDEN

STYLE = """
body { font: 14px/1.4 sans-serif; margin: 1.5em; color: #222; }
h1 { font-size: 1.4em; } h2 { font-size: 1.2em; margin-top: 2em; } h3 { font-size: 1em; }
table.matrix { border-collapse: collapse; margin: .5em 0; }
table.matrix th, table.matrix td { border: 1px solid #bbb; padding: 2px 8px; text-align: left; }
table.matrix th { background: #eee; }
td.pass { background: #d7f5d7; } td.fail { background: #f8c9c9; } td.deviation { background: #fbe7b5; }
td.skip { background: #eaeaea; color: #666; } td.crash, td.timeout { background: #e9b3e9; }
td.mixed { background: #fbe7b5; }
table.streams { border-collapse: collapse; width: 100%; table-layout: fixed; }
table.streams td { vertical-align: top; border: 1px solid #ccc; padding: 4px; }
pre { margin: 0; font: 12px/1.35 monospace; white-space: pre-wrap; word-break: break-all; }
span.del { background: #f8c9c9; display: block; } span.add { background: #c9f0c9; display: block; }
span.info { color: #888; display: block; }
p.detail { white-space: pre-wrap; font: 12px monospace; background: #f6f6f6; padding: 4px; }
"""


def render(results: Iterable[CaseResult], title: str = "tcs: erl_tracer conformance") -> str:
    """Return the whole page."""
    items = list(results)
    otps = releases(items)
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{escape(title)}</title><style>{STYLE}</style></head><body>",
        f"<h1>{escape(title)}</h1>",
        _summary(items, otps),
        '<h2 id="rules">Rules &times; releases</h2>',
        _rule_matrix(items, otps),
        '<h2 id="cases">Cases &times; releases</h2>',
        _case_matrix(items, otps),
        '<h2 id="differences">Differences: golden and live streams</h2>',
        _differences(items),
        "</body></html>",
    ]
    return "\n".join(parts) + "\n"


def _summary(items: list[CaseResult], otps: list[str]) -> str:
    """One line per release with its counts."""
    rows = [f"<tr><th>OTP {escape(o)}</th>"
            + "".join(f"<td>{k} {v}</td>" for k, v in summarise(r for r in items if r.otp == o).items())
            + "</tr>" for o in otps]
    return '<table class="matrix" id="summary">' + "".join(rows) + "</table>"


def _rule_matrix(items: list[CaseResult], otps: list[str]) -> str:
    """Rule x release: per cell the cases naming the rule, by status; coloured by the worst status."""
    head = "<tr><th>rule</th>" + "".join(f"<th>OTP {escape(o)}</th>" for o in otps) + "</tr>"
    rows = []
    for rule, cells in rule_matrix(items).items():
        tds = "".join(f'<td class="{cell_class(cells[o])}" data-rule="{escape(rule)}" data-otp="{escape(o)}">'
                      f"{escape(counts_text(cells[o]))}</td>" for o in otps)
        rows.append(f"<tr><th>{escape(rule)}</th>{tds}</tr>")
    return '<table class="matrix" id="rule-matrix">' + head + "".join(rows) + "</table>"


def cell_class(counts: dict[str, int]) -> str:
    """The class of a rule cell: the one status of its cases, 'mixed' for several, the worst first."""
    present = [s for s, n in counts.items() if n]
    for bad in ("crash", "timeout", "fail"):
        if bad in present:
            return bad
    return present[0] if len(present) == 1 else ("mixed" if present else "skip")


def _case_matrix(items: list[CaseResult], otps: list[str]) -> str:
    """Case x release: each cell the status, linked to the streams when it is a difference."""
    head = "<tr><th>case</th>" + "".join(f"<th>OTP {escape(o)}</th>" for o in otps) + "</tr>"
    rows = []
    for case, row in by_case(items).items():
        cells = []
        for o in otps:
            r = row.get(o)
            if r is None:
                cells.append("<td></td>")
                continue
            text = escape(r.status)
            if r.status in DIFFERENCES:
                text = f'<a href="#{_anchor(r)}">{text}</a>'
            tip = f' title="{escape(r.detail.splitlines()[0])}"' if r.detail else ""
            cells.append(f'<td class="{r.status}" data-case="{escape(case)}" data-otp="{escape(o)}"{tip}>'
                         f"{text}</td>")
        rows.append(f"<tr><th>{escape(case)}</th>{''.join(cells)}</tr>")
    return '<table class="matrix" id="case-matrix">' + head + "".join(rows) + "</table>"


def _anchor(result: CaseResult) -> str:
    return f"diff-{result.case}-otp{result.otp}"


def _differences(items: list[CaseResult]) -> str:
    """For each difference, its detail and the two streams side by side."""
    shown = [r for r in items if r.status in DIFFERENCES]
    if not shown:
        return "<p>None: every case agrees with its golden stream (or is skipped) on every release.</p>"
    out = []
    for r in sorted(shown, key=lambda r: (r.case, r.otp)):
        golden, live = _marked_streams(r)
        out.append(f'<section id="{_anchor(r)}"><h3>{escape(r.case)} on OTP {escape(r.otp)}: '
                   f"{escape(r.status)}</h3>"
                   f'<p class="detail">{escape(r.detail)}</p>'
                   '<table class="streams"><tr><th>golden (the model)</th><th>live (the node)</th></tr>'
                   f"<tr><td><pre>{golden}</pre></td><td><pre>{live}</pre></td></tr></table></section>")
    return "\n".join(out)


def _marked_streams(result: CaseResult) -> tuple[str, str]:
    """Both streams as HTML: the lines the comparison found missing (golden) or unexpected (live) marked,
    informative lines greyed."""
    missing = {text[1:] for text in result.changed if text.startswith("-")}
    unexpected = {text[1:] for text in result.changed if text.startswith("+")}

    def render_lines(lines: list[str], marked: set[str], mark: str) -> str:
        out = []
        for text in lines:
            cls = mark if text in marked else ("info" if text.startswith("I ") else "")
            out.append(f'<span class="{cls}">{escape(text)}</span>' if cls else escape(text) + "\n")
        return "".join(out)

    return render_lines(result.golden, missing, "del"), render_lines(result.live, unexpected, "add")
