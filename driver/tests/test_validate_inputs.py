"""validate's synthesized trace*/5 arguments against what the runtime makes: the table of
tcs_validate_inputs (one entry per tag, each shape with its source) must cover every argument
shape a sample of the corpus produced on a live node, and hold nothing the runtime cannot
produce for the tag (extra for a tag without one, match_spec_result where no match
specification runs, a scheduler_id the node cannot report, an unknown timestamp kind)."""
from __future__ import annotations

import re
import subprocess
from dataclasses import dataclass

import pytest

from tcs_driver import corpus, node, provision

#: Every SAMPLE_STEP-th case of the corpus, in name order: a spread over every kind of case.
SAMPLE_STEP = 6
CALLBACK = re.compile(r"^[A-Z] (trace\w*)\((.*)\)$")


@dataclass(frozen=True)
class Table:
    """tcs_validate_inputs:table/1 as the driver reads it."""
    extras: dict[str, set[str]]      # tag -> extra shapes (over both kinds of tracee)
    match_spec_result: set[str]      # tags whose Opts can hold match_spec_result
    scheduler_ids: list[int]
    timestamp_kinds: set[str]
    sources: dict[str, str]


def _erl_table(layout: corpus.Layout) -> Table:
    beams = corpus.runner_beams(layout, _local())
    program = (
        "#{tags := Tags, scheduler_ids := Ids, timestamp_kinds := Ts} = "
        "tcs_validate_inputs:table(tcs_validate_lib:categories()), "
        "[io:format(\"tag ~s ~s ~s ~s~n\", [Tag, Kind, lists:join(\",\", [atom_to_list(E) || E <- Extras]), Msr]) "
        " || {Tag, Kind, Extras, Msr} <- Tags], "
        "io:format(\"ids ~w~nts ~w~n\", [Ids, Ts]), "
        "[io:format(\"source ~s ~ts~n\", [S, tcs_validate_inputs:source(S)]) || S <- lists:usort(lists:append("
        "[E || {_, _, E, _} <- Tags])) ++ [scheduler_id, timestamp, match_spec_result]], halt().")
    out = subprocess.run(["erl", "-noshell", "-pa", str(beams), "-eval", program], capture_output=True, text=True,
                         check=True).stdout
    extras: dict[str, set[str]] = {}
    msr: set[str] = set()
    sources: dict[str, str] = {}
    ids: list[int] = []
    kinds: set[str] = set()
    for line in out.splitlines():
        kind, _, rest = line.partition(" ")
        if kind == "tag":
            tag, _tracee, shapes, has_msr = rest.split(" ")
            extras.setdefault(tag, set()).update(s for s in shapes.split(",") if s)
            if has_msr == "true":
                msr.add(tag)
        elif kind == "ids":
            ids = [int(i) for i in rest.strip("[]").split(",")]
        elif kind == "ts":
            kinds = set(rest.strip("[]").split(","))
        elif kind == "source":
            shape, _, text = rest.partition(" ")
            sources[shape] = text
    return Table(extras, msr, ids, kinds, sources)


def _local() -> node.Otp:
    return provision.otps("local", lambda _: None)[0]


def _top_level(text: str, sep: str = ",") -> list[str]:
    """text split at the separators outside brackets and quotes."""
    parts, depth, quoted, start = [], 0, "", 0
    for i, c in enumerate(text):
        if quoted:
            quoted = "" if c == quoted and text[i - 1] != "\\" else quoted
        elif c in "'\"":
            quoted = c
        elif c in "{[(<":
            depth += 1
        elif c in "}])" or (c == ">" and text[i - 1] not in "=-"):   # => and a fun's -> are no brackets
            depth -= 1
        elif c == sep and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    return parts + [text[start:]] if text else parts


def extra_class(text: str) -> set[str]:
    """The table shapes an extra printed in a stream line can be (names hide pid or port; a
    function's return value can be any term)."""
    return {"return_value"} | _specific_class(text)


