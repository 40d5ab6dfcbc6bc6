"""No module is loaded on demand while a case runs (fuzz/FINDINGS.md, seed 20261206 P1): the
runtime's report of a process killed at its max_heap_size is formatted by the logger a few
steps later, and the modules that needed (string, unicode_util) were loaded then; the code
server got the loader's {code_call, Pid, {load_ok, ...}} while `trace existing` had traced it,
and the case got lines of a process it does not name. tcs_runner:load_modules/0 loads them
before the first case. The probe unloads them first (an -eval node has them loaded already),
then loads the runner's set, has a process killed at its max_heap_size and counts the modules
the code server is asked to load while the report is written."""
from __future__ import annotations

import pytest

from conftest import TEST_RELEASES

PROBE = """
Gone = [M || M <- [string, unicode_util, io_lib_pretty, epp], erlang:module_loaded(M),
             erlang:delete_module(M) =:= true, erlang:purge_module(M) =:= true],
ok = tcs_runner_lib:utf8_output(),
ok = tcs_runner:load_modules(),
CS = whereis(code_server),
1 = erlang:trace(CS, true, ['receive']),
{P, R} = spawn_opt(lists, seq, [1, 20000],
                   [monitor, {max_heap_size, #{size => 20000, kill => true, error_logger => true}}]),
receive {'DOWN', R, process, P, killed} -> ok end,
timer:sleep(1000),
erlang:trace(CS, false, ['receive']),
{messages, Got} = process_info(self(), messages),
Loads = [element(3, Req) || {trace, _, 'receive', {code_call, _, Req}} <- Got,
                            is_tuple(Req), element(1, Req) =:= load_ok],
io:format("~nunloaded ~w~nloads ~w~n", [Gone, Loads]),
halt().
"""


@pytest.mark.parametrize("release", TEST_RELEASES)
def test_a_kill_report_loads_nothing(release: str, run_probe) -> None:  # type: ignore[no-untyped-def]
    done = run_probe(release, PROBE, 120)
    lines = done.stdout.split("\n")
    assert any(line.startswith("unloaded [") and line != "unloaded []" for line in lines), done.stdout + done.stderr
    assert "loads []" in lines, done.stdout + done.stderr
