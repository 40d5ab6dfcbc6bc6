"""Provisioning of the OTP 27/29 Debian roots: where the mirror comes from, and every way it can
fail, with a stand-in debootstrap (the real one runs when the live corpus needs a root)."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from tcs_driver import provision

HOST_SOURCES = """Types: deb
# a comment
URIs: http://mirror.example/debian
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: http://mirror.example/debian-security
Suites: bookworm-security
Components: main
"""


def test_mirror_is_the_archive_of_the_host_sources(tmp_path: Path) -> None:
    sources = tmp_path / "debian.sources"
    sources.write_text(HOST_SOURCES)
    assert provision.mirror(sources) == "http://mirror.example/debian"


def test_mirror_skips_security_only_stanzas(tmp_path: Path) -> None:
    sources = tmp_path / "debian.sources"
    sources.write_text("\n\n".join(reversed(HOST_SOURCES.split("\n\n"))))
    assert provision.mirror(sources) == "http://mirror.example/debian"


def test_mirror_errors(tmp_path: Path) -> None:
    with pytest.raises(provision.ProvisionError, match="cannot read the host's package sources"):
        provision.mirror(tmp_path / "absent.sources")
    only_security = tmp_path / "security.sources"
    only_security.write_text(HOST_SOURCES.split("\n\n")[1])
    with pytest.raises(provision.ProvisionError, match="names no Debian archive"):
        provision.mirror(only_security)


def test_unknown_release_and_bad_spec() -> None:
    with pytest.raises(provision.ProvisionError, match="OTP 26 is not available"):
        provision.otp(26, print)
    with pytest.raises(provision.ProvisionError, match="'x' is neither a release number nor the path"):
        provision.otps("25,x", print)


def test_not_root(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(os, "geteuid", lambda: 1000)
    with pytest.raises(provision.ProvisionError, match="needs root: run ./tcs as root, or use --otp local"):
        provision.otp(29, print)


@pytest.fixture
def fake_world(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Path]:
    """A cache directory, a local mirror (file://) and a stand-in debootstrap on PATH whose
    behaviour a test writes into `script`."""
    if os.geteuid() != 0:
        pytest.skip("provisioning runs as root only")
    cache, mirror, bin_dir = tmp_path / "cache", tmp_path / "mirror", tmp_path / "bin"
    (mirror / "dists" / "sid").mkdir(parents=True)
    (mirror / "dists" / "sid" / "Release").write_text("Suite: unstable\n")
    bin_dir.mkdir()
    sources = tmp_path / "debian.sources"
    sources.write_text(f"Types: deb\nURIs: file://{mirror}\nSuites: bookworm\nComponents: main\n")
    monkeypatch.setenv("TCS_OTP_CACHE", str(cache))
    monkeypatch.setenv("PATH", f"{bin_dir}:{os.environ['PATH']}")
    monkeypatch.setattr(provision, "SOURCES", sources)
    return {"cache": cache, "script": bin_dir / "debootstrap", "mirror": mirror}


def _debootstrap(path: Path, body: str) -> None:
    path.write_text("#!/bin/sh\n" + body)
    path.chmod(0o755)


def test_debootstrap_failure_shows_its_log_and_leaves_nothing(fake_world: dict[str, Path]) -> None:
    _debootstrap(fake_world["script"], 'mkdir -p "$4/usr"\necho "I: Retrieving InRelease"\n'
                 'echo "I: Retrieving Packages"\necho "E: Couldn\'t download packages: erlang-base"\nexit 1\n')
    said: list[str] = []
    with pytest.raises(provision.ProvisionError) as failure:
        provision.otp(29, said.append)
    message = str(failure.value)
    assert "debootstrap sid failed (exit 1)" in message
    assert "E: Couldn't download packages: erlang-base" in message
    assert any("provisioning OTP 29" in s for s in said)
    assert [s for s in said if "Retrieving" in s] == ["debootstrap: Retrieving InRelease"]  # one line per stage
    assert sorted(p.name for p in fake_world["cache"].iterdir()) == ["otp-sid.debootstrap.log", "otp-sid.lock"]


def test_a_root_whose_node_does_not_answer_is_not_kept(fake_world: dict[str, Path]) -> None:
    # debootstrap "succeeds" but the root has no working erl: it must not become the cached root.
    _debootstrap(fake_world["script"], 'mkdir -p "$4/usr/bin" "$4/tmp"\nexit 0\n')
    with pytest.raises(provision.ProvisionError, match="erl"):
        provision.otp(29, print)
    assert not (fake_world["cache"] / "otp-sid").exists()
    assert not list(fake_world["cache"].glob(".partial-*"))


def test_a_broken_cached_root_is_made_again(fake_world: dict[str, Path]) -> None:
    broken = fake_world["cache"] / "otp-sid"
    (broken / "etc").mkdir(parents=True)
    leftover = fake_world["cache"] / ".partial-otp-sid-interrupted"
    leftover.mkdir()
    _debootstrap(fake_world["script"], "exit 1\n")
    said: list[str] = []
    with pytest.raises(provision.ProvisionError, match="debootstrap sid failed"):
        provision.otp(29, said.append)
    assert any(f"{broken} is not a working OTP 29 root" in s and "making it again" in s for s in said)
    assert any(f"removing {leftover}" in s for s in said)
    assert not broken.exists() and not leftover.exists()


def test_unreachable_mirror(fake_world: dict[str, Path]) -> None:
    (fake_world["mirror"] / "dists" / "sid" / "Release").unlink()
    with pytest.raises(provision.ProvisionError, match="cannot reach the Debian mirror"):
        provision.otp(29, print)


def test_no_space(fake_world: dict[str, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(provision, "SPACE_NEEDED", 1 << 62)
    with pytest.raises(provision.ProvisionError, match="not enough space in .*set TCS_OTP_CACHE"):
        provision.otp(29, print)


def test_cache_directory_not_usable(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    if os.geteuid() != 0:
        pytest.skip("provisioning runs as root only")
    blocker = tmp_path / "file"
    blocker.write_text("")
    monkeypatch.setenv("TCS_OTP_CACHE", str(blocker / "cache"))
    with pytest.raises(provision.ProvisionError, match="cannot use the cache directory"):
        provision.otp(29, print)