def _specific_class(text: str) -> set[str]:
    if text.startswith("<"):
        return {"pid", "port", "dead_pid", "remote_pid"}
    if re.fullmatch(r"[a-z]\w*|'[^']*'", text):
        return {"registered_name", "driver_name"}
    if text.startswith("{") and text.endswith("}"):
        parts = _top_level(text[1:-1])
        atom = r"[a-z]\w*|'[^']*'"
        if len(parts) == 3 and re.fullmatch(atom, parts[0]) and re.fullmatch(atom, parts[1]):
            return {"mfa"}
        if len(parts) == 2 and re.fullmatch(atom, parts[0]) and re.fullmatch(atom, parts[1]):
            return {"name_node", "class_value"}
        if len(parts) == 2 and parts[0] in ("error", "exit", "throw"):
            return {"class_value"}
    return set()


def test_extra_shapes_read_from_stream_lines() -> None:
    assert extra_class("<b>") >= {"pid", "port"}
    assert extra_class("{tcs_puppet,run,[c]}") == {"mfa", "return_value"}
    assert extra_class("alpha") == {"registered_name", "driver_name", "return_value"}
    assert extra_class("{alpha,'tcs@host'}") == {"name_node", "class_value", "return_value"}
    assert extra_class("{caught,exception}") == {"name_node", "class_value", "return_value"}
    assert extra_class("[1,2]") == {"return_value"}
    # a spawn of a fun: {erlang,apply,[Fun,[]]} (procs_spawn_fun_entry_call)
    assert extra_class("{erlang,apply,[fun()->[1,2,3] end,[]]}") == {"mfa", "return_value"}
    assert _top_level("extra=><b>,timestamp=>monotonic") == ["extra=><b>", "timestamp=>monotonic"]


@pytest.mark.live
def test_validate_inputs_cover_what_the_runtime_makes(layout) -> None:
    table = _erl_table(layout)
    # every shape the table holds says where it comes from
    for shape in set().union(*table.extras.values()) | {"scheduler_id", "timestamp", "match_spec_result"}:
        assert re.match(r"(000|003|erl_trace\.c|erl_process\.h) ", table.sources.get(shape, "")), shape
    assert table.scheduler_ids[0] == 0 and table.timestamp_kinds == {
        "none", "timestamp", "cpu_timestamp", "monotonic", "strict_monotonic"}
    otp = _local()
    paths = corpus.case_paths(layout)[::SAMPLE_STEP]
    cases = corpus.load_cases(layout, paths)
    seen: dict[tuple[str, str], int] = {}
    problems: list[str] = []
    for result in corpus.run_cases(layout, cases, otp, corpus.host_include()):
        for line in result.live:
            match = CALLBACK.match(line)
            if not match:
                continue
            args = _top_level(match.group(2).replace(", ", ","))
            tag, opts = args[0].strip("'"), args[-1]
            if tag == "seq_trace" or not opts.startswith("#{"):
                continue
            entries = dict(e.split("=>", 1) for e in _top_level(opts[2:-1]) if e)
            where = f"{result.case}: {line}"
            if "extra" in entries:
                shapes = extra_class(entries["extra"]) & table.extras.get(tag, set())
                if not shapes:
                    problems.append(f"{where}: extra {entries['extra']} is no shape of {tag} in the table "
                                    f"({sorted(table.extras.get(tag, set()))})")
                for shape in shapes:
                    seen[(tag, shape)] = seen.get((tag, shape), 0) + 1
            elif table.extras.get(tag):
                problems.append(f"{where}: no extra, but the table always gives {tag} one")
            if "match_spec_result" in entries and tag not in table.match_spec_result:
                problems.append(f"{where}: match_spec_result, which the table never gives {tag}")
            if "scheduler_id" in entries and entries["scheduler_id"].isdigit() and \
                    not 0 <= int(entries["scheduler_id"]) <= table.scheduler_ids[-1]:
                problems.append(f"{where}: scheduler_id outside 0..{table.scheduler_ids[-1]}")
            if "timestamp" in entries and entries["timestamp"] not in table.timestamp_kinds:
                problems.append(f"{where}: timestamp kind {entries['timestamp']} not in the table")
    assert not problems, "\n".join(problems[:20])
    # the sample did exercise the shapes that matter: spawn's {M, F, Args}, a send's recipient
    assert ("spawn", "mfa") in seen and any(tag == "send" for tag, _ in seen), seen
