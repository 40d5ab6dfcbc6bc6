"""What the reference model refuses ("... not supported by model v1") against the table of
conformance/refusals.md "What the model refuses, and why": every refusal the C sources can give is
listed there, with the negative case in ref/tests/bad that shows it, and nothing else is."""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from tcs_driver import rules

SUFFIX = " not supported by model v1"
HEADING = "# What the model refuses, and why"

# A C string literal; adjacent literals are one string (a group).
_LITERAL = re.compile(r'"((?:[^"\\\n]|\\.)*)"')
# The calls whose string is a whole refusal message (fail, fail_at, matchspec's unsupported)
# or the "what ... is" part model_unsupported completes with SUFFIX (given to it directly, or
# through badcalls.c's refused()).
_CALL = re.compile(r"\b(fail|fail_at|unsupported|model_unsupported|refused)\s*\(")
# A "what ... is" part kept in a variable first, completed by a relay ("%s not supported ...").
_WHAT = re.compile(r"(?:\bwhat\s*=|\bunsupported\s*=|\bsnprintf\s*\(\s*what\s*,\s*sizeof\s+what\s*,)\s*")
# A table row: | `message` | site | why | `ref/tests/bad/NAME.tcs`, ... |
_ROW = re.compile(r"^\|\s*`((?:[^`]|``)+)`\s*\|(.*)\|(.*)\|(.*)\|\s*$")
# The evidence cell: negative cases, or the model's unit tests for what no scenario reaches.
_EVIDENCE = re.compile(r"`(ref/tests/(?:bad/[\w.-]+\.tcs|test_\w+\.c))`")
_SITE = re.compile(r"`(\w+)` \(`(ref/[\w/]+\.c)`\)")
_FORMAT = re.compile(r"%(?:zu|lld|d|s|c)")


@dataclass(frozen=True)
class Refusal:
    """One refusal message as the source writes it (format directives kept) and its file."""
    message: str
    path: str


@dataclass(frozen=True)
class Row:
    """One row of the table: the message, the (function, file) its site cell names, the kind its
    why cell begins with (undefined, varies, ...), and the negative cases (or unit tests) it names."""
    message: str
    sites: tuple[tuple[str, str], ...]
    evidence: tuple[str, ...]
    why: str = ""


def _unescape(literal: str) -> str:
    return re.sub(r"\\(.)", lambda m: {"n": "\n", "t": "\t"}.get(m.group(1), m.group(1)), literal)


def _groups(text: str) -> list[str]:
    """The strings of text's literal groups (adjacent literals joined), in order."""
    groups: list[str] = []
    end = -1
    for found in _LITERAL.finditer(text):
        part = _unescape(found.group(1))
        if groups and text[end:found.start()].strip() == "":
            groups[-1] += part
        else:
            groups.append(part)
        end = found.end()
    return groups


def _strip_comments(source: str) -> str:
    """source without comments, string literals kept (a quote inside a comment is no literal)."""
    out: list[str] = []
    i = 0
    for found in re.finditer(r'"(?:[^"\\\n]|\\.)*"|/\*.*?\*/|//[^\n]*', source, re.S):
        out.append(source[i:found.start()])
        token = found.group(0)
        out.append(token if token.startswith('"') else "\n" * token.count("\n"))
        i = found.end()
    out.append(source[i:])
    return "".join(out)


def _arguments(source: str, start: int) -> str:
    """The text from start (just after a '(') to its balancing ')', literals skipped whole."""
    depth, i = 1, start
    while i < len(source) and depth:
        if source[i] == '"':
            i = _LITERAL.match(source, i).end()  # type: ignore[union-attr]
            continue
        depth += {"(": 1, ")": -1}.get(source[i], 0)
        i += 1
    return source[start:i - 1]


def refusals_in(source: str, path: str) -> list[Refusal]:
    """Every refusal message a C source can give, in source order (a relay that only completes
    a message from elsewhere, "%s not supported by model v1", is not one)."""
    code = _strip_comments(source)
    found: list[tuple[int, str]] = []
    for call in _CALL.finditer(code):
        for text in _groups(_arguments(code, call.end())):
            if call.group(1) in ("model_unsupported", "refused"):
                found.append((call.start(), text + SUFFIX))
            elif SUFFIX.strip() in text and not text.startswith("%s not supported"):
                found.append((call.start(), text.rstrip()))
    for what in _WHAT.finditer(code):
        statement = code[what.end():code.index(";", what.end())]
        found.extend((what.start(), text + SUFFIX) for text in _groups(statement))
    return [Refusal(message, path) for _, message in sorted(found)]


