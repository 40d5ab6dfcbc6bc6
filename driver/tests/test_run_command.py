"""./tcs run as a user drives it: output paths checked before any work, two runs side by side in
one tree from a clean build, and Ctrl-C in the middle of a real run."""
from __future__ import annotations

import json
import multiprocessing
import os
import signal
import subprocess
import time
from pathlib import Path

import pytest

from tcs_driver import cli, corpus, recorder, tags
from tcs_driver.layout import REPO

TCS = str(REPO / "tcs")


@pytest.mark.parametrize(("target", "message"), [
    pytest.param(".", "it is a directory (give a file name)", id="directory"),
    pytest.param("missing/report.json", "no directory", id="no-parent"),
])
@pytest.mark.parametrize("option", ["--json", "--html"])
def test_output_paths_are_checked_before_the_run(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                 monkeypatch: pytest.MonkeyPatch, option: str, target: str,
                                                 message: str) -> None:
    monkeypatch.setattr(cli, "build", lambda *a, **k: pytest.fail("built before checking the output path"))
    assert cli.main(["run", option, str(tmp_path / target)]) == 2
    assert message in capsys.readouterr().err


def _session_processes(session: int) -> list[str]:
    """The command lines of the live processes of a session (a run started with start_new_session)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            # after the command: state, ppid, pgrp, session (proc(5))
            fields = stat.read_text().rsplit(")", 1)[1].split()
            if int(fields[3]) == session and fields[0] != "Z":
                found.append((stat.parent / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace"))
        except (OSError, IndexError, ValueError):
            continue  # ended meanwhile
    return found


def _as_from_a_terminal() -> None:
    """In the child: SIGINT delivered and handled by default, as in a run started from a terminal,
    whatever the test process inherited (a run started in the background ignores it)."""
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _start_run(tmp_path: Path, name: str, *args: str, env: dict[str, str] | None = None) -> subprocess.Popen[str]:
    return subprocess.Popen([TCS, "run", "--otp", "25", "--json", str(tmp_path / f"{name}.json"), *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
                            env=env, preexec_fn=_as_from_a_terminal)


def _build_variant_at_barrier(barrier, generated: str, out_dir: str, include: str, results) -> None:
    """One run's build of the recorder variant with every optional callback, started with the others'."""
    barrier.wait()
    try:
        library = recorder.build_variant(REPO / "nif_impls" / "recorder" / "tcs_recorder.c", Path(generated),
                                         Path(out_dir), Path(include), list(tags.table().optional_callbacks))
        results.put(("ok", str(library)))
    except Exception as why:  # the test reports whatever a run would have died of
        results.put(("error", f"{type(why).__name__}: {why}"))


def test_runs_building_the_same_recorder_variant_at_once(layout: corpus.Layout, tmp_path: Path, otp_node) -> None:
    """What two runs in one tree did to each other (a FileNotFoundError, no JSON): they compiled a
    variant into one shared temporary file. Six builders released at once: each gets the library."""
    _, _, include = otp_node
    spawn = multiprocessing.get_context("fork")
    barrier, results = spawn.Barrier(6), spawn.Queue()
    where = (str(layout.generated), str(tmp_path), str(include))
    builders = [spawn.Process(target=_build_variant_at_barrier, args=(barrier, *where, results)) for _ in range(6)]
    for builder in builders:
        builder.start()
    outcomes = [results.get(timeout=300) for _ in builders]
    for builder in builders:
        builder.join()
    assert [status for status, _ in outcomes] == ["ok"] * 6, outcomes
    name = recorder.module_name(list(tags.table().optional_callbacks))
    assert sorted(p.name for p in tmp_path.iterdir()) == [f".{name}.lock", f"{name}.so"]  # no temporary file left


@pytest.mark.live
def test_two_runs_at_once_from_a_clean_build(tmp_path: Path) -> None:
    """Both build (one CMake at a time), both compile the same recorder variants (each its own
    temporary file, one compiler per variant), both finish with the same results."""
    env = dict(os.environ, TCS_BUILD_DIR=str(tmp_path / "build"))
    runs = {name: _start_run(tmp_path, name, "--cases", "fallback_*", env=env) for name in ("a", "b")}
    outcome = {name: run.communicate(timeout=900) for name, run in runs.items()}
    for name, run in runs.items():
        out, err = outcome[name]
        assert run.returncode == 0, f"run {name}:\n{out[-2000:]}\n{err[-3000:]}"
        assert "Traceback" not in err
    statuses = [{r["case"]: r["status"] for r in json.loads((tmp_path / f"{n}.json").read_text())["results"]}
                for n in runs]
    assert statuses[0] == statuses[1] and len(statuses[0]) == 18
    leftovers = [p.name for p in (tmp_path / "build").rglob("*") if p.name.endswith((".partial", ".tmp"))]
    assert leftovers == []
    assert len(list((tmp_path / "build" / "recorders").glob("*.so"))) > 1


@pytest.mark.live
@pytest.mark.parametrize("whom", ["driver", "process-group"])
def test_ctrl_c_ends_a_real_run_at_once_keeping_its_results(tmp_path: Path, whom: str) -> None:
    """SIGINT to the driver (kill -INT) or to its whole process group (Ctrl-C in a terminal) while
    cases run: one line, no traceback, exit 130, the results so far in a JSON report marked
    incomplete, and no node left behind."""
    run = _start_run(tmp_path, "cut", "--cases", "[cfm]*")  # 254 cases: the run is far from its end
    assert run.stdout is not None and run.stderr is not None
    progress = []
    for line in run.stdout:
        if line.startswith("["):
            progress.append(line)
            if len(progress) == 5:
                break
    assert len(progress) == 5, f"the run ended early: {run.communicate()[1][-2000:]}"
    sent = time.monotonic()
    if whom == "driver":
        os.kill(run.pid, signal.SIGINT)
    else:
        os.killpg(run.pid, signal.SIGINT)
    run.wait(timeout=30)  # the pipes hold what it printed meanwhile: a few lines, far below their capacity
    took = time.monotonic() - sent
    # The rest is read through the same buffered file the loop read from: communicate() reads the
    # pipe's descriptor directly and would lose the lines the loop's read-ahead had already taken.
    out, err = run.stdout.read(), run.stderr.read()
    progress += [line for line in out.splitlines(keepends=True) if line.startswith("[")]
    assert run.returncode == cli.INTERRUPTED, err[-3000:]
    assert "Traceback" not in err
    after = err[err.index("tcs: OTP 25 (on the host)"):].splitlines()[1:]
    assert len(after) == 1 and after[0].startswith("tcs: interrupted (Ctrl-C) after "), after
    assert took < 1.0, f"took {took:.2f}s to end after SIGINT"
    assert _session_processes(run.pid) == []
    report = json.loads((tmp_path / "cut.json").read_text())
    assert report["complete"] is False and report["incomplete"].startswith("interrupted (Ctrl-C)")
    assert len(report["results"]) == len(progress) >= 5
    assert report["incomplete"] == f"interrupted (Ctrl-C) after {len(progress)} result(s)"

