"""./tcs validate --sanitize --src: the memory check on an ASan+UBSan build of the
tracer, loaded into a plain node with the ASan runtime preloaded.  On every
release of the suite: the bundled tcs_defect_heap_overrun is caught with the
input and its function named, every good bundled tracer is clean (10 times
each in bench/validate_matrix.py); then the reading of the node's log (which
reports are the tracer's, which input ran into them) and the command line."""
from __future__ import annotations

import argparse
import dataclasses
import subprocess
from pathlib import Path

import pytest

from conftest import TEST_RELEASES
import tcs_driver.validate as validate
from tcs_driver import corpus, node
from tcs_driver.validate import asan, bundled, engine, inputs
from tcs_driver.validate.checks import SANITIZE_CHECK, CheckResult

pytestmark = pytest.mark.skipif(asan.unavailable() is not None, reason=f"no ASan build: {asan.unavailable()}")


def _options() -> engine.Options:
    """`./tcs validate --checks shape --sanitize --parallel 1`, read by the command's own parser."""
    args = argparse.ArgumentParser()
    validate.add_arguments(args)
    return validate._options(args.parse_args(["--module", "m", "--checks", "shape", "--sanitize",
                                              "--parallel", "1"]))


def _memory(layout, otp: node.Otp, tracer: bundled.Bundled, scratch: Path) -> CheckResult:
    prepared = inputs.prepare(tracer.module, str(tracer.nif), str(tracer.erl), None, None, scratch)
    built = asan.build((tracer.erl.with_suffix(".c"),), corpus.host_include(), scratch / "asan.so")
    results = engine.validate(dataclasses.replace(prepared, sanitized=built), [otp],
                              lambda o: corpus.runner_beams(layout, o), _options(), lambda _: None)
    assert [r.check for r in results] == ["shape", SANITIZE_CHECK] and results[0].status == "pass", results
    return results[1]


CASES = [(release, module) for release in TEST_RELEASES
         for module in ("tcs_defect_heap_overrun", *(name for name, _, _ in bundled.GOOD))]


@pytest.mark.live
@pytest.mark.parametrize("release, module", CASES, ids=[f"{r}-{m}" for r, m in CASES])
def test_asan_build_catches_the_overrun_and_passes_the_good_tracers(release: str, module: str, layout, otp_for,
                                                                    tmp_path: Path) -> None:
    tracer = next(t for t in bundled.good(layout) + bundled.defective(layout) if t.module == module)
    memory = _memory(layout, otp_for(release), tracer, tmp_path)
    assert memory.data["sanitizer"] == "asan"
    if module.startswith("tcs_defect_"):
        assert memory.status == "fail", memory.summary
        assert memory.summary.startswith("trace(") and "AddressSanitizer: heap-buffer-overflow: READ of size 1" \
            in memory.summary, memory.summary
        assert "the tracer's name_sum (tcs_defect_heap_overrun.c:" in memory.summary, memory.summary
    else:
        assert memory.status == "pass", "\n".join([memory.summary, *memory.evidence])
        assert memory.data["errors"] == 0 and "no error in the tracer's library (ASan, UBSan)" in memory.summary


# --- reading the node's log ----------------------------------------------------------------------

def _frames(*modules: str) -> str:
    return "".join(f"    #{i} 0x7f00000{i:04x}  ({m}+0x{0x3a41 + i:x}) (BuildId: 5d89)\n" for i, m in enumerate(modules))


def _asan(*modules: str) -> str:
    return ("=================================================================\n"
            "==2==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x6020 at pc 0x7f bp 0x7f sp 0x7f\n"
            "READ of size 1 at 0x60200000f874 thread T5\n" + _frames(*modules) +
            "\n0x60200000f874 is located 0 bytes to the right of 4-byte region [0x6020,0x6024)\n"
            "allocated by thread T5 here:\n" + _frames(asan.RUNTIME, "/usr/lib/erlang/bin/beam.smp") +
            "\nSUMMARY: AddressSanitizer: heap-buffer-overflow (t.so+0x3a41) (BuildId: 5d89)\n"
            "Shadow bytes around the buggy address:\n  0x0c04: fa fa\n")


