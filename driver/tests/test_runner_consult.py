"""tcs_runner_lib:consult/1, which reads job and plan files whole, gives what file:consult/1 gives, on
every release: atoms beyond Latin-1 (in UTF-8, as the model writes plans), binaries, strings, nested
terms, comments; and an error, not terms, for a file cut short."""
from __future__ import annotations

import pytest

from conftest import TEST_RELEASES

PROBE = r"""
Path = "/tmp/tcs_consult_probe_" ++ os:getpid(),
Text = <<"{case_id, <<\"lib_phash2_atoms\">>}.\n%% a comment\n{tracer, recorder, [], [{default, trace}]}.\n"
         "{step, 7, {call, a, erlang, phash2, ['", (unicode:characters_to_binary([26085, 26412]))/binary, "']}}.\n"
         "{step, 8, {call, a, erlang, phash2, [{'", (unicode:characters_to_binary([937]))/binary, "mega', [233], \"x.y\", 1.5e3, -7}]}}.\n">>,
ok = file:write_file(Path, Text),
Same = tcs_runner_lib:consult(Path) =:= file:consult(Path),
{ok, Terms} = tcs_runner_lib:consult(Path),
ok = file:write_file(Path, <<"{a, 1}.\n{b, 2}">>),
Cut = element(1, tcs_runner_lib:consult(Path)),
ok = file:delete(Path),
io:format("~nsame ~w~nterms ~w~ncut ~w~n", [Same, length(Terms), Cut]),
halt().
"""


@pytest.mark.parametrize("release", TEST_RELEASES)
def test_consult_reads_what_file_consult_reads(release: str, run_probe) -> None:  # type: ignore[no-untyped-def]
    done = run_probe(release, PROBE, 120)
    lines = done.stdout.split("\n")
    assert "same true" in lines and "terms 4" in lines, done.stdout + done.stderr
    assert "cut error" in lines, done.stdout + done.stderr
