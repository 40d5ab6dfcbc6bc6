"""ref/README.md's layer table and the model's functions against the tree (tcs_driver/reftree.py)."""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from tcs_driver import reftree

REPO = Path(__file__).resolve().parents[2]
REF = REPO / "ref"


def test_layer_table_matches_the_tree() -> None:
    readme = (REF / "README.md").read_text()
    assert reftree.with_table(readme, reftree.table(REF)) == readme, \
        "ref/README.md's layer table is stale: regenerate it with ./tcs layers"


def test_every_layer_and_module_is_in_the_table() -> None:
    text = reftree.table(REF)
    for layer in reftree.layers((REF / "LAYERS").read_text()):
        for source in sorted((REF / layer.directory).glob("*.[ch]")):
            row = next(line for line in text.splitlines()
                       if f"`ref/{layer.directory}`" in line or (layer.directory == "." and "`ref/`" in line))
            assert f" {source.stem}," in row or f" {source.stem} |" in row, (source, row)


@pytest.fixture
def ref_copy(tmp_path: Path) -> Path:
    """A copy of ref/ (sources, LAYERS, README.md) to break on purpose."""
    copy = tmp_path / "ref"
    shutil.copytree(REF, copy, ignore=shutil.ignore_patterns("cases", "bad", "*.txt"))
    return copy


@pytest.mark.parametrize("change", ["new_module", "longer_file"])
def test_a_stale_table_is_seen(ref_copy: Path, change: str) -> None:
    readme = (ref_copy / "README.md").read_text()
    if change == "new_module":
        (ref_copy / "events" / "newthing.c").write_text("/* newthing.c */\n")
    else:
        with (ref_copy / "run" / "run.c").open("a") as f:
            f.write("\n")
    regenerated = reftree.with_table(readme, reftree.table(ref_copy))
    assert regenerated != readme
    if change == "new_module":
        assert "newthing" in regenerated


def test_the_tree_keeps_its_function_rule() -> None:
    assert reftree.function_problems(reftree.ref_files(REF)) == []


@pytest.mark.parametrize("stray, problem", [
    ("harness/patterns.h", "patterns_nowhere is declared but no ref/ source defines it"),
    ("events/counters.c", "counters_unused is not static and no ref/ header declares it"),
], ids=["declared_not_defined", "defined_not_declared"])
def test_a_broken_function_rule_is_seen(ref_copy: Path, stray: str, problem: str) -> None:
    path = ref_copy / stray
    text = path.read_text()
    if stray.endswith(".h"):
        path.write_text(text.replace("#endif", "void patterns_nowhere(Model *m);\n\n#endif"))
    else:
        path.write_text(text + "\nint counters_unused(void)\n{\n    return 0;\n}\n")
    assert any(problem in p for p in reftree.function_problems(reftree.ref_files(ref_copy)))


def test_declared_and_defined_but_unused_is_seen() -> None:
    header = "int lone_fn(int x);\n"
    source = '#include "lone.h"\nint lone_fn(int x)\n{\n    return x; /* lone_fn( in a comment */\n}\n'
    assert reftree.function_problems([("lone.h", header), ("lone.c", source)]) == \
        ["lone.c: lone_fn is defined and declared but nothing uses it"]


def test_tcs_layers_check_passes_on_the_tree() -> None:
    """`./tcs layers` is the one command that regenerates the table; --check changes nothing."""
    done = subprocess.run([str(REPO / "tcs"), "layers", "--check"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
