"""The Markdown of the catalogue (conformance/) as HTML, for the book: the subset it uses (paragraphs,
fenced code, `-` lists, pipe tables, headings, `code`, **strong**, *emphasis*), and words the
book has a page for (rule IDs, clarifications, case ids) linked to it."""
from __future__ import annotations

import re
from collections.abc import Callable
from html import escape

#: A word the book may link: a rule ID (FALLBACK-ENABLED), a clarification (C-12), a case id.
_WORD = re.compile(r"\b(C-\d+|[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+|[a-z][a-z0-9]*(?:_[a-z0-9]+)+)\b")
_CODE = re.compile(r"(`+)(.+?)\1")
_STRONG = re.compile(r"\*\*(.+?)\*\*")
_EM = re.compile(r"(?<![\w*])\*(?!\s)(.+?)(?<!\s)\*(?![\w*])")

#: Where a linkable word goes (a path relative to the page), or None.
Linker = Callable[[str], "str | None"]


def _link_words(text_html: str, link: Linker) -> str:
    """Escaped text with each word the book has a page for made a link."""
    def one(found: re.Match[str]) -> str:
        href = link(found.group(1))
        return f'<a href="{escape(href)}">{found.group(1)}</a>' if href else found.group(1)
    return _WORD.sub(one, text_html)


def inline(text: str, link: Linker) -> str:
    """One line or cell of Markdown as HTML: code spans (linked when the whole span is a known word),
    strong, emphasis, and known words linked."""
    out, pos = [], 0
    for found in _CODE.finditer(text):
        out.append(_plain(text[pos:found.start()], link))
        code = found.group(2).strip()
        href = link(code) if _WORD.fullmatch(code) else None
        span = f"<code>{escape(code)}</code>"
        out.append(f'<a href="{escape(href)}">{span}</a>' if href else span)
        pos = found.end()
    out.append(_plain(text[pos:], link))
    return "".join(out)


def _plain(text: str, link: Linker) -> str:
    """Markdown text without code spans as HTML."""
    html = _link_words(escape(text, quote=False), link)
    html = _STRONG.sub(r"<strong>\1</strong>", html)
    return _EM.sub(r"<em>\1</em>", html)


def table_cells(row: str) -> list[str]:
    """The cells of a pipe table row (an escaped pipe `\\|` stays in its cell, unescaped)."""
    return [c.strip().replace("\\|", "|") for c in re.split(r"(?<!\\)\|", row.strip().strip("|"))]


def blocks(text: str, link: Linker, heading_offset: int = 0) -> str:
    """A Markdown document (or part of one) as HTML blocks; headings go `heading_offset` levels down."""
    lines = text.splitlines()
    out: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        if not line.strip():
            i += 1
        elif line.startswith("```"):
            end = next((j for j in range(i + 1, len(lines)) if lines[j].startswith("```")), len(lines))
            out.append(f"<pre>{escape(chr(10).join(lines[i + 1:end]))}</pre>")
            i = end + 1
        elif found := re.match(r"(#{1,6})\s+(.*)", line):
            level = min(6, len(found.group(1)) + heading_offset)
            out.append(f"<h{level}>{inline(found.group(2), link)}</h{level}>")
            i += 1
        elif line.startswith("|"):
            rows = []
            while i < len(lines) and lines[i].startswith("|"):
                rows.append(table_cells(lines[i]))
                i += 1
            out.append(_table(rows, link))
        elif re.match(r"\s*[-*] ", line):
            items: list[str] = []
            while i < len(lines) and lines[i].strip():
                if re.match(r"\s*[-*] ", lines[i]):
                    items.append(lines[i].strip()[2:])
                elif items:
                    items[-1] += " " + lines[i].strip()
                i += 1
            out.append("<ul>" + "".join(f"<li>{inline(item, link)}</li>" for item in items) + "</ul>")
        else:
            para = []
            while i < len(lines) and lines[i].strip() and not lines[i].startswith(("```", "|", "#")) \
                    and not re.match(r"\s*[-*] ", lines[i]):
                para.append(lines[i].strip())
                i += 1
            out.append(f"<p>{inline(' '.join(para), link)}</p>")
    return "\n".join(out)


def _table(rows: list[list[str]], link: Linker) -> str:
    """A pipe table (header row, separator row, body rows) as an HTML table."""
    head, body = rows[0], [r for r in rows[1:] if not all(re.fullmatch(r":?-+:?", c) for c in r)]
    return ('<div class="scroll"><table class="md"><tr>'
            + "".join(f"<th>{inline(c, link)}</th>" for c in head) + "</tr>"
            + "".join("<tr>" + "".join(f"<td>{inline(c, link)}</td>" for c in r) + "</tr>" for r in body)
            + "</table></div>")