def source_refusals(sources: dict[str, str]) -> list[Refusal]:
    """The refusals of every source (path -> text), one entry per distinct (message, path)."""
    seen: dict[tuple[str, str], Refusal] = {}
    for path, text in sorted(sources.items()):
        for refusal in refusals_in(text, path):
            seen.setdefault((refusal.message, refusal.path), refusal)
    return list(seen.values())


def table(conformance_text: str) -> list[Row]:
    """The rows of the refusals table (the section HEADING, up to the next heading of level 1 or 2)."""
    start = conformance_text.find("\n" + HEADING + "\n")
    if start < 0:
        raise ValueError(f"the conformance catalogue has no section {HEADING!r}")
    section = re.split(r"\n##? ", conformance_text[start + 1:], maxsplit=1)[0]
    return [Row(found.group(1).replace("``", "`"), tuple(_SITE.findall(found.group(2))),
                tuple(_EVIDENCE.findall(found.group(4))), found.group(3).strip())
            for found in map(_ROW.match, section.splitlines()) if found]


def described(rows: list[Row]) -> list[str]:
    """The messages of rows whose why is "Described": what the documents say and the model
    refuses all the same (issue 11's done-when wants none)."""
    return [row.message for row in rows if row.why.lower().startswith("described")]


def pattern(message: str) -> re.Pattern[str]:
    """A regular expression for what message prints, each format directive any text."""
    return re.compile(".+?".join(re.escape(part) for part in _FORMAT.split(message)))


def _shows(evidence: str, text: str, message: str) -> bool:
    """True iff the evidence file's text shows message: a negative case expects it on its first
    line; a unit test names what is refused (the message without SUFFIX)."""
    if evidence.endswith(".tcs"):
        first = text.split("\n", 1)[0]
        return first.startswith("% expect: ") and bool(pattern(message).search(first))
    return message.endswith(SUFFIX) and bool(pattern(message[:-len(SUFFIX)]).search(text))


def problems(refusals: list[Refusal], rows: list[Row], sources: dict[str, str],
             evidence_texts: dict[str, str]) -> list[str]:
    """What is wrong between the source's refusals (sources: "ref/x.c" -> text), the table and
    the evidence (evidence_texts: "ref/tests/..." -> text); empty when they agree."""
    out: list[str] = []
    listed: dict[str, Row] = {}
    for row in rows:
        if row.message in listed:
            out.append(f"the table lists {row.message!r} twice")
        listed[row.message] = row
    for refusal in refusals:
        row = listed.get(refusal.message)
        if row is None:
            out.append(f"{refusal.path} refuses {refusal.message!r}, which the table does not list")
        elif refusal.path not in {path for _, path in row.sites}:
            out.append(f"the site of {refusal.message!r} does not name `{refusal.path}`")
    in_source = {refusal.message for refusal in refusals}
    for row in rows:
        if row.message not in in_source:
            out.append(f"the table lists {row.message!r}, which no source in ref/ refuses any more")
        out.extend(f"the site of {row.message!r} {wrong}"
                   for wrong in rules.model_problems({row.message: list(row.sites)}, sources).values())
        if not row.evidence:
            out.append(f"the table names no negative case for {row.message!r}")
        for evidence in row.evidence:
            if evidence not in evidence_texts:
                out.append(f"{evidence} (for {row.message!r}) does not exist")
            elif not _shows(evidence, evidence_texts[evidence], row.message):
                out.append(f"{evidence} does not show {row.message!r}")
    return out


def evidence_texts(repo: Path) -> dict[str, str]:
    """The negative cases (ref/tests/bad/*.tcs) and unit tests (ref/tests/test_*.c) of the model,
    keyed by their path in the repository."""
    tests = repo / "ref" / "tests"
    return {f"ref/tests/{path.relative_to(tests).as_posix()}": path.read_text(errors="replace")
            for path in sorted([*tests.glob("bad/*.tcs"), *tests.glob("test_*.c")])}
