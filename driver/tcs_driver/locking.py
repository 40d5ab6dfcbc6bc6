"""Exclusive locks between tcs processes sharing one tree: two runs that would build the same
thing (the CMake build, a recorder variant) take turns, and the second reuses the first's work."""
from __future__ import annotations

import fcntl
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


@contextmanager
def held(path: Path) -> Iterator[None]:
    """Holds an exclusive lock on the file `path` (created if needed) for the duration of the block;
    waits while another process holds it. The kernel releases it if the holder dies."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)
