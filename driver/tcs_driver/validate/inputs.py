"""The user's tracer as given on the command line, checked and made ready to
load: the files exist, the .erl is compiled, the names agree.  Anything wrong
is a BadInput: a clear message, exit status 2, nothing written."""
from __future__ import annotations

import re
import subprocess
from dataclasses import dataclass
from pathlib import Path


class BadInput(Exception):
    """Input the user has to fix; the message says what."""


MODULE_NAME = re.compile(r"[a-z][a-zA-Z0-9_@]*\Z")


@dataclass(frozen=True)
class Tracer:
    """A tracer module ready to be loaded on a node."""
    module: str
    nif: Path            # the NIF library (.so)
    beam: Path           # the compiled module
    given_as: str        # the --erl or --beam path, as the user wrote it
    state: str | None    # the --state term text; None: a process of the harness


def prepare(module: str, nif: str, erl: str | None, beam: str | None, state: str | None,
            scratch: Path) -> Tracer:
    """Checks the arguments and compiles an .erl into scratch."""
    if not MODULE_NAME.match(module):
        raise BadInput(f"--module {module!r}: not an Erlang module name (lower-case letter, "
                       "then letters, digits, _ or @)")
    library = Path(nif)
    if not library.is_file():
        raise BadInput(f"--nif {nif}: no such file")
    if state is not None and not state.strip():
        raise BadInput("--state: the term is empty")
    given = erl if erl is not None else beam
    assert given is not None
    source = Path(given)
    if not source.is_file():
        raise BadInput(f"{'--erl' if erl is not None else '--beam'} {given}: no such file")
    if beam is not None:
        # The module inside the beam is checked on the node (beam_lib).
        return Tracer(module, library.resolve(), source.resolve(), given, state)
    if source.suffix != ".erl":
        raise BadInput(f"--erl {erl}: not an .erl file")
    if source.stem != module:
        raise BadInput(f"--module {module}, but {erl} is the source of module {source.stem} "
                       "(an .erl file is named after its module)")
    done = subprocess.run(["erlc", "-o", str(scratch), str(source)], capture_output=True, text=True)
    if done.returncode != 0:
        raise BadInput(f"erlc {erl} failed:\n{(done.stdout + done.stderr).strip()}")
    return Tracer(module, library.resolve(), scratch / f"{module}.beam", given, state)
