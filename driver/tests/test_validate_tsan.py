"""The stress check's race detector (validate --src): a ThreadSanitizer build of the tracer in a second
stress node.  Live, on every release of the suite: the thread-unsafe bundled tracer's race is named
with both accesses (function, file, line, thread), the good multi-threaded one (atomics, a mutex)
gets none; then the reading of TSan's reports (which races are the tracer's) and the command."""
from __future__ import annotations

import dataclasses
import subprocess
from pathlib import Path

import pytest

from conftest import TEST_RELEASES
from tcs_driver import corpus, node
from tcs_driver.validate import bundled, engine, inputs, tsan
from tcs_driver.validate.checks import CheckResult

pytestmark = pytest.mark.skipif(tsan.unavailable() is not None, reason=f"no TSan build: {tsan.unavailable()}")


def _stress(layout, otp: node.Otp, tracer: bundled.Bundled, scratch: Path) -> CheckResult:
    prepared = inputs.prepare(tracer.module, str(tracer.nif), str(tracer.erl), None, None, scratch)
    built = tsan.build((tracer.erl.with_suffix(".c"),), corpus.host_include(), scratch / "tsan.so")
    results = engine.validate(dataclasses.replace(prepared, race_build=built), [otp],
                              lambda o: corpus.runner_beams(layout, o),
                              engine.Options(checks=("shape", "stress"), parallel=1), lambda _: None)
    return next(r for r in results if r.check == "stress")


CASES = [(release, module) for release in TEST_RELEASES for module in ("tcs_defect_thread_unsafe", "tcs_good_threaded")]


@pytest.mark.live
@pytest.mark.parametrize("release, module", CASES, ids=[f"{r}-{m}" for r, m in CASES])
def test_race_is_named_with_both_accesses_and_none_in_the_synchronised_tracer(release: str, module: str, layout,
                                                                              otp_for, tmp_path: Path) -> None:
    tracer = next(t for t in bundled.good(layout) + bundled.defective(layout) if t.module == module)
    stress = _stress(layout, otp_for(release), tracer, tmp_path)
    if module == "tcs_good_threaded":
        assert stress.status == "pass" and stress.data["races"] == 0, "\n".join([stress.summary, *stress.evidence])
        assert stress.summary.endswith("no data race in the tracer's code (ThreadSanitizer)")
    else:
        assert stress.status == "fail" and stress.data["races"] >= 1, stress.summary
        race = "in the tracer's report_in_static_env (tcs_defect_thread_unsafe.c:"
        assert stress.summary.startswith("data race on the global 'building' of the tracer: ") \
            and stress.summary.count(race) == 2, stress.summary


# --- reading TSan's reports ------------------------------------------------------------------------

def _race(first: tuple[str, ...], second: tuple[str, ...], location: str) -> str:
    def frames(modules: tuple[str, ...]) -> str:
        return "".join(f"    #{i} <null> <null> ({m}+0x{0x1254 + i:x})\n" for i, m in enumerate(modules))
    return ("==================\nWARNING: ThreadSanitizer: data race (pid=2197)\n"
            "  Write of size 8 at 0x7fa43adad148 by thread T5:\n" + frames(first) +
            "\n  Previous write of size 8 at 0x7fa43adad148 by thread T4:\n" + frames(second) +
            f"\n  Location is {location}\n\n"
            "  Thread T5 '2_scheduler' (tid=2312, running) created by main thread at:\n"
            "    #0 pthread_create ../../tsan_interceptors_posix.cpp:1001 (libtsan.so.2+0x5e686)\n\n"
            "  Thread T4 '1_scheduler' (tid=2311, running) created by main thread at:\n"
            "    #0 pthread_create ../../tsan_interceptors_posix.cpp:1001 (libtsan.so.2+0x5e686)\n\n"
            "SUMMARY: ThreadSanitizer: data race (t.so+0x1254) in report\n==================\n")


def test_only_races_between_two_accesses_of_the_tracer_count(tmp_path: Path) -> None:
    beam = "/usr/lib/erlang/erts-13.1.5/bin/beam.smp"
    text = "".join([
        _race(("t.so", beam), ("t.so", beam), "heap block of size 16 at 0x7b04 allocated by thread T4:"),
        _race((tsan.RUNTIME, "t.so", beam), (tsan.RUNTIME, beam), "heap block of size 16 at 0x7b04"),  # malloc: OTP's
        _race((beam,), (beam,), "heap block of size 176 at 0x7b2c"),
    ])
    races, others = tsan.parse(text, frozenset({"t.so"}), tmp_path / "t.so")
    assert others == 2
    [race] = races
    assert race.first == tsan.Access("Write of size 8", "thread T5 ('2_scheduler')", "t.so+0x1254")
    assert race.second.what == "Previous write of size 8" and race.second.thread == "thread T4 ('1_scheduler')"
    assert race.describe() == ("data race on heap block of size 16: Write of size 8 in the tracer's t.so+0x1254 by "
                               "thread T5 ('2_scheduler'), and previous write of size 8 in the tracer's t.so+0x1254 "
                               "by thread T4 ('1_scheduler'), with nothing ordering them")


def test_a_global_is_named_from_the_library(tmp_path: Path) -> None:
    source = tmp_path / "t.c"
    source.write_text("long tcs_shared_counter;\nvoid tcs_bump(void) { tcs_shared_counter++; }\n")
    library = tmp_path / "t.so"
    subprocess.run(["gcc", "-shared", "-fPIC", "-g", "-o", str(library), str(source)], check=True)
    symbols = subprocess.run(["nm", str(library)], capture_output=True, text=True, check=True).stdout
    offset = next(line.split()[0] for line in symbols.splitlines() if line.endswith(" tcs_shared_counter"))
    text = _race(("t.so",), ("t.so",), f"global '<null>' at 0x000000000000 (t.so+0x{int(offset, 16):x})")
    [race] = tsan.parse(text, frozenset({"t.so"}), library)[0]
    assert race.location == "the global 'tcs_shared_counter' of the tracer"


def test_command_preloads_libtsan_into_the_emulator_only(tmp_path: Path) -> None:
    """dash crashes with libtsan preloaded: the erl script runs without it, and its last line (the exec
    of erlexec) gets it."""
    wrap = tsan.command(node.Otp("25", ["erl"]), "/w/tsan", "/w/tsan/libtsan.so.2", 4)
    assert wrap.before[:4] == ["env", "TCS_PRELOAD=/w/tsan/libtsan.so.2", "LD_LIBRARY_PATH=/w/tsan",
                               f"TSAN_OPTIONS={tsan.OPTIONS}"]
    assert wrap.before[4:6] == ["sh", "-c"] and wrap.stderr_fd == 4 and wrap.emulator_flags == ["+Mea", "min"]
    script = tmp_path / "erl"
    script.write_text('#!/bin/sh\nBINDIR=/opt/bin\nexec "$BINDIR/erlexec" ${1+"$@"}\n')
    script.chmod(0o755)
    shown = subprocess.run(["env", "TCS_PRELOAD=/p/libtsan.so.2", "sh", "-c", tsan.RUNNER.replace("eval", "echo"),
                            "sh", str(script), "-noshell"], capture_output=True, text=True, check=True).stdout
    assert 'exec env LD_PRELOAD=/p/libtsan.so.2 "$BINDIR/erlexec" ${1+"$@"}' in shown
