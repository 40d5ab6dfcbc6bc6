"""A case's golden stream, each line with the rules behind it, beside what each release did.

The rules of a line come from the model (`tcsref sim FILE --explain`, which
ends each line with `  % RULE-ID ...`). What a release did is judged by the
comparison `./tcs run` makes (corpus.compare): each golden line is marked
agree (`=`), missing live (`-`) or not compared (`.`: informative, or a kind
this case's tracers do not reveal), and the live lines no golden line
accounts for are listed as unexpected (`+`)."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

from .. import corpus, diff, stream

#: What each mark of a golden line means, for legends.
MARKS: Final[dict[str, str]] = {
    "=": "the node did it too",
    "-": "the node did not do it (missing)",
    ".": "not compared (informative, or not observable with this case's tracers)",
}
#: Separates a golden line from its rules in `sim --explain` output.
_EXPLAIN_SEP: Final[str] = "  % "


@dataclass(frozen=True)
class AnnotatedLine:
    """One golden line and the IDs of the rules that produced it."""
    text: str                 # CLASS BODY, as golden files spell it
    rules: tuple[str, ...]


@dataclass(frozen=True)
class Golden:
    """A case's golden stream, as annotated lines and as parsed lines (same order)."""
    annotated: list[AnnotatedLine]
    lines: list[stream.Line]


@dataclass(frozen=True)
class ReleaseView:
    """What one release did with a case, line by line against the golden stream."""
    otp: str
    status: str                                    # a results.STATUSES value
    detail: str
    marks: list[str] = field(default_factory=list)  # one per golden line ('' for a skip)
    unexpected: list[str] = field(default_factory=list)  # live lines no golden line accounts for
    live: list[str] = field(default_factory=list)

    @property
    def agrees(self) -> bool:
        """The release did what the model says (or the case does not apply to it)."""
        return self.status in ("pass", "skip")


def parse_explained(text: str) -> list[AnnotatedLine]:
    """The lines of `tcsref sim --explain` output, comments (the header) left out."""
    out = []
    for raw in text.splitlines():
        if not raw.strip() or raw.startswith("%"):
            continue
        body, sep, rules = raw.rpartition(_EXPLAIN_SEP)
        out.append(AnnotatedLine(body, tuple(rules.split())) if sep else AnnotatedLine(raw, ()))
    return out


def golden_of(layout: corpus.Layout, path: Path) -> Golden:
    """The model's golden stream of a scenario file, annotated; raises corpus.ModelError (FILE:LINE:COL)."""
    annotated = parse_explained(corpus.model(layout, "sim", str(path), "--explain"))
    return Golden(annotated, stream.parse_stream("\n".join(a.text for a in annotated), str(path)))


def release_view(case: corpus.Case, golden: Golden, otp: str, status: str, detail: str,
                 live: list[str], *, strict: bool = False) -> ReleaseView:
    """A release's result (status, detail, live lines as `CLASS BODY`) marked line by line.

    A crash or timeout is marked against what the node reported before it ended."""
    if status == "skip":
        return ReleaseView(otp, status, detail)
    # Classified again from the bodies, as the run classified them (some classes depend on the lines around).
    parsed = stream.parse_live_stream("\n".join(text[2:] for text in live), f"live {case.id} on OTP {otp}")
    comparison = corpus.compare(case, golden.lines, parsed, strict=strict)
    compared = {id(line) for group in comparison.groups for line in group.golden}
    missing: set[int] = set()
    unexpected: list[str] = []
    for group in comparison.differing():
        gone, extra = diff.missing_and_extra(group.golden, group.live)
        missing |= {id(line) for line in gone}
        unexpected += [line.text() for line in extra]
    marks = ["-" if id(line) in missing else "=" if id(line) in compared else "." for line in golden.lines]
    return ReleaseView(otp, status, detail, marks, unexpected, list(live))
