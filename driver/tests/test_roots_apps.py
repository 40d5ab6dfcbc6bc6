"""The OTP 27 and 29 roots carry the OTP applications of Debian's erlang-nox
(runtime_tools, tools, ...), as the host's OTP does: a tracer shipped in
OTP itself (dyntrace, runtime_tools) loads there.  A root made before
erlang-nox was part of it is upgraded in place on first use."""
from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from conftest import TEST_RELEASES
from tcs_driver import provision


def test_missing_packages_are_read_from_dpkg(tmp_path: Path) -> None:
    assert provision.missing_packages(tmp_path) == list(provision.PACKAGES)
    info = tmp_path / "var" / "lib" / "dpkg" / "info"
    info.mkdir(parents=True)
    (info / "erlang-base.list").write_text("/usr/lib/erlang\n")
    assert provision.missing_packages(tmp_path) == ["erlang-nox"]
    (info / "erlang-nox.list").write_text("/usr/share/doc/erlang-nox\n")
    assert provision.missing_packages(tmp_path) == []


@pytest.mark.live
@pytest.mark.parametrize("release", [r for r in TEST_RELEASES if int(r) in provision.SUITES])
def test_root_has_the_applications_of_erlang_nox(release: str, otp_for) -> None:
    otp = otp_for(release)
    assert otp.root is not None and provision.missing_packages(otp.root) == []
    probe = ('[io:format("~s ~p~n", [A, code:lib_dir(A)]) || A <- [runtime_tools, tools, crypto, ssl]], '
             'io:format("dyntrace ~p~n", [code:ensure_loaded(dyntrace)]), halt().')
    done = subprocess.run([*otp.erl, "-noshell", "-eval", probe], capture_output=True, text=True, timeout=120)
    said = dict(line.split(" ", 1) for line in done.stdout.splitlines())
    assert set(said) == {"runtime_tools", "tools", "crypto", "ssl", "dyntrace"}, done.stdout + done.stderr
    assert all(value.startswith('"/usr/lib/erlang/lib/') for key, value in said.items() if key != "dyntrace"), said
    assert said["dyntrace"] == "{module,dyntrace}", said
