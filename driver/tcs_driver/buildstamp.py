"""When the CMake build is known to be up to date, without running CMake.

`cmake --build` on an unchanged tree still walks every target's makefile (about a second of
CPU, more under load), and every `./tcs` command builds first. After a successful build the
driver records two fingerprints in the build directory: one of the tree's files (path, size,
modification time) and the tools the CMake cache names, taken before the build (so an edit
made while it ran is seen next time), and one of the build's products, taken after it (so a
deleted or replaced product is seen). While both still match, the build is skipped.
"""
from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable, Iterator
from pathlib import Path

STAMP = ".tcs-build-fingerprint"
# Directories of the tree that hold nothing CMake reads: version control, caches, reports.
_SKIPPED = {".git", "__pycache__", "coverage"}
# Directories of the build whose files (not sub-directories) are the build's products.
_PRODUCT_DIRS = (".", "nif", "beam", "generated", "ref/tests")


def _tree_files(root: Path) -> Iterator[os.DirEntry[str]]:
    """Every file under root, build directories (those with a CMakeCache.txt) left out."""
    with os.scandir(root) as entries:
        listed = sorted(entries, key=lambda e: e.name)
    if any(e.name == "CMakeCache.txt" for e in listed):
        return
    for entry in listed:
        if entry.is_dir(follow_symlinks=False):
            if entry.name not in _SKIPPED:
                yield from _tree_files(Path(entry.path))
        elif entry.is_file():
            yield entry


def _digest(rows: Iterable[str]) -> str:
    h = hashlib.sha256()
    for row in rows:
        h.update(row.encode(errors="surrogateescape") + b"\n")
    return h.hexdigest()


def _row(path: str, label: str) -> str:
    try:
        st = os.stat(path)
    except OSError:
        return f"{label} missing"
    return f"{label} {st.st_size} {st.st_mtime_ns}"


def _cached_tools(build: Path) -> list[str]:
    """The programs and files the CMake cache names (compiler, erl, erlc, ...)."""
    try:
        lines = (build / "CMakeCache.txt").read_text(errors="replace").splitlines()
    except OSError:
        return []
    return sorted(line.split("=", 1)[1] for line in lines
                  if ":FILEPATH=/" in line and not line.startswith("//"))


def sources(repo: Path, build: Path) -> str:
    """The fingerprint of what the build reads: the tree's files and the tools the cache names."""
    rows = [_row(e.path, os.path.relpath(e.path, repo)) for e in _tree_files(repo)]
    rows += [_row(tool, tool) for tool in _cached_tools(build)]
    return _digest(rows)


def products(build: Path) -> str:
    """The fingerprint of what the build made (the files of its product directories)."""
    rows = []
    for sub in _PRODUCT_DIRS:
        try:
            with os.scandir(build / sub) as entries:
                files = sorted(e.name for e in entries if e.is_file() and e.name != STAMP)
        except OSError:
            rows.append(f"{sub} missing")
            continue
        rows += [_row(str(build / sub / name), f"{sub}/{name}") for name in files]
    return _digest(rows)


def up_to_date(repo: Path, build: Path) -> bool:
    """True when the last recorded build saw this tree and its products are untouched."""
    try:
        recorded = (build / STAMP).read_text().split()
    except OSError:
        return False
    return recorded == [sources(repo, build), products(build)]


def record(build: Path, sources_before: str) -> None:
    """Records a successful build of the tree whose fingerprint was sources_before."""
    tmp = build / (STAMP + ".tmp")
    tmp.write_text(f"{sources_before}\n{products(build)}\n")
    tmp.replace(build / STAMP)