def test_log_keeps_only_reports_in_the_tracer_and_names_the_step_before(tmp_path: Path) -> None:
    beam = "/usr/lib/erlang/erts-15.2.7/bin/beam.smp"
    text = "".join([
        _asan(beam, "/memfd:vmem (deleted)"),                                      # OTP's own
        "\nTCS-STEP t7 trace/send trace(send, State, Tracee=pid, ok, #{})\n",
        _asan("t.so", beam),
        "\nTCS-STEP t8 trace/send trace(send, State, Tracee=port, ok, #{})\n",
        _asan(asan.RUNTIME, "tcs_x.so", beam),                                      # memcpy called by the tracer
        "/src/t.c:3:54: runtime error: signed integer overflow: 40 + 2147483647 cannot be represented in type 'int'\n",
        _frames("/tmp/w/asan/t.so", beam), "\nSUMMARY: UndefinedBehaviorSanitizer: undefined-behavior t.c:3:54 in\n",
    ])
    log = asan.parse(text, frozenset({"t.so", "tcs_x.so"}), tmp_path / "missing.so")
    assert log.otp_errors == 1
    first, second, third = log.findings
    assert first.input() == "trace(send, State, Tracee=pid, ok, #{})" and first.kind == "heap-buffer-overflow"
    assert first.what == ("AddressSanitizer: heap-buffer-overflow: READ of size 1 at 0x60200000f874 thread T5 "
                          "(0x60200000f874 is located 0 bytes to the right of 4-byte region [0x6020,0x6024))")
    assert first.where == "missing.so+0x3a41"       # no library to symbolize with: its name and offset
    assert second.input() == "trace(send, State, Tracee=port, ok, #{})"
    assert second.stack[0] == f"{asan.RUNTIME}+0x3a41" and second.where == "missing.so+0x3a42"
    assert third.what.startswith("UndefinedBehaviorSanitizer: signed integer overflow") and third.step == second.step


def test_frames_are_symbolized_with_the_library_on_the_host(tmp_path: Path) -> None:
    source = tmp_path / "t.c"
    source.write_text("int tcs_sum(const char *p, int n)\n{\n    int s = 0;\n    for (int i = 0; i <= n; i++)\n"
                      "        s += p[i];\n    return s;\n}\n")
    library = tmp_path / "t.so"
    subprocess.run([asan.compiler() or "clang", "-shared", "-fPIC", "-g", "-O0", "-o", str(library), str(source)],
                   check=True)
    symbols = subprocess.run(["nm", str(library)], capture_output=True, text=True, check=True).stdout
    offset = int(next(line.split()[0] for line in symbols.splitlines() if line.endswith(" tcs_sum")), 16)
    text = "TCS-STEP t1 k x\n" + _asan("t.so").replace("+0x3a41", f"+{hex(offset + 4)}")
    [finding] = asan.parse(text, frozenset({"t.so"}), library).findings
    assert finding.where.startswith("tcs_sum (t.c:"), finding.where


def test_report_before_any_step_is_named_as_loading(tmp_path: Path) -> None:
    [finding] = asan.parse(_asan("t.so"), frozenset({"t.so"}), tmp_path / "t.so").findings
    assert finding.input() == "loading the tracer"


@pytest.mark.parametrize("root", [False, True], ids=["host", "root"])
def test_command_preloads_the_runtime_and_sends_stderr_to_the_log(root: bool, tmp_path: Path) -> None:
    otp = node.Otp("29", ["chroot", str(tmp_path), "erl"], tmp_path) if root else node.Otp("25", ["erl"])
    wrap = asan.command(otp, "/w/asan", f"/w/asan/{asan.RUNTIME}", 9)
    assert wrap.before[:3] == ["env", f"LD_PRELOAD=/w/asan/{asan.RUNTIME}", "LD_LIBRARY_PATH=/w/asan"]
    assert "halt_on_error=0" in wrap.before[3] and wrap.stderr_fd == 9 and wrap.emulator_flags == ["+Mea", "min"]
    assert wrap.outer == (["unshare", "--mount", "--pid", "--fork", f"--mount-proc={tmp_path / 'proc'}"]
                          if root else [])


def test_src_needs_the_library_it_stands_in_for(tmp_path: Path) -> None:
    with pytest.raises(inputs.BadInput, match="--src needs --nif"):
        validate._sources([str(tmp_path / "t.c")], None)
    with pytest.raises(inputs.BadInput, match="no such file"):
        validate._sources([str(tmp_path / "t.c")], "t.so")


def test_a_source_that_does_not_compile_is_bad_input(tmp_path: Path) -> None:
    (tmp_path / "t.c").write_text("this is not C\n")
    with pytest.raises(inputs.BadInput, match="could not build the sanitized library"):
        asan.build((tmp_path / "t.c",), corpus.host_include(), tmp_path / "t.so")
