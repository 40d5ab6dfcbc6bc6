"""Make the tcs_driver package importable when pytest runs from the repository root."""

import sys
from pathlib import Path

_DRIVER = str(Path(__file__).resolve().parents[1])
if _DRIVER not in sys.path:
    sys.path.insert(0, _DRIVER)

import os
import shutil
import subprocess

import pytest

from tcs_driver import corpus, node

REPO = Path(__file__).resolve().parents[2]


def _layout() -> corpus.Layout:
    return corpus.Layout(REPO, Path(os.environ.get("TCS_BUILD_DIR", REPO / "build")).resolve())


def _corpus_cases() -> list[corpus.Case]:
    """Every case with its metadata, read through the model (empty without a build)."""
    layout = _layout()
    if not layout.tcsref.exists():
        return []
    return [corpus.load_case(layout, p) for p in corpus.case_paths(layout)]


CASES = _corpus_cases()


def pytest_configure(config: pytest.Config) -> None:
    """Registers one marker per feature tag used by the corpus."""
    for feature in sorted({f for case in CASES for f in case.features}):
        config.addinivalue_line("markers", f"{feature}: cases with feature tag {feature}")


@pytest.fixture(scope="session")
def layout() -> corpus.Layout:
    """The source tree and its CMake build; skips when the build is missing."""
    where = _layout()
    if not where.tcsref.exists():
        pytest.skip(f"needs the CMake build in {where.build}: run the tests with ./tcs test")
    return where


@pytest.fixture(scope="session")
def otp_node() -> tuple[node.Otp, int, Path]:
    """The host's OTP node: how to start it, its release, its NIF headers."""
    if shutil.which("erl") is None:
        pytest.skip("needs erl (OTP >= 25) on PATH: apt-get install erlang-nox")
    probe = 'io:format("~s ~s", [erlang:system_info(otp_release), code:root_dir()]), halt().'
    out = subprocess.run(["erl", "-noshell", "-noinput", "-eval", probe],
                         capture_output=True, text=True, timeout=60).stdout
    release, root = out.split(" ", 1)
    return node.Otp(release, ["erl"]), int(release), Path(root) / "usr" / "include"
