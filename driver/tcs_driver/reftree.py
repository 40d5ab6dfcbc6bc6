"""The reference model's tree (ref/) as its documents and headers describe it.

- The layer table of ref/README.md is generated from ref/LAYERS and the files present
  (`./tcs layers` rewrites it, `./tcs layers --check` says whether it is stale).
- Functions: every function a ref/ header declares is defined in a ref/ source, and every
  function a ref/ source defines without `static` is declared in a header and used elsewhere.

A light C reader: comments, strings and preprocessor lines are dropped, then top-level
statements are cut at `;` and at bodies `{...}`; the model's C is written so that this is exact
(one declaration per statement, no function-like macros that define functions).
"""
from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

TABLE_HEAD = ("| # | layer | modules (`.c`/`.h`) | lines | what it holds |\n"
              "|---|---|---|---|---|\n")
# Functions that something outside ref/ calls: the C entry point, libFuzzer's.
_ENTRY_POINTS = {"main", "LLVMFuzzerTestOneInput"}


@dataclass(frozen=True)
class Layer:
    directory: str  # as LAYERS names it: "terms", ..., "." for ref/ itself
    holds: str


def layers(layers_text: str) -> list[Layer]:
    """The layers LAYERS lists, bottom first (a line: directory, then what it holds)."""
    found = []
    for line in layers_text.splitlines():
        if line and not line.startswith("#"):
            directory, _, holds = line.partition(" ")
            found.append(Layer(directory, holds.strip()))
    return found


def _sources(ref: Path, layer: Layer) -> list[Path]:
    return sorted(p for p in (ref / layer.directory).iterdir() if p.suffix in (".c", ".h") and p.is_file())


def table(ref: Path) -> str:
    """The layer table of ref/README.md for the tree under ref: one row per layer of LAYERS
    with its modules (file names without .c/.h), its lines of C and what it holds."""
    rows = [TABLE_HEAD]
    for number, layer in enumerate(layers((ref / "LAYERS").read_text()), 1):
        files = _sources(ref, layer)
        modules = ", ".join(sorted({p.stem for p in files}))
        lines = sum(len(p.read_text().splitlines()) for p in files)
        shown = "ref/" if layer.directory == "." else f"ref/{layer.directory}"
        rows.append(f"| {number} | `{shown}` | {modules} | {lines} | {layer.holds} |\n")
    return "".join(rows)


def with_table(readme: str, new_table: str) -> str:
    """readme with its layer table (from its head row to the first line not a row) replaced."""
    start = readme.index(TABLE_HEAD.splitlines()[0])
    end = start
    while end < len(readme) and readme.startswith("|", end):
        end = readme.index("\n", end) + 1
    return readme[:start] + new_table + readme[end:]


# --- functions ------------------------------------------------------------------------------

_NOISE = re.compile(r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', re.S)
_PREPROCESSOR = re.compile(r"^[ \t]*#(?:[^\n]*\\\n)*[^\n]*", re.M)
_NAME_BEFORE_PAREN = re.compile(r"(\w+)\s*\(")


def code_of(text: str) -> str:
    """C text without comments, string and character literals and preprocessor lines."""
    text = _NOISE.sub(lambda m: '""' if m.group(0).startswith('"') else " ", text)
    return _PREPROCESSOR.sub("", text)


@dataclass(frozen=True)
class Function:
    name: str
    file: str
    static: bool


def functions(code: str, file: str) -> tuple[list[Function], list[Function]]:
    """The (declarations, definitions) of functions at the top level of code (see code_of)."""
    declared: list[Function] = []
    defined: list[Function] = []
    statement, depth, body_is_function = "", 0, False
    for char in code:
        if depth:
            depth += {"{": 1, "}": -1}.get(char, 0)
            if depth == 0 and body_is_function:
                statement = ""
            continue
        if char == "{":
            depth, body_is_function = 1, _function_name(statement) is not None
            if body_is_function:
                defined.append(_function(statement, file))
            continue
        if char == ";":
            if _function_name(statement) is not None:
                declared.append(_function(statement, file))
            statement = ""
            continue
        statement += char
    return declared, defined


def _function_name(statement: str) -> str | None:
    """The name of the function statement declares or defines, or None when it is no function
    (a typedef, a variable with an initializer, a struct)."""
    text = statement.strip()
    if not text or text.startswith("typedef") or "=" in text or text.startswith(("struct", "enum", "union")) \
            and "(" not in text:
        return None
    found = _NAME_BEFORE_PAREN.search(text)
    return found.group(1) if found and found.group(1) not in ("if", "while", "for", "switch", "return") else None


def _function(statement: str, file: str) -> Function:
    name = _function_name(statement)
    assert name is not None
    return Function(name, file, re.search(r"\bstatic\b", statement) is not None)


def function_problems(files: Iterable[tuple[str, str]]) -> list[str]:
    """What breaks the rule of the module's functions in these (path, text) C files: a declared
    function that no file defines, a non-static definition no header declares or nothing uses."""
    files = list(files)
    codes = {path: code_of(text) for path, text in files}
    declared: dict[str, list[Function]] = {}
    defined: dict[str, list[Function]] = {}
    for path, code in codes.items():
        decls, defs = functions(code, path)
        for f in decls:
            declared.setdefault(f.name, []).append(f)
        for f in defs:
            defined.setdefault(f.name, []).append(f)
    problems = []
    for name, decls in sorted(declared.items()):
        if any(not f.static for f in decls) and name not in defined:
            problems.append(f"{decls[0].file}: {name} is declared but no ref/ source defines it")
    # a use may sit in a macro: the step table's HANDLER column (case/steps.h) names each handler
    everything = "\n".join(_NOISE.sub(" ", text) for _, text in files)
    for name, defs in sorted(defined.items()):
        public = [f for f in defs if not f.static]
        if not public or name in _ENTRY_POINTS:
            continue
        if not any(f.file.endswith(".h") for f in declared.get(name, [])):
            problems.append(f"{public[0].file}: {name} is not static and no ref/ header declares it")
        elif len(re.findall(rf"\b{name}\b", everything)) <= len(declared[name]) + len(defs):
            problems.append(f"{public[0].file}: {name} is defined and declared but nothing uses it")
    return problems


def ref_files(ref: Path) -> list[tuple[str, str]]:
    """(path relative to ref's parent, text) of every .c and .h file under ref."""
    return [(str(p.relative_to(ref.parent)), p.read_text()) for p in sorted(ref.rglob("*.[ch]"))]
