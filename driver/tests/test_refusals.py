"""conformance/refusals.md "What the model refuses, and why": every refusal of the model's sources is in
the table, every row is still a refusal, and each row's negative case shows it."""
from __future__ import annotations

from pathlib import Path

import pytest

from tcs_driver import conformance, refusals

REPO = Path(__file__).resolve().parents[2]

SOURCE = r'''
/* a comment saying "x is not supported by model v1" is no refusal */
static bool step(Parser *p, const Step *st)
{
    if (st->x)
        return fail(p, at, "'%s' in a step is not supported by model v1", w);
    if (st->y)
        return model_unsupported(m, st->line, st->col, "a step by "
                                 "a ghost is");
    if (st->z)
        return model_unsupported(m, st->line, st->col, st->link ? "linking a port is" : "unlinking a port is");
    what = "a relayed step is";
    return what ? fail(p, at, "%s not supported by model v1", what) : fail(p, at, "expected 'on'");
}
'''

TABLE = """
# What the model refuses, and why

| message | site | why | negative case |
|---|---|---|---|
| `'%s' in a step is not supported by model v1` | `step` (`ref/x.c`) | Undefined. | `ref/tests/bad/quoted.tcs` |
| `a step by a ghost is not supported by model v1` | `step` (`ref/x.c`) | Not a term. | `ref/tests/test_x.c` |
| `linking a port is not supported by model v1` | `step` (`ref/x.c`) | Undefined. | `ref/tests/bad/link.tcs` |
| `unlinking a port is not supported by model v1` | `step` (`ref/x.c`) | Undefined. | `ref/tests/bad/link.tcs` |
| `a relayed step is not supported by model v1` | `step` (`ref/x.c`) | Harness. | `ref/tests/bad/relay.tcs` |

## 5. Next
| `not a row of it` | `step` (`ref/x.c`) | - | - |
"""

EVIDENCE = {
    "ref/tests/bad/quoted.tcs": "% expect: 3:9: 'port(all)' in a step is not supported by model v1\ncase quoted\n",
    "ref/tests/test_x.c": 'check("unsupported: a step by a ghost is");\n',
    "ref/tests/bad/link.tcs": "% expect: 4:1: unlinking a port is not supported by model v1\n",
    "ref/tests/bad/relay.tcs": "% expect: 4:1: a relayed step is not supported by model v1\n",
}


def test_refusals_in_reads_calls_relays_and_joined_literals() -> None:
    assert [r.message for r in refusals.refusals_in(SOURCE, "ref/x.c")] == [
        "'%s' in a step is not supported by model v1",
        "a step by a ghost is not supported by model v1",
        "linking a port is not supported by model v1",
        "unlinking a port is not supported by model v1",
        "a relayed step is not supported by model v1",
    ]


def test_table_reads_its_own_section_only() -> None:
    rows = refusals.table(TABLE)
    assert [row.message for row in rows][-1] == "a relayed step is not supported by model v1"
    assert rows[0].sites == (("step", "ref/x.c"),)
    assert rows[1].evidence == ("ref/tests/test_x.c",)
    with pytest.raises(ValueError, match="no section"):
        refusals.table("## 3. Clarifications\n")


def test_described_names_the_rows_the_documents_describe() -> None:
    rows = refusals.table(TABLE.replace("| Harness. |", "| Described: 003 says what it does. |"))
    assert refusals.described(rows) == ["a relayed step is not supported by model v1"]
    assert refusals.described(refusals.table(TABLE)) == []


def test_the_model_refuses_nothing_the_documents_describe() -> None:
    """Issue 11's done-when: every refusal is of what the documents leave undefined, of what varies,
    of what the language cannot write or of the harness; none is "described"."""
    assert refusals.described(refusals.table(conformance.text(REPO))) == []


def test_pattern_stands_for_what_the_case_wrote() -> None:
    assert refusals.pattern("'%s' in a step is").search("9: 'port(all)' in a step is not")
    assert not refusals.pattern("module '%s' is").search("module lists is")


def test_table_and_source_agree() -> None:
    sources = {"ref/x.c": SOURCE}
    assert refusals.problems(refusals.refusals_in(SOURCE, "ref/x.c"), refusals.table(TABLE), sources, EVIDENCE) == []


def test_problems_name_a_refusal_missing_from_the_table_and_a_row_gone_from_the_source() -> None:
    sources = {"ref/x.c": SOURCE.replace('"a relayed step is"', '"a renamed step is"')}
    found = refusals.problems(refusals.refusals_in(sources["ref/x.c"], "ref/x.c"), refusals.table(TABLE),
                              sources, EVIDENCE)
    assert found == [
        "ref/x.c refuses 'a renamed step is not supported by model v1', which the table does not list",
        "the table lists 'a relayed step is not supported by model v1', which no source in ref/ refuses any more",
    ]


def test_problems_name_wrong_evidence_and_sites() -> None:
    rows = refusals.table(TABLE.replace("`ref/tests/bad/link.tcs` |\n| `unlinking", "`ref/tests/bad/gone.tcs` |\n| `unlinking")
                          .replace("`step` (`ref/x.c`) | Harness.", "`stride` (`ref/x.c`) | Harness.")
                          .replace("| `ref/tests/bad/relay.tcs` |", "| `ref/tests/bad/link.tcs` |"))
    sources = {"ref/x.c": SOURCE}
    assert refusals.problems(refusals.refusals_in(SOURCE, "ref/x.c"), rows, sources, EVIDENCE) == [
        "ref/tests/bad/gone.tcs (for 'linking a port is not supported by model v1') does not exist",
        "the site of 'a relayed step is not supported by model v1' names stride, which ref/x.c does not define",
        "ref/tests/bad/link.tcs does not show 'a relayed step is not supported by model v1'",
    ]


def test_every_refusal_of_the_model_is_listed_and_shown() -> None:
    """The check of the issue's done-when: grep for the refusal message finds only what
    conformance/refusals.md lists, each with a negative case (or, where no scenario reaches it, a unit test)."""
    ref = REPO / "ref"
    sources = {f"ref/{path.relative_to(ref).as_posix()}": path.read_text() for path in sorted(ref.rglob("*.c"))
               if path.parent.name != "tests"}
    found = refusals.source_refusals(sources)
    assert found, "no refusal found in ref/: the extraction is broken"
    rows = refusals.table(conformance.text(REPO))
    assert refusals.problems(found, rows, sources, refusals.evidence_texts(REPO)) == []
