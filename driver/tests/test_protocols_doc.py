"""PROTOCOLS.md says what the code does: its tables of keys and markers are compared with
what the model prints, what the driver writes and what the runner's modules emit, and its list
of release predictions is generated from the model's table (`tcsref deviations`)."""
from __future__ import annotations

import json
import re
from pathlib import PurePosixPath

import pytest

from tcs_driver import corpus, node, release
from tcs_driver.layout import REPO

DOC = (REPO / "PROTOCOLS.md").read_text()
RUNNER = REPO / "driver" / "runner"


def section(number: int) -> str:
    """The text of `## N. ...` up to the next section."""
    m = re.search(rf"^## {number}\. .*?(?=^## |\Z)", DOC, re.S | re.M)
    assert m is not None, f"PROTOCOLS.md has no section {number}"
    return m.group(0)


def table_keys(text: str, nth: int = 0) -> list[str]:
    """The first column (a `code` cell) of the nth table of a text, in order."""
    tables = re.findall(r"((?:^\|.*\n)+)", text, re.M)
    return re.findall(r"^\| `([^`]+)` \|", tables[nth], re.M)


def emitted(modules: list[str]) -> set[str]:
    """The marker kinds these runner modules write: out("KIND" ...), step/finding/done, "TCS KIND"."""
    kinds: set[str] = set()
    for module in modules:
        text = (RUNNER / f"{module}.erl").read_text()
        kinds |= set(re.findall(r'\bout\((?:io_lib:format\()?"([A-Z]+)', text))
        kinds |= set(re.findall(r'"TCS ([A-Z]+(?: END)?)', text)) - {"K"}
    return kinds


def test_case_metadata_keys(layout: corpus.Layout) -> None:
    meta = json.loads(corpus.model(layout, "meta", str(layout.case_file("sess_isolation_callbacks"))))
    assert table_keys(section(1)) == list(meta)  # the keys, in order


def test_tag_table_keys(layout: corpus.Layout) -> None:
    assert table_keys(section(3)) == list(json.loads(corpus.model(layout, "tags")))


def test_corpus_job_keys() -> None:
    text = node.job_terms(PurePosixPath("/p"), PurePosixPath("/g"), "m", PurePosixPath("/m"), 1)
    assert table_keys(section(4)) == re.findall(r"^\{(\w+),", text, re.M)


def test_validate_job_keys() -> None:
    """Every key a validate runner module reads from its job (option/2,3) is in section 4's validate
    table, and the table has no other."""
    read: set[str] = set()
    for module in RUNNER.glob("tcs_validate_*.erl"):
        text = module.read_text()
        read |= set(re.findall(r"\boption\(([a-z]\w*)\s*,", text)) - {"list_to_atom"}
        read |= {f"only_{family}" for family in re.findall(r'"only_" \+\+ atom_to_list', text)
                 for family in ("enabled", "trace")}
    assert set(table_keys(section(4), 1)) == read


def _doc_markers(nth: int) -> set[str]:
    """The marker kinds of the nth marker table of section 5 (0: corpus nodes, 1: validate nodes)."""
    return set(re.findall(r"^\| `TCS ([A-Z]+(?: END)?)", section(5).split("**Validate nodes**")[nth], re.M))


@pytest.mark.parametrize(("nth", "modules", "helpers"), [
    pytest.param(0, ["tcs_batch", "tcs_runner", "tcs_runner_lib", "tcs_ports", "tcs_procflags", "tcs_sessions",
                     "tcs_seq", "tcs_patterns", "tcs_watchdog"], set(), id="corpus"),
    pytest.param(1, ["tcs_validate_lib", "tcs_validate_shape", "tcs_validate_calls", "tcs_validate_cost",
                     "tcs_validate_dead", "tcs_validate_live"], {"STEP", "FINDING", "END"}, id="validate"),
])
def test_node_markers(nth: int, modules: list[str], helpers: set[str]) -> None:
    # tcs_validate_lib writes STEP, FINDING and END through step/3, finding/3 and done/0.
    assert _doc_markers(nth) == emitted(modules) | helpers


def test_release_predictions_are_the_models_table(layout: corpus.Layout) -> None:
    generated = release.with_document(DOC, corpus.deviations(layout))
    assert generated == DOC, "PROTOCOLS.md's list of release predictions is stale: regenerate it with " \
                             "PYTHONPATH=driver /usr/bin/python3 -m tcs_driver.release"


def test_the_list_of_release_predictions_is_one_row_per_deviation(layout: corpus.Layout) -> None:
    table = corpus.deviations(layout)
    block = DOC[DOC.index(release.BEGIN):DOC.index(release.END)]
    rows = re.findall(r"^\| (C-\d+) \| [^|]+ \| `([a-z-]+)` \|", block, re.M)
    assert rows == [(d.clarification, d.kind) for d in table]
    assert {d.kind for d in table} == set(release.KINDS)  # every kind is in use
