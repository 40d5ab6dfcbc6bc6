"""The modules of tcs_driver import one another without a cycle: each module is read (ast, not
imported), every import of a tcs_driver module is an edge, those under `if TYPE_CHECKING:` and
inside functions too (a cycle hidden there is one all the same)."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

DRIVER = Path(__file__).resolve().parents[1]


def _module_name(root: Path, path: Path) -> str:
    """The dotted name of the module at path, root being the directory that holds the top package."""
    parts = list(path.relative_to(root).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def import_graph(root: Path, package: str) -> dict[str, set[str]]:
    """Map each module of package (under root) to the modules of package it imports."""
    paths = {_module_name(root, p): p for p in sorted((root / package).rglob("*.py"))}
    graph: dict[str, set[str]] = {}
    for name, path in paths.items():
        here = name if path.name == "__init__.py" else name.rpartition(".")[0]
        edges: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                edges |= {alias.name for alias in node.names if alias.name in paths}
            elif isinstance(node, ast.ImportFrom):
                base = here.split(".")[:len(here.split(".")) - node.level + 1] if node.level else []
                source = ".".join(base + ([node.module] if node.module else []))
                for alias in node.names:   # `from P import M` names module P.M, or something of P
                    target = f"{source}.{alias.name}" if f"{source}.{alias.name}" in paths else source
                    if target in paths:
                        edges.add(target)
        graph[name] = edges - {name}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of graph that hold more than one module, each sorted (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = stack[stack.index(v):]
            del stack[stack.index(v):]
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_tcs_driver_has_no_import_cycle() -> None:
    graph = import_graph(DRIVER, "tcs_driver")
    assert "tcs_driver.stream.read" in graph and "tcs_driver.fuzz.gen" in graph, "the graph misses modules"
    assert graph["tcs_driver.stream.read"] >= {"tcs_driver.stream.parse", "tcs_driver.stream.windows"}
    assert cycles(graph) == []


def _write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


@pytest.mark.parametrize(("files", "expected"), [
    pytest.param({"p/__init__.py": "", "p/a.py": "from . import b\n", "p/b.py": "from .a import f\n"},
                 [["p.a", "p.b"]], id="sibling-pair"),
    pytest.param({"p/__init__.py": "", "p/a.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                  "    from .b import T\n", "p/b.py": "def g():\n    from p import a\n"},
                 [["p.a", "p.b"]], id="type-checking-and-function-body"),
    pytest.param({"p/__init__.py": "from .q.x import f\n", "p/q/__init__.py": "", "p/q/x.py": "from .. import y\n",
                  "p/y.py": "import p.q.x\n"}, [["p.q.x", "p.y"]], id="parent-relative"),
    pytest.param({"p/__init__.py": "from .s import f\n", "p/s/__init__.py": "from .a import f\n",
                  "p/s/a.py": "from . import g\n"}, [["p.s", "p.s.a"]], id="through-package-init"),
    pytest.param({"p/__init__.py": "", "p/a.py": "from . import b\nimport os\n", "p/b.py": "from .c import f\n",
                  "p/c.py": "import json\n"}, [], id="chain-no-cycle"),
])
def test_cycles_are_found(tmp_path: Path, files: dict[str, str], expected: list[list[str]]) -> None:
    _write(tmp_path, files)
    assert cycles(import_graph(tmp_path, "p")) == expected
