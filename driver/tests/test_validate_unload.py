"""Every validate job that loaded the tracer ends by unloading it (tcs_validate_lib:finish/1), in a
plain node that runs with glibc's malloc check (validate/jobs.py, malloc_check_env): a tracer that
writes past a block it frees in its unload callback fails at that step every time.  The tracer is
nif_impls/independent/ext_schedid (written without reading validate), built here as a user would;
on OTP 25 its write went unnoticed in one run of four before the unload step."""
from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tcs_driver import corpus
from tcs_driver.validate import engine, inputs, jobs
from tcs_driver.validate.checks import Bench, Stress

EXT_SCHEDID = Path(__file__).resolve().parents[2] / "nif_impls" / "independent" / "ext_schedid"


def test_malloc_check_needs_the_library_in_the_root(tmp_path: Path) -> None:
    """A root without glibc's debugging malloc gets no check (and no preload the node would complain
    of); one with it, on a host with it, gets the check."""
    if not jobs.malloc_check_env(None):
        pytest.skip(f"needs glibc's debugging malloc on the host ({jobs.MALLOC_DEBUG}, glibc 2.34 and later)")
    bare = tmp_path / "bare"
    (bare / "usr" / "lib").mkdir(parents=True)
    assert jobs.malloc_check_env(bare) == {}
    rooted = tmp_path / "rooted"
    (rooted / "lib" / "x86_64-linux-gnu").mkdir(parents=True)
    (rooted / "lib" / "x86_64-linux-gnu" / jobs.MALLOC_DEBUG).write_bytes(b"")
    assert jobs.malloc_check_env(rooted) == {"LD_PRELOAD": jobs.MALLOC_DEBUG, "MALLOC_CHECK_": "3"}


@pytest.mark.live
def test_a_write_past_a_block_freed_at_unload_fails_there(layout, otp_node, tmp_path: Path) -> None:
    otp, _release, include = otp_node
    if not jobs.malloc_check_env(otp.root):
        pytest.skip(f"needs glibc's debugging malloc ({jobs.MALLOC_DEBUG}, glibc 2.34 and later)")
    library = tmp_path / "ext_schedid.so"
    subprocess.run(["gcc", "-shared", "-fPIC", "-O2", "-Wall", "-Wextra", "-Werror", f"-I{include}",
                    "-o", str(library), str(EXT_SCHEDID.with_suffix(".c"))], check=True)
    prepared = inputs.prepare("ext_schedid", str(library), str(EXT_SCHEDID.with_suffix(".erl")), None, None,
                              tmp_path)
    options = engine.Options(checks=("shape", "trace_accepts"), bench=Bench(1, 500, 500, budget=1000.0),
                             stress=Stress(seconds=2.0))
    results = engine.validate(prepared, [otp], lambda o: corpus.runner_beams(layout, o), options, lambda _: None)
    accepts = next(r for r in results if r.check == "trace_accepts")
    assert accepts.status == "fail", accepts.summary
    # every input returned (the write past the block breaks nothing the calls see): the check fails
    # in the last step, where the library's unload callback frees the block and glibc finds it written
    assert accepts.summary.startswith("crash in unloading the tracer module"), accepts.summary
    assert "killed by SIGABRT" in accepts.summary and "free(): invalid pointer" in accepts.summary, accepts.summary
