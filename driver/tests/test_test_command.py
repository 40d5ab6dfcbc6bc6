"""./tcs test: pytest runs side by side (pytest-xdist, --dist loadgroup) unless the arguments already say
how to run, or there is one core."""
from __future__ import annotations

import pytest

from tcs_driver import cli

SIDE_BY_SIDE = ["-n", "2", "--dist", "loadgroup"]


@pytest.mark.parametrize("given, cores, added", [
    pytest.param([], 2, SIDE_BY_SIDE, id="plain"),
    pytest.param(["-m", "not live and not fuzzing"], 2, SIDE_BY_SIDE, id="a-subset"),
    pytest.param(["-k", "fallback", "-q"], 2, SIDE_BY_SIDE, id="keyword"),
    pytest.param([], 64, ["-n", "8", "--dist", "loadgroup"], id="at-most-8"),
    pytest.param([], 1, [], id="one-core"),
    pytest.param(["-n", "1"], 2, [], id="workers-given"),
    pytest.param(["-n3"], 2, [], id="workers-given-joined"),
    pytest.param(["--numprocesses=3"], 2, [], id="workers-given-long"),
    pytest.param(["--dist", "load"], 2, [], id="distribution-given"),
    pytest.param(["-p", "no:xdist"], 2, [], id="plugin-off"),
    pytest.param(["--collect-only", "-q"], 2, [], id="listing"),
])
def test_workers_are_added_unless_the_arguments_decide(given: list[str], cores: int, added: list[str],
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("xdist")
    monkeypatch.setattr(cli.os, "cpu_count", lambda: cores)
    assert cli.pytest_workers(given) == added


@pytest.mark.parametrize("given, expected", [
    pytest.param([], ["DEFAULT"], id="none-given"),
    pytest.param(["-k", "fallback"], ["DEFAULT", "-k", "fallback"], id="keyword-only"),
    pytest.param(["driver/tests/t.py"], ["REPO/driver/tests/t.py"], id="a-file"),
    pytest.param(["./driver/tests/t.py::test_x", "-q"], ["REPO/driver/tests/t.py::test_x", "-q"], id="a-test"),
    pytest.param(["-k", "driver"], ["DEFAULT", "-k", "driver"], id="keyword-naming-a-directory"),
    pytest.param(["driver/tests/missing.py"], ["DEFAULT", "driver/tests/missing.py"], id="not-a-path"),
])
def test_a_test_path_given_replaces_the_whole_suite(given: list[str], expected: list[str], tmp_path) -> None:
    (tmp_path / "driver" / "tests").mkdir(parents=True)
    (tmp_path / "driver" / "tests" / "t.py").write_text("")
    default = tmp_path / "default"
    names = {"DEFAULT": str(default)}
    want = [names.get(a, a.replace("REPO", str(tmp_path))) for a in expected]
    assert cli.pytest_targets(given, tmp_path, default) == want
