"""Make the tcs_driver package importable when pytest runs from the repository root."""

import sys
from pathlib import Path

_DRIVER = str(Path(__file__).resolve().parents[1])
if _DRIVER not in sys.path:
    sys.path.insert(0, _DRIVER)

import os
import subprocess
from collections.abc import Callable

import pytest

from tcs_driver import corpus, node, provision
from tcs_driver.results import CaseResult

def _corpus_cases() -> list[corpus.Case]:
    """Every case with its metadata, read through the model and cached per build, so that
    collecting the tests does not wait for hundreds of tcsref runs (empty without a build)."""
    layout = corpus.default_layout()
    if not layout.tcsref.exists():
        return []
    return corpus.load_cases(layout, corpus.case_paths(layout))


CASES = _corpus_cases()


def _test_releases() -> list[str]:
    """The OTP releases the live corpus runs on: $TCS_TEST_OTP ('all' by default, or e.g. '25,29')."""
    spec = os.environ.get("TCS_TEST_OTP", "all")
    if spec == "all":
        return [str(r) for r in sorted({25, *provision.SUITES})]
    return [r.strip() for r in spec.split(",") if r.strip()]


TEST_RELEASES = _test_releases()


def pytest_configure(config: pytest.Config) -> None:
    """Registers one marker per feature tag used by the corpus."""
    for feature in sorted({f for case in CASES for f in case.features}):
        config.addinivalue_line("markers", f"{feature}: cases with feature tag {feature}")
    for release in TEST_RELEASES:
        config.addinivalue_line("markers", f"otp{release}: replayed on OTP {release}")
    # pytest-xdist's, given here too so that a run without pytest-xdist knows it
    config.addinivalue_line("markers", "xdist_group(name): tests one pytest-xdist worker runs (--dist loadgroup)")


#: The fixtures that start OTP nodes (or provision the roots they run in).
NODE_FIXTURES = frozenset({"otp_node", "otp_for", "corpus_results"})


#: The modules that take longest (a memcheck node takes minutes; validating every bundled tracer, building
#: the book, the parser's fuzzing, a clean build), started first when the tests run side by side so that
#: none of them is left alone at the end.
LONGEST_FIRST = ("test_validate_sanitize.py", "test_validate.py", "test_workshop.py", "test_fuzz_parser.py",
                 "test_run_command.py")


def side_by_side_group(item: pytest.Item) -> str | None:
    """The work a test shares with others, which one pytest-xdist worker must do for all of them (./tcs test
    runs with --dist loadgroup): the corpus run per release (corpus_results), the fuzz target's build
    directory and learned corpus, or a fixture of its module (a validate run, a README command's files).
    None: the test shares nothing and goes to whichever worker is free."""
    fixtures = set(getattr(item, "fixturenames", ()))
    if "corpus_results" in fixtures:
        return "corpus_results"
    if item.get_closest_marker("fuzzing"):
        return "fuzzing"
    definitions = getattr(getattr(item, "_fixtureinfo", None), "name2fixturedefs", {})
    if any(d.scope == "module" for name in fixtures for d in definitions.get(name, ())):
        return item.nodeid.split("::")[0]
    return None


def _started_first(item: pytest.Item) -> int:
    name = item.nodeid.split("::")[0].rsplit("/", 1)[-1]
    return LONGEST_FIRST.index(name) if name in LONGEST_FIRST else len(LONGEST_FIRST)


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist reads the groups
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Marks `live` every test that starts a node, so that `-m "not live"` is the fast part; gives each
    test its side-by-side group; puts the longest modules first."""
    for item in items:
        if NODE_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.live)
        if group := side_by_side_group(item):
            item.add_marker(pytest.mark.xdist_group(group))
    items.sort(key=_started_first)


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


@pytest.fixture(scope="session")
def otp_for() -> Callable[[str], node.Otp]:
    """How to start nodes of a release: the host's, or a Debian root provisioned on first use.

    Without root the roots can be neither made nor entered: the test is
    skipped saying so. As root, a provisioning failure is a test error."""
    otps: dict[str, node.Otp] = {}

    def otp(release: str) -> node.Otp:
        if release not in otps:
            try:
                [otps[release]] = provision.otps(release, lambda text: print(f"tcs: {text}", flush=True))
            except provision.ProvisionError as why:
                if os.geteuid() != 0:
                    pytest.skip(f"OTP {release}: {why}")
                raise
        return otps[release]

    return otp


@pytest.fixture(scope="session")
def run_probe(layout: corpus.Layout, otp_for) -> Callable[[str, str, int], subprocess.CompletedProcess[str]]:  # type: ignore[no-untyped-def]
    """How to run an Erlang probe (an -eval expression) on a release, with the runner's modules on
    the code path: its output, which the test reads."""

    def run(release: str, probe: str, timeout: int) -> subprocess.CompletedProcess[str]:
        otp = otp_for(release)
        with otp.workspace() as ws:
            beams = ws.place(corpus.runner_beams(layout, otp))
            return subprocess.run([*otp.erl, "-noshell", "-noinput", "-pa", str(beams), "-eval", probe],
                                  capture_output=True, text=True, timeout=timeout)

    return run


@pytest.fixture(scope="session")
def corpus_results(layout: corpus.Layout, otp_node, otp_for) -> Callable[[str], dict[str, CaseResult]]:
    """The whole corpus run once per release (several cases per node, as ./tcs run does), by case id."""
    _, _, include = otp_node
    runs: dict[str, dict[str, CaseResult]] = {}

    def results_on(release: str) -> dict[str, CaseResult]:
        if release not in runs:
            runs[release] = {r.case: r for r in corpus.run_cases(layout, CASES, otp_for(release), include)}
        return runs[release]

    return results_on
