"""Make the tcs_driver package importable when pytest runs from the repository root."""

import sys
from pathlib import Path

_DRIVER = str(Path(__file__).resolve().parents[1])
if _DRIVER not in sys.path:
    sys.path.insert(0, _DRIVER)

import pytest

from tcs_driver import corpus, node

def _corpus_cases() -> list[corpus.Case]:
    """Every case with its metadata, read through the model (empty without a build)."""
    layout = corpus.default_layout()
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
    where = corpus.default_layout()
    if not where.tcsref.exists():
        pytest.skip(f"needs the CMake build in {where.build}: run the tests with ./tcs test")
    return where


@pytest.fixture(scope="session")
def otp_node() -> tuple[node.Otp, int, Path]:
    """The host's OTP node: how to start it, its release, its NIF headers."""
    try:
        return node.probe_local()
    except node.NoErlang as why:
        pytest.skip(f"needs a working erl (OTP >= 25): {why}")
