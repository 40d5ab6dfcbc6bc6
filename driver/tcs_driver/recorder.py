"""The recorder tracer, compiled once per set of optional callbacks.

Only the NIF function table decides which erl_tracer callbacks exist, so a
scenario's callback set needs a library of its own (nif_impls/recorder)."""
from __future__ import annotations

import subprocess
from pathlib import Path

from . import tags


def callback_mask(callbacks: list[str]) -> int:
    """The bit mask of a callback set, in the model's bit order (tcsref tags), which the
    recorder's generated tcs_tags.h uses too; unknown names raise ValueError."""
    order = tags.table().optional_callbacks
    mask = 0
    for name in callbacks:
        mask |= 1 << order.index(name)
    return mask


def module_name(callbacks: list[str]) -> str:
    """The Erlang module name of the recorder variant with these callbacks."""
    return f"tcs_rec_{callback_mask(callbacks):04x}"


class BuildError(Exception):
    """A tracer library could not be compiled."""


def build_variant(source: Path, generated: Path, out_dir: Path, erts_include: Path, callbacks: list[str]) -> Path:
    """Compiles (or reuses) the variant library against the build's generated tcs_tags.h
    (in `generated`); returns its path without '.so'."""
    name = module_name(callbacks)
    lib = out_dir / f"{name}.so"
    inputs = (source, generated / "tcs_tags.h")
    if lib.exists() and all(lib.stat().st_mtime >= i.stat().st_mtime for i in inputs):
        return lib.with_suffix("")
    out_dir.mkdir(parents=True, exist_ok=True)
    tmp = lib.with_suffix(".so.tmp")
    cmd = ["cc", "-std=c11", "-O2", "-Wall", "-Wextra", "-Werror", "-shared", "-fPIC",
           f"-I{erts_include}", f"-I{generated}", f"-DTCS_MODULE={name}",
           f"-DTCS_CALLBACKS={callback_mask(callbacks):#x}", "-o", str(tmp), str(source)]
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode != 0:
        raise BuildError(f"compiling {name}: {done.stderr.strip()}")
    tmp.replace(lib)
    return lib.with_suffix("")
