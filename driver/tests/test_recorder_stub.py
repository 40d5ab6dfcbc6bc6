"""The recorder stub a node assembles for a variant (tcs_runner_lib:recorder_stub/1: one compiled
template's assembly, renamed) is the beam the release's compiler makes of the variant's own source,
chunk for chunk, all but the compiler's options (CInf), and the node writes no listing file for it. The corpus loads the stubs and runs them."""
from __future__ import annotations

import pytest

from conftest import TEST_RELEASES

PROBE = """
Mod = tcs_recorder_stub_probe,
Made = tcs_runner_lib:recorder_stub(Mod),
{ok, Tokens, _} = erl_scan:string(tcs_runner_lib:stub_source(Mod)),
Forms = [begin {ok, F} = erl_parse:parse_form(Form), F end
         || Form <- element(1, lists:foldl(fun({dot, _} = D, {Done, Cur}) -> {[lists:reverse([D | Cur]) | Done], []};
                                              (T, {Done, Cur}) -> {Done, [T | Cur]} end, {[], []}, Tokens))],
{ok, Mod, Compiled} = compile:forms(lists:reverse(Forms), [binary, return_errors]),
{ok, Mod, MadeChunks} = beam_lib:all_chunks(Made),
{ok, Mod, CompiledChunks} = beam_lib:all_chunks(Compiled),
Differ = [Id || {Id, Data} <- MadeChunks, proplists:get_value(Id, CompiledChunks) =/= Data],
io:format("~nchunks ~s~ndiffer ~s~nlisting ~w~n", [lists:join(",", [Id || {Id, _} <- MadeChunks]), lists:join(",", Differ),
                                               filelib:is_file("tcs_recorder_template.S")]),
halt().
"""


@pytest.mark.parametrize("release", TEST_RELEASES)
def test_an_assembled_stub_is_the_compiled_one(release: str, run_probe) -> None:  # type: ignore[no-untyped-def]
    done = run_probe(release, PROBE, 120)
    lines = done.stdout.split("\n")
    differ = next((line for line in lines if line.startswith("differ")), None)
    assert differ is not None and set(differ.split()[1:2]) <= {"CInf"}, done.stdout + done.stderr
    assert "listing false" in lines, "the template's assembly was written to a file: " + done.stdout
    # the chunks that hold the code, its atoms, exports and imports are among those compared (no
    # literals: the stub looks its library and answers up in a table by its own name, an atom)
    chunks = next(line for line in lines if line.startswith("chunks "))
    assert {"Code", "AtU8", "ExpT", "ImpT"} <= set(chunks.split()[1].split(",")), chunks
