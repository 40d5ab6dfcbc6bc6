"""JUnit XML, the format CI systems read (Jenkins, GitLab, GitHub actions
that annotate test results): one <testsuite> per OTP release, one
<testcase> per case (run) or per check (validate) on that release.  A
failing result is a <failure> whose text is the evidence, a crash or a hang
an <error>, a skip <skipped> with its reason.  Shared by every command that
writes --junit."""
from __future__ import annotations

import os
import xml.etree.ElementTree as ET
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

#: How each outcome is written: passed, failure, error, skipped.
OUTCOMES = ("passed", "failure", "error", "skipped")


@dataclass(frozen=True)
class Case:
    """One testcase: what ran, on which release, its outcome and evidence."""
    suite: str               # the release it ran on, e.g. "OTP 27" or "OTP 26@/opt/otp/bin/erl"
    classname: str           # e.g. "tcs.run" or "tcs.validate.my_tracer"
    name: str                # the case or check
    outcome: str             # one of OUTCOMES
    message: str = ""        # one line
    text: str = ""           # the evidence
    seconds: float = 0.0

    def __post_init__(self) -> None:
        if self.outcome not in OUTCOMES:
            raise ValueError(f"{self.name}: unknown outcome {self.outcome!r}")


def _clean(text: str) -> str:
    """Text without the characters XML 1.0 cannot hold (a node's output may have any)."""
    return "".join(c for c in text if c in "\t\n\r" or (" " <= c <= "\ud7ff") or ("\ue000" <= c <= "\ufffd")
                   or c >= "\U00010000")


def render(name: str, cases: Iterable[Case]) -> str:
    """The JUnit XML document: <testsuites name=...> with a <testsuite> per suite, in order of appearance."""
    items = list(cases)
    suites: dict[str, list[Case]] = {}
    for case in items:
        suites.setdefault(case.suite, []).append(case)
    top = ET.Element("testsuites", name=name, tests=str(len(items)),
                     failures=str(sum(c.outcome == "failure" for c in items)),
                     errors=str(sum(c.outcome == "error" for c in items)),
                     skipped=str(sum(c.outcome == "skipped" for c in items)),
                     time=f"{sum(c.seconds for c in items):.3f}")
    for suite, members in suites.items():
        element = ET.SubElement(top, "testsuite", name=suite, tests=str(len(members)),
                                failures=str(sum(c.outcome == "failure" for c in members)),
                                errors=str(sum(c.outcome == "error" for c in members)),
                                skipped=str(sum(c.outcome == "skipped" for c in members)),
                                time=f"{sum(c.seconds for c in members):.3f}")
        for case in members:
            test = ET.SubElement(element, "testcase", classname=case.classname, name=case.name,
                                 time=f"{case.seconds:.3f}")
            if case.outcome != "passed":
                detail = ET.SubElement(test, case.outcome, message=_clean(case.message))
                if case.outcome != "skipped":
                    detail.set("type", case.outcome)
                    detail.text = _clean(case.text)
    ET.indent(top)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(top, encoding="unicode") + "\n"


def write(path: Path, name: str, cases: Iterable[Case]) -> None:
    """Writes the document whole or not at all (a temporary file renamed over the target); raises OSError."""
    partial = path.with_name(f".{path.name}.partial-{os.getpid()}")
    try:
        partial.write_text(render(name, cases))
        partial.replace(path)
    finally:
        partial.unlink(missing_ok=True)
