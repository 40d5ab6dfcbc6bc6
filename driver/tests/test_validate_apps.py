"""./tcs validate on tracers as they ship: a rebar3-style project
(_build/default/lib/APP with ebin/ and a priv/ linked to the project's, as
rebar3 lays it out) whose module finds its NIF library through
code:priv_dir/1, code:lib_dir/1 or its beam's path, validated on every
release of the matrix; and the one diagnosis of a module that does not load,
one test per reason, on every release."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import TEST_RELEASES
from tcs_driver import corpus
from tcs_driver.validate import engine, inputs, loading
from tcs_driver.validate.checks import CHECK_NAMES, Bench, Stress

LAYOUT = corpus.default_layout()
#: One small benchmark sample is too noisy for the default budget: test_validate.py's QUICK.
QUICK = engine.Options(bench=Bench(1, 500, 500, budget=1000.0), parallel=2, stress=Stress(seconds=2.0))
SHAPE_ONLY = engine.Options(checks=("shape",), parallel=1)
APP = "app_tracer"

#: How a shipped tracer finds its library, as an Erlang expression.
LOCATORS = {
    "priv_dir": f'filename:join(code:priv_dir({APP}), "{APP}_nif")',
    "lib_dir": f'filename:join([code:lib_dir({APP}), "priv", "{APP}_nif"])',
    "beam_relative": f'filename:join([filename:dirname(code:which(?MODULE)), "..", "priv", "{APP}_nif"])',
}


def rebar3_project(where: Path, include: Path, *, locator: str = LOCATORS["priv_dir"],
                   c_extra: str = "", nif_module: str = APP, on_load: str | None = None,
                   with_library: bool = True) -> Path:
    """A project as `rebar3 compile` leaves it; returns its _build/default/lib.

    The module loads `priv/app_tracer_nif.so` (the bundled good tracer's code,
    under nif_module's name) with `locator`, or runs `on_load` instead."""
    lib = where / "_build" / "default" / "lib"
    ebin = lib / APP / "ebin"
    ebin.mkdir(parents=True)
    (where / "priv").mkdir()
    (lib / APP / "priv").symlink_to(Path("..", "..", "..", "..", "priv"))
    body = on_load or f"erlang:load_nif({locator}, 0)"
    source = where / "src" / f"{APP}.erl"
    source.parent.mkdir()
    source.write_text(f"-module({APP}).\n-on_load(init/0).\n-export([enabled/3, trace/5]).\n"
                      f"init() -> {body}.\n"
                      "enabled(_, _, _) -> erlang:nif_error(not_loaded).\n"
                      "trace(_, _, _, _, _) -> erlang:nif_error(not_loaded).\n")
    (ebin / f"{APP}.app").write_text(f'{{application, {APP}, [{{vsn, "1.0.0"}}, {{modules, [{APP}]}}, '
                                     "{registered, []}, {applications, [kernel, stdlib]}]}.\n")
    subprocess.run(["erlc", "-o", str(ebin), str(source)], check=True)
    # a dependency beside it, as in any rebar3 project
    (lib / "some_dep" / "ebin").mkdir(parents=True)
    if with_library:
        c_source = where / "c_src" / "nif.c"
        c_source.parent.mkdir()
        c_source.write_text(f"#define TCS_MODULE {nif_module}\n#include \"tcs_tracer_base.h\"\n{c_extra}")
        subprocess.run(["cc", "-shared", "-fPIC", "-I", str(LAYOUT.repo / "nif_impls" / "good"),
                        "-I", str(include), "-o", str(where / "priv" / f"{APP}_nif.so"), str(c_source)],
                       check=True)
    return lib


def _validate(lib: Path, otp, options: engine.Options, scratch: Path):
    tracer = inputs.prepare(APP, None, None, None, None, scratch, [str(lib)])
    return engine.validate(tracer, [otp], lambda o: corpus.runner_beams(LAYOUT, o), options, lambda _: None)


@pytest.mark.live
@pytest.mark.parametrize("release", TEST_RELEASES)
def test_rebar3_application_validates_as_shipped(release: str, layout, otp_node, otp_for, tmp_path) -> None:
    lib = rebar3_project(tmp_path / "project", otp_node[2])
    results = _validate(lib, otp_for(release), QUICK, tmp_path)
    assert [r.check for r in results] == list(CHECK_NAMES)
    assert [f"{r.check}: {r.summary}" for r in results if r.status != "pass"] == []


@pytest.mark.live
@pytest.mark.parametrize("release", TEST_RELEASES)
@pytest.mark.parametrize("locator", ["lib_dir", "beam_relative"])
def test_library_paths_of_an_application_work(locator: str, release: str, layout, otp_node, otp_for,
                                              tmp_path) -> None:
    lib = rebar3_project(tmp_path / "project", otp_node[2], locator=LOCATORS[locator])
    [shape] = _validate(lib, otp_for(release), SHAPE_ONLY, tmp_path)
    assert shape.status == "pass" and shape.data["loaded_by"] == "on_load", shape


#: Each reason a module does not load: how the project is made, the cause
#: validate names, and OTP's own words it must quote.
REASONS = {
    "no-library": (dict(with_library=False), "its NIF library is not where it looks for it",
                   "cannot open shared object file"),
    "undefined-symbol": (dict(c_extra="extern int tcs_no_such_symbol;\nint *tcs_uses = &tcs_no_such_symbol;\n"),
                         "needs the symbol tcs_no_such_symbol", "undefined symbol: tcs_no_such_symbol"),
    "module-name": (dict(nif_module="other_tracer"), "the library is for module other_tracer, not app_tracer",
                    "Library module name 'other_tracer' does not match calling module 'app_tracer'"),
    "on-load-error": (dict(on_load="{error, not_configured}"), "its on_load function did not return ok",
                      "{error,not_configured}"),
    "no-nif": (dict(on_load="ok"), "it loads no NIF library", "module_info(nifs) is []"),
    "wrong-path": (dict(locator='"/opt/nowhere/app_tracer_nif"'), "(/opt/nowhere/app_tracer_nif.so)",
                   "cannot open shared object file"),
}


#: Every reason on the host's release; on every release, the two ways OTP
#: gives a reason (logged by code_server for a failed on_load; returned by
#: erlang:load_nif/2 for a library of another module).
DIAGNOSES = [("25", r) for r in REASONS] + [(release, reason) for release in TEST_RELEASES if release != "25"
                                           for reason in ("no-library", "module-name")]


@pytest.mark.live
@pytest.mark.parametrize("release, reason", DIAGNOSES, ids=[f"{r}-otp{o}" for o, r in DIAGNOSES])
def test_module_that_does_not_load_gets_one_diagnosis(reason: str, release: str, layout, otp_node, otp_for,
                                                      tmp_path) -> None:
    made, cause, otp_words = REASONS[reason]
    lib = rebar3_project(tmp_path / "project", otp_node[2], **made)
    with pytest.raises(loading.LoadFailure) as failed:
        _validate(lib, otp_for(release), SHAPE_ONLY, tmp_path)
    message = str(failed.value)
    assert message.startswith(f"the module {APP} did not load on OTP {release}: "), message
    assert cause in message and otp_words in message and "\n  try: " in message, message
    assert "/tmp/tcs-node-" not in message, "paths are the user's, not the node's copy"


@pytest.mark.live
def test_command_on_a_rebar3_project_and_a_load_failure(layout, otp_node, tmp_path: Path) -> None:
    lib = rebar3_project(tmp_path / "good", otp_node[2])
    env = dict(os.environ, PYTHONPATH=str(LAYOUT.repo / "driver"))
    command = [sys.executable, "-m", "tcs_driver.cli", "validate", "--module", APP, "--checks", "live",
               "--json", "r.json"]
    done = subprocess.run([*command, "--app", str(lib)], capture_output=True, text=True, cwd=tmp_path, env=env)
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"library loaded by the module from {lib / APP}" in done.stdout
    broken = rebar3_project(tmp_path / "broken", otp_node[2], with_library=False)
    (tmp_path / "r.json").unlink()
    done = subprocess.run([*command, "--app", str(broken)], capture_output=True, text=True, cwd=tmp_path,
                          env=env)
    assert done.returncode == 2, done.stdout + done.stderr
    assert "bad input: the module app_tracer did not load" in done.stderr
    assert not (tmp_path / "r.json").exists()


@pytest.mark.parametrize("given, message", [
    ("missing-dir", "--app missing-dir: no such directory"),
    (".", "neither an OTP application directory"),
], ids=["missing", "not-an-application"])
def test_app_that_is_not_an_application_is_bad_input(given: str, message: str, tmp_path: Path,
                                                     monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(inputs.BadInput, match=message):
        inputs.prepare(APP, None, None, None, None, tmp_path, [given])


def test_module_missing_from_the_applications_is_bad_input(tmp_path: Path) -> None:
    (tmp_path / "lib" / "other" / "ebin").mkdir(parents=True)
    with pytest.raises(inputs.BadInput, match=f"no {APP}.beam in the ebin/"):
        inputs.prepare(APP, None, None, None, None, tmp_path, [str(tmp_path / "lib")])
