"""--otp PATH: an OTP installation of the user's own, given by its directory
or its bin/erl, mixed with the releases of the matrix.  The installation
here is a copy of the host's OTP at another path (hard links, so it costs no
space), relocated the way OTP's Install script does it: ROOTDIR in bin/erl
and bin/start set to where the copy is.  A copy left unrelocated still runs
the original, and is refused."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tcs_driver import corpus, provision

LAYOUT = corpus.default_layout()


def copy_otp(target: Path, *, relocate: bool) -> Path:
    """A copy of the host's OTP installation at `target` (hard links), relocated when asked."""
    done = subprocess.run(["erl", "-noshell", "-eval", 'io:format("~s", [code:root_dir()]), halt().'],
                          capture_output=True, text=True, check=True)
    root = Path(done.stdout)
    shutil.copytree(root, target, copy_function=os.link, symlinks=True)
    if relocate:
        for script in [*target.glob("bin/erl"), *target.glob("bin/start"), *target.glob("erts-*/bin/erl"),
                       *target.glob("erts-*/bin/start")]:
            text = script.read_text().replace(f"ROOTDIR={root}\n", f"ROOTDIR={target}\n")
            script.unlink()   # a hard link: write a new file, leave the original alone
            script.write_text(text)
            script.chmod(0o755)
    return target


@pytest.fixture(scope="module")
def own_otp(tmp_path_factory) -> Path:
    """The bin/erl of a relocated copy of the host's OTP."""
    return copy_otp(tmp_path_factory.mktemp("otp") / "otp-copy", relocate=True) / "bin" / "erl"


def _tcs(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(LAYOUT.repo / "driver"))
    return subprocess.run([sys.executable, "-m", "tcs_driver.cli", *args], capture_output=True, text=True,
                          cwd=cwd, env=env)


@pytest.mark.live
def test_installation_is_named_by_release_and_path(otp_node, own_otp: Path) -> None:
    for given in (own_otp, own_otp.parent.parent):
        otp = provision.installation(str(given))
        assert otp.name == f"{otp_node[1]}@{own_otp}" and otp.erl == [str(own_otp)] and otp.root is None
        assert otp.release == otp_node[1] and "/" not in otp.slug


@pytest.mark.live
@pytest.mark.parametrize("make, message", [
    ("unrelocated", "ROOTDIR set to where it is now"),
    ("no-erl", "no erl there"),
    ("broken-erl", "does not work"),
], ids=["unrelocated", "no-erl", "broken-erl"])
def test_installation_that_does_not_work_is_refused(make: str, message: str, otp_node, tmp_path: Path) -> None:
    if make == "unrelocated":
        given = copy_otp(tmp_path / "otp", relocate=False)
    elif make == "no-erl":
        given = tmp_path
    else:
        given = tmp_path / "erl"
        given.write_text("#!/bin/sh\necho no emulator here >&2\nexit 3\n")
        given.chmod(0o755)
    with pytest.raises(provision.ProvisionError, match=message):
        provision.otps(f"25,{given}", print)


@pytest.mark.live
def test_run_and_diff_with_an_installation_by_path(layout, otp_node, own_otp: Path, tmp_path: Path) -> None:
    cases = ("--cases", "ev_send*")
    done = _tcs("run", "--otp", f"25,{own_otp}", *cases, "--json", "both.json", cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    both = json.loads((tmp_path / "both.json").read_text())
    assert both["otp"] == ["25", f"25@{own_otp}"]
    assert {r["otp"] for r in both["results"]} == set(both["otp"])
    assert all(r["status"] == "pass" for r in both["results"]), both["results"]
    assert _tcs("run", "--otp", "25", *cases, "--json", "old.json", cwd=tmp_path).returncode == 0
    assert _tcs("run", "--otp", str(own_otp), *cases, "--json", "new.json", cwd=tmp_path).returncode == 0
    diff = _tcs("diff", "old.json", "new.json", cwd=tmp_path)
    assert diff.returncode == 0, diff.stdout + diff.stderr
    assert f"OTP 25 (old) against OTP 25@{own_otp} (new)" in diff.stdout, diff.stdout


@pytest.mark.live
def test_validate_with_an_installation_by_path(layout, otp_node, own_otp: Path, tmp_path: Path) -> None:
    done = _tcs("validate", "--module", "erl_msg_tracer", "--nif", str(layout.nifs / "erl_msg_tracer.so"),
                "--erl", str(layout.repo / "nif_impls" / "erl_msg_tracer" / "erl_msg_tracer.erl"),
                "--otp", str(own_otp.parent.parent), "--checks", "live", "--json", "r.json", cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    report = json.loads((tmp_path / "r.json").read_text())
    assert report["otp"] == [f"25@{own_otp}"]
    assert {c["otp"] for c in report["checks"]} == {f"25@{own_otp}"}
    assert all(c["status"] == "pass" for c in report["checks"]), report["checks"]


@pytest.mark.live
def test_fuzz_with_an_installation_by_path(layout, otp_node, own_otp: Path, tmp_path: Path) -> None:
    done = _tcs("fuzz", "--seed", "5", "--count", "3", "--shrink-seconds", "0", "--otp", str(own_otp),
                "--json", "f.json", cwd=tmp_path)
    assert done.returncode in (0, 1), done.stdout + done.stderr
    report = json.loads((tmp_path / "f.json").read_text())
    assert report["otp"] == [f"25@{own_otp}"]
    assert len(report["results"]) == 3 and {r["otp"] for r in report["results"]} == {f"25@{own_otp}"}
    assert report["lost"] == 0


def test_otp_word_that_is_neither_release_nor_path_is_refused() -> None:
    with pytest.raises(provision.ProvisionError, match="neither a release number nor the path"):
        provision.otps("25,twenty-six", print)
