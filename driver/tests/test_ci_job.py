"""The CI job of the README ("In CI"), run here: its `run:` steps in order,
in a rebar3 project whose tracer NIF is built by a rebar3 hook, with
$GITHUB_ENV as GitHub Actions keeps it.  The two erlef/setup-beam steps are
stood in for by the host's OTP and by a relocated copy of it put first on
PATH; the package installation step is left to ./tcs, which installs what
is missing itself.  The JUnit file the job uploads is read back."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from test_otp_path import copy_otp
from tcs_driver import corpus
from tcs_driver.validate.checks import CHECK_NAMES

junitparser = pytest.importorskip("junitparser", reason="reading JUnit XML back needs Debian's "
                                  "python3-junitparser (./tcs test installs it)")

LAYOUT = corpus.default_layout()
MODULE = "my_tracer"


def ci_job_steps(readme: str) -> list[str]:
    """The steps of the README's CI job, in order: 'run: COMMAND' and 'uses: ACTION' lines."""
    block = readme.split("**In CI.**", 1)[1].split("```yaml\n", 1)[1].split("```", 1)[0]
    return [m.group(1) + ": " + m.group(2) for m in re.finditer(r"^\s*-? ?(run|uses): (.*)$", block, re.M)]


def rebar3_project(where: Path) -> Path:
    """A rebar3 project of a tracer: src/my_tracer.erl loads priv/my_tracer_nif.so through
    code:priv_dir/1; a pre-compile hook builds it from c_src/ (the bundled good tracer's code)."""
    (where / "src").mkdir(parents=True)
    (where / "c_src").mkdir()
    # rebar3 links _build/default/lib/APP/priv to priv/ only when it exists
    # before the hooks run: projects keep it (with a .gitkeep)
    (where / "priv").mkdir()
    (where / "priv" / ".gitkeep").write_text("")
    (where / "src" / f"{MODULE}.app.src").write_text(
        f'{{application, {MODULE}, [{{description, "a tracer"}}, {{vsn, "0.1.0"}}, {{registered, []}}, '
        "{applications, [kernel, stdlib]}, {env, []}]}.\n")
    (where / "src" / f"{MODULE}.erl").write_text(
        f"-module({MODULE}).\n-on_load(init/0).\n-export([enabled/3, trace/5]).\n"
        f'init() -> erlang:load_nif(filename:join(code:priv_dir({MODULE}), "{MODULE}_nif"), 0).\n'
        "enabled(_, _, _) -> erlang:nif_error(not_loaded).\n"
        "trace(_, _, _, _, _) -> erlang:nif_error(not_loaded).\n")
    shutil.copy(LAYOUT.repo / "nif_impls" / "good" / "tcs_tracer_base.h", where / "c_src")
    (where / "c_src" / f"{MODULE}_nif.c").write_text(f'#define TCS_MODULE {MODULE}\n#include "tcs_tracer_base.h"\n')
    (where / "rebar.config").write_text(
        '{pre_hooks, [{"linux", compile, "cc -shared -fPIC -I \\"$ERTS_INCLUDE_DIR\\" '
        f'-o priv/{MODULE}_nif.so c_src/{MODULE}_nif.c"}}]}}.\n')
    return where


@pytest.mark.live
def test_readme_ci_job_runs_here(layout, otp_node, tmp_path: Path) -> None:
    if shutil.which("rebar3") is None:
        pytest.skip("needs rebar3 (Debian package rebar3; ./tcs test installs it)")
    steps = ci_job_steps((LAYOUT.repo / "README.md").read_text())
    assert sum(s.startswith("uses: erlef/setup-beam") for s in steps) == 2, steps
    project = rebar3_project(tmp_path / "project")
    (project / "tcs").symlink_to(LAYOUT.repo)
    host_bin = Path(shutil.which("erl") or "erl").resolve().parent
    copy_bin = copy_otp(tmp_path / "otp-copy", relocate=True) / "bin"
    installations = iter([host_bin, copy_bin])
    github_env = tmp_path / "github_env"
    github_env.write_text("")
    env = dict(os.environ, GITHUB_ENV=str(github_env), TCS_BUILD_DIR=str(LAYOUT.build))
    ran = []
    for step in steps:
        kind, _, what = step.partition(": ")
        if kind == "uses" and what.startswith("erlef/setup-beam"):
            env["PATH"] = f"{next(installations)}:{os.environ['PATH']}"
        if kind != "run" or what.startswith("sudo apt-get install"):
            continue
        done = subprocess.run(["bash", "-e", "-c", what], cwd=project, env=env, capture_output=True, text=True)
        assert done.returncode == 0, f"{what}\n{done.stdout}\n{done.stderr}"
        env.update(line.split("=", 1) for line in github_env.read_text().splitlines() if "=" in line)
        ran.append(what)
    assert len(ran) == 4 and env["OTP_NEW"] == str(copy_bin.parent), (ran, env.get("OTP_NEW"))
    xml = junitparser.JUnitXml.fromfile(str(project / "validate.xml"))
    suites = {suite.name: [(case.name, case.result) for case in suite] for suite in xml}
    erls = [f"{Path(env[k]) / 'bin' / 'erl'}" for k in ("OTP_OLD", "OTP_NEW")]
    assert set(suites) == {f"OTP {otp_node[1]}@{erl}" for erl in erls}, suites
    for cases in suites.values():
        assert [name for name, result in cases if result] == [], cases   # every check passed
        assert len(cases) == len(CHECK_NAMES)   # every check of a default validate, memory aside
    assert (project / "validate.html").exists()
