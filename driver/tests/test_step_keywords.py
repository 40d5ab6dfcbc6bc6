"""A step's keyword and plan name are spelled in one ref/ source, the step table
(ref/case/steps.h, as Lua's lopcodes.h): the parser, the plan printer, the runner, the windows
and seq_trace read them from there, so a kind of step is added in one row.

Some of the table's words are also words of the runtime that the model spells where it means
them (a trace tag, a function of module trace, ...): SHARED lists them with what they are
besides, and only for them is a spelling outside the table allowed."""
from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

REF = Path(__file__).resolve().parents[2] / "ref"
TABLE = Path("case/steps.h")

SHARED: dict[str, str] = {
    "apply": "the function erlang:apply/2, a spawned fun's entry point (LIB-TARGET-APPLY)",
    "call": "trace tag and flag call",
    "delivered": "trace:delivered/2",
    "end": "the end of a fun in a term (`fun() -> T end`, ref/terms)",
    "exit": "trace tag exit",
    "function": "trace:function/4",
    "info": "trace:info/3",
    "kill": "the exit reason kill",
    "link": "trace tag link",
    "load": "the fixture NIF module's function tcs_nif:load/1 (its library's loader)",
    "loop": "the fixture function tcs_shapes:loop/1 (a recursion N deep)",
    "monitor": "erlang:monitor/2 and the system monitor's messages",
    "open_port": "erlang:open_port/2, where a process waits",
    "port_command": "erlang:port_command/2, where a process waits",
    "port": "trace:port/4, the port specs port(all) and port(new), a tracee that is a port",
    "port_control": "erlang:port_control/3",
    "process": "trace:process/4 and the tracer kind process",
    "recv": "trace:recv/3",
    "register": "trace tag register",
    "send": "trace tag and flag send, trace:send/3, the seq_trace token flag",
    "seq_trace": "trace tag seq_trace",
    "session": "the session declaration and trace:session_create/3's error_info",
    "session_info": "trace:session_info/1",
    "spawn": "trace tag spawn",
    "system": "trace:system/3",
    "trace": "trace tag trace and the answer trace",
    "tracer": "the tracer, its declaration and its state process <tracer>",
    "unlink": "trace tag unlink",
    "unregister": "trace tag unregister",
    "while": "the word before what runs meanwhile, in `A wait MS while B sends T` as in `tracer reload while`",
}

_COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)
_LITERAL = re.compile(r'"((?:[^"\\\n]|\\.)*)"')
_ROWS = re.compile(r"#define TCS_(?:STEPS|SESSION_OPS)\(X\)(.*?)\n\n", re.S)


def table_words(table_text: str) -> set[str]:
    """Every keyword and plan name of the step table's rows, and each word of a keyword of
    several words ("tracer exit": also tracer and exit)."""
    rows = _COMMENT.sub("", "".join(_ROWS.findall(table_text)))
    phrases = set(_LITERAL.findall(rows))
    return phrases | {w for phrase in phrases for w in phrase.split()}


def spellings(ref: Path, words: set[str]) -> dict[str, list[str]]:
    """word -> the model's sources (relative paths; not its tests, whose strings are case texts)
    with it as a whole string literal, outside comments, the table excepted."""
    found: dict[str, list[str]] = {w: [] for w in words}
    for path in sorted(p for p in ref.rglob("*.[ch]") if p.relative_to(ref).parts[0] != "tests"):
        if path.relative_to(ref) == TABLE:
            continue
        literals = set(_LITERAL.findall(_COMMENT.sub("", path.read_text())))
        for w in words & literals:
            found[w].append(str(path.relative_to(ref)))
    return found


def problems(ref: Path) -> list[str]:
    """What breaks the rule: a word of the table that is no shared word spelled outside the
    table, or no word of the table at all."""
    found = spellings(ref, table_words((ref / TABLE).read_text()))
    out = [f"{w!r} is spelled in {', '.join(paths)} besides {TABLE}"
           for w, paths in sorted(found.items()) if w not in SHARED and paths]
    out += [f"{w!r} is in SHARED but no word of the step table" for w in sorted(SHARED) if w not in found]
    return out


def test_the_table_has_every_kind_of_step() -> None:
    words = table_words((REF / TABLE).read_text())
    assert {"seq_token", "spawn_link", "tracer reload while", "tracer_reload_busy", "apply", "call"} <= words


def test_each_step_keyword_is_spelled_in_the_table_alone() -> None:
    assert problems(REF) == []


@pytest.mark.parametrize("shared", sorted(SHARED))
def test_a_shared_word_is_spelled_elsewhere_too(shared: str) -> None:
    """A word listed as shared that only the table spells would hide a duplicate of it."""
    assert spellings(REF, {shared})[shared], SHARED[shared]


def _copy(ref: Path, into: Path) -> Path:
    shutil.copytree(ref, into, ignore=shutil.ignore_patterns("*.tcs", "*.txt", "*.cmake"))
    return into


@pytest.mark.parametrize("path,word", [("case/plan.c", "seq_token"), ("run/run.c", "spawn_link"),
                                       ("case/scenario.c", "tracer reload while")],
                         ids=["plan_name_in_plan", "keyword_in_runner", "phrase_in_parser"])
def test_a_duplicate_is_found(tmp_path: Path, path: str, word: str) -> None:
    ref = _copy(REF, tmp_path / "ref")
    with (ref / path).open("a") as f:
        f.write(f'static const char *const again = "{word}";\n')
    assert problems(ref) == [f"{word!r} is spelled in {path} besides {TABLE}"]


def test_a_commented_keyword_is_no_spelling(tmp_path: Path) -> None:
    ref = _copy(REF, tmp_path / "ref")
    with (ref / "case/plan.c").open("a") as f:
        f.write('/* "seq_token" */\n')
    assert problems(ref) == []
