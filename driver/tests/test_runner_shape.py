"""The Erlang runner's shape: the modules it is made of call down, never back up
(tcs_runner_lib: its header)."""
from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from tcs_driver.layout import REPO

RUNNER = REPO / "driver" / "runner"
#: The corpus runner's modules from the top: each may call only modules after it in this list.
#: (The validate jobs, tcs_validate_*, are a family of their own on tcs_validate_lib.)
LAYERS = ["tcs_batch", "tcs_runner",
          "tcs_together", "tcs_patterns", "tcs_procflags", "tcs_sessions", "tcs_ports", "tcs_seq", "tcs_readings", "tcs_watchdog", "tcs_peer",
          "tcs_runner_lib", "tcs_settle", "tcs_suspends", "tcs_puppet", "tcs_direct", "tcs_busy", "tcs_gate", "tcs_canon", "tcs_foreign", "tcs_target",
          "tcs_late", "tcs_nif", "tcs_shapes"]


def calls(module: str) -> set[str]:
    """The runner modules a module calls (Mod:Fun( and spawn(Mod, ...), -import), itself left out."""
    text = (RUNNER / f"{module}.erl").read_text()
    code = "\n".join(line.split("%", 1)[0] for line in text.splitlines())
    named = set(re.findall(r"\b(tcs_\w+):\w+\(", code)) | set(re.findall(r"spawn\((tcs_\w+),", code)) \
        | set(re.findall(r"-import\((tcs_\w+),", code))
    return named - {module}


def test_every_runner_module_has_a_layer() -> None:
    modules = {p.stem for p in RUNNER.glob("tcs_*.erl") if not p.stem.startswith("tcs_validate_")}
    assert modules == set(LAYERS)


@pytest.mark.parametrize("module", LAYERS)
def test_a_runner_module_calls_only_down(module: str) -> None:
    below = set(LAYERS[LAYERS.index(module) + 1:])
    upward = calls(module) & set(LAYERS) - below
    assert not upward, f"{module}.erl calls {sorted(upward)}, which are above it: move what it needs into a lower module"


def test_the_check_sees_an_upward_call(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "tcs_ports.erl").write_text("f() -> tcs_runner:ctl(a, b, c, d).\n% tcs_batch:main([]) in a comment\n")
    monkeypatch.setattr(sys.modules[__name__], "RUNNER", tmp_path)
    assert calls("tcs_ports") == {"tcs_runner"}
