"""The driver's side of the node protocol (tcs_driver.protocol), shared by the corpus runner
and ./tcs validate: job files, marker lines, progress files (PROTOCOLS.md)."""
from __future__ import annotations

import subprocess
from pathlib import Path, PurePosixPath

import pytest

from tcs_driver import node, protocol


@pytest.mark.parametrize(("text", "literal"), [
    pytest.param("/tmp/a b", '"/tmp/a b"', id="plain"),
    pytest.param('say "hi"', '"say \\"hi\\""', id="quote"),
    pytest.param("C:\\x", '"C:\\\\x"', id="backslash"),
])
def test_erlang_string(text: str, literal: str) -> None:
    assert protocol.erlang_string(text) == literal


def test_job_file_is_one_term_a_line() -> None:
    text = protocol.job_file({"plan": protocol.erlang_string("/p/plan.terms"), "step_timeout_ms": 5000})
    assert text == '{plan, "/p/plan.terms"}.\n{step_timeout_ms, 5000}.\n'


def test_the_job_file_is_what_file_consult_reads(tmp_path: Path, otp_node) -> None:
    """The corpus runner's job file, read back by Erlang itself."""
    otp, _, _ = otp_node
    job = tmp_path / "job.terms"
    job.write_text(node.job_terms(PurePosixPath("/p/plan \"1\".terms"), PurePosixPath("/p/gate"), "tcs_rec_0000",
                                  PurePosixPath("/p/tcs_rec_0000"), 300,
                                  (node.SessionTracer("sa", "tcs_rec_0080", Path("/p/tcs_rec_0080")),)))
    probe = f'{{ok, T}} = file:consult("{job}"), io:format("~w", [T]), halt().'
    done = subprocess.run(otp.erl + ["-noshell", "-noinput", "-eval", probe], capture_output=True, text=True,
                          timeout=60)
    assert done.stdout == ('[{plan,[47,112,47,112,108,97,110,32,34,49,34,46,116,101,114,109,115]},'
                           '{gate_so,[47,112,47,103,97,116,101]},{tracer_module,tcs_rec_0000},'
                           '{tracer_so,[47,112,47,116,99,115,95,114,101,99,95,48,48,48,48]},'
                           '{step_timeout_ms,300},{session_tracers,[{sa,tcs_rec_0080,'
                           '[47,112,47,116,99,115,95,114,101,99,95,48,48,56,48]}]}]')


@pytest.mark.parametrize(("line", "found"), [
    pytest.param("TCS STEP 3 call/send/pid enabled_send", ("STEP", "3 call/send/pid enabled_send"), id="step"),
    pytest.param("TCS END", ("END", ""), id="bare"),
    pytest.param("TCS LINE ctl erlang:trace(<a>,true,[send]) -> 1", ("LINE", "ctl erlang:trace(<a>,true,[send]) -> 1"),
                 id="line"),
    pytest.param("=ERROR REPORT==== TCS", None, id="not-protocol"),
    pytest.param("TCSEND", None, id="no-space"),
])
def test_marker(line: str, found: tuple[str, str] | None) -> None:
    assert protocol.marker(line) == found


def test_progress_file_returns_complete_lines_only(tmp_path: Path) -> None:
    path = tmp_path / "progress"
    path.write_bytes(b"")
    with protocol.ProgressFile(path) as progress, open(path, "ab", buffering=0) as node_side:
        assert progress.read() == []
        node_side.write(b"TCS OTP 25\nTCS STEP 1 a")
        assert progress.read() == [("OTP", "25")]
        node_side.write(b"/b c\nnoise from the node\nTCS END\n")
        assert progress.read() == [("STEP", "1 a/b c"), ("END", "")]
        assert progress.read() == []
