"""The user's tracer as given on the command line, checked and made ready to
load: the files exist, the .erl is compiled, the names agree.  Anything wrong
is a BadInput: a clear message, exit status 2, nothing written.

A tracer comes as single files (--nif, and --erl or --beam) or as it ships,
in OTP application directories (--app): an application directory holds
ebin/ (and usually priv/), and rebar3's _build/PROFILE/lib holds one per
application.  The nodes then have every application's ebin/ on their code
path, so code:priv_dir/1, code:lib_dir/1 and paths relative to the beam
work as they do in a release."""
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
    nif: Path | None     # the NIF library (.so) given with --nif; None: the module finds its own (--app)
    beam: Path           # the compiled module
    given_as: str        # the --erl or --beam path, as the user wrote it (or the beam found in an --app)
    state: str | None    # the --state term text; None: a process of the harness
    apps: tuple[Path, ...] = ()   # OTP application directories, each with ebin/
    sanitized: Path | None = None  # an ASan+UBSan build of the library from --src (asan.py), for --sanitize
    race_build: Path | None = None  # a ThreadSanitizer build of the library from --src (tsan.py), for stress

    def beam_app(self) -> Path | None:
        """The application directory the beam lies in (its ebin/), if any."""
        return next((app for app in self.apps if self.beam.parent == app / "ebin"), None)


def state_warnings(state: str | None) -> list[str]:
    """What a --state that holds no '$harness' loses: the default state is a process of the harness,
    which dead_state needs and where the checks see what a tracer sends to its state."""
    if state is None or "'$harness'" in state:
        return []
    eaten = " (it has '', as when a shell expanded $harness to nothing inside double quotes)" \
        if "''" in state else ""
    return [f"--state {state} has no '$harness'{eaten}: no process of the harness is in the state, so "
            "dead_state is skipped and what the tracer sends to its state goes nowhere the checks "
            "see; to put the harness's process in, write '$harness' and keep the shell off it: "
            "--state \"{'\\$harness', ...}\" (in double quotes, escape the $)"]


def application_dirs(given: list[str]) -> tuple[Path, ...]:
    """The application directories of --app values: a directory with ebin/ is one; a directory
    whose subdirectories have ebin/ (rebar3's _build/PROFILE/lib, an OTP lib/) gives those."""
    apps: list[Path] = []
    for value in given:
        path = Path(value)
        if not path.is_dir():
            raise BadInput(f"--app {value}: no such directory")
        if (path / "ebin").is_dir():
            apps.append(path.resolve())
            continue
        inside = sorted(sub.resolve() for sub in path.iterdir() if (sub / "ebin").is_dir())
        if not inside:
            raise BadInput(f"--app {value}: neither an OTP application directory (with ebin/) nor a "
                           "directory of them (like rebar3's _build/default/lib): run rebar3 compile first?")
        apps += inside
    names: dict[str, Path] = {}
    for app in apps:
        name = app.name.partition("-")[0]
        if name in names and names[name] != app:
            raise BadInput(f"--app: two directories of application {name}: {names[name]} and {app}")
        names[name] = app
    return tuple(dict.fromkeys(apps))


def prepare(module: str, nif: str | None, erl: str | None, beam: str | None, state: str | None,
            scratch: Path, apps: list[str] | None = None) -> Tracer:
    """Checks the arguments and compiles an .erl into scratch."""
    if not MODULE_NAME.match(module):
        raise BadInput(f"--module {module!r}: not an Erlang module name (lower-case letter, "
                       "then letters, digits, _ or @)")
    app_dirs = application_dirs(apps or [])
    if nif is None and not app_dirs:
        raise BadInput("--nif is needed (the tracer's NIF library), unless --app gives the application "
                       "the module loads its library from")
    library = Path(nif) if nif is not None else None
    if library is not None and not library.is_file():
        raise BadInput(f"--nif {nif}: no such file")
    resolved = library.resolve() if library is not None else None
    if state is not None and not state.strip():
        raise BadInput("--state: the term is empty")
    if erl is None and beam is None:
        if not app_dirs:
            raise BadInput("--erl or --beam is needed (the tracer's module), unless --app gives it")
        found = [app / "ebin" / f"{module}.beam" for app in app_dirs
                 if (app / "ebin" / f"{module}.beam").is_file()]
        if not found:
            raise BadInput(f"--module {module}: no {module}.beam in the ebin/ of "
                           f"{', '.join(str(a) for a in app_dirs)}")
        return Tracer(module, resolved, found[0], str(found[0]), state, app_dirs)
    given = erl if erl is not None else beam
    assert given is not None
    source = Path(given)
    if not source.is_file():
        raise BadInput(f"{'--erl' if erl is not None else '--beam'} {given}: no such file")
    if beam is not None:
        # The module inside the beam is checked on the node (beam_lib).
        return Tracer(module, resolved, source.resolve(), given, state, app_dirs)
    if source.suffix != ".erl":
        raise BadInput(f"--erl {erl}: not an .erl file")
    if source.stem != module:
        raise BadInput(f"--module {module}, but {erl} is the source of module {source.stem} "
                       "(an .erl file is named after its module)")
    done = subprocess.run(["erlc", "-o", str(scratch), str(source)], capture_output=True, text=True)
    if done.returncode != 0:
        raise BadInput(f"erlc {erl} failed:\n{(done.stdout + done.stderr).strip()}")
    return Tracer(module, resolved, scratch / f"{module}.beam", given, state, app_dirs)
