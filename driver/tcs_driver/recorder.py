"""The recorder tracer, compiled once per set of optional callbacks.

Only the NIF function table decides which erl_tracer callbacks exist, so a
scenario's callback set needs a library of its own (nif_impls/recorder)."""
from __future__ import annotations

import os
import subprocess
import tempfile
from pathlib import Path

from . import locking, tags


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


def build_variant(source: Path, generated: Path, out_dir: Path, erts_include: Path,
                  callbacks: list[str], *, slow_us: int = 0) -> Path:
    """Compiles (or reuses) the variant library against the build's generated tcs_tags.h
    (in `generated`); returns its path without '.so'. With slow_us, a slow tracer: that many
    microseconds in every enabled callback (the harness's tests).

    Runs side by side in one tree take turns on a variant (a lock per variant), compile into a
    temporary file of their own and rename it into place, so none sees a half-written library."""
    name = module_name(callbacks)
    lib = out_dir / f"{name}.so"
    inputs = (source, generated / "tcs_tags.h")

    def fresh() -> bool:
        return lib.exists() and all(lib.stat().st_mtime >= i.stat().st_mtime for i in inputs)

    if fresh():
        return lib.with_suffix("")
    with locking.held(out_dir / f".{name}.lock"):
        if fresh():  # built by another run while this one waited
            return lib.with_suffix("")
        handle, partial = tempfile.mkstemp(prefix=f".{name}-", suffix=".so", dir=out_dir)
        os.close(handle)
        cmd = ["cc", "-std=c11", "-O2", "-Wall", "-Wextra", "-Werror", "-shared", "-fPIC",
               f"-I{erts_include}", f"-I{generated}", f"-DTCS_MODULE={name}",
               f"-DTCS_CALLBACKS={callback_mask(callbacks):#x}", "-o", partial, str(source)]
        if slow_us:
            cmd[1:1] = [f"-DTCS_SLOW_US={slow_us}", "-D_DEFAULT_SOURCE"]
        try:
            done = subprocess.run(cmd, capture_output=True, text=True)
            if done.returncode != 0:
                raise BuildError(f"compiling {name}: {done.stderr.strip()}")
            os.replace(partial, lib)
        finally:
            Path(partial).unlink(missing_ok=True)
    return lib.with_suffix("")
