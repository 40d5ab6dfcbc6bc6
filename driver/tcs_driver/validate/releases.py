"""The OTP releases validate runs on, and where their nodes find files.

`available(spec)` turns `--otp` into node.Otp objects through the OTP
matrix's provisioning (the host's release, and OTP 27 and 29 in their Debian
roots), and a `Workdir` is a directory the nodes of one release read and
write.  A release in a root needs its files inside the root: Workdir then
creates its directory under ROOT/tmp and gives paths as the node sees them."""
from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from .. import node, provision


class Unavailable(Exception):
    """An OTP release asked for cannot run here."""


def available(spec: str, say: Callable[[str], None]) -> list[node.Otp]:
    """The releases `--otp` asks for ('local', 'all', or numbers like '25,27,29'), each ready to
    run (roots provisioned on first use).  Raises Unavailable or node.NoErlang."""
    try:
        return provision.otps(spec, say)
    except provision.ProvisionError as why:
        raise Unavailable(f"--otp {spec}: {why}") from why


class Workdir:
    """A fresh directory for one validate run on one release (inside a node.Workspace of
    that release): the runner's beams (beams/), the tracer's beam and library
    (tracer_dir/), the tracer's OTP applications (lib/, each with its ebin/ on the
    nodes' code path) and the job files."""

    def __init__(self, otp: node.Otp, ws: node.Workspace) -> None:
        self.otp = otp
        self._ws = ws
        self.host = ws.host
        self.beams = self.host / "beam"
        self.tracer_dir = self.host / "tracer"
        self.lib = self.host / "lib"
        self.beams.mkdir()
        self.tracer_dir.mkdir()
        self.lib.mkdir()
        self.code_path: list[Path] = [self.beams]

    def add_application(self, app: Path) -> Path:
        """Copies an OTP application directory into lib/ under its own name (code:priv_dir/1 and
        code:lib_dir/1 go by it), symbolic links resolved (rebar3 links priv/ to the project's, and include/ even when there is none: dangling links are left out);
        puts its ebin/ on the code path; returns the copy."""
        copy = self.lib / app.name
        # (not copytree's ignore_dangling_symlinks: it reads a relative link from the working directory)
        shutil.copytree(app, copy, symlinks=False, ignore=_dangling_links)
        self.code_path.append(copy / "ebin")
        return copy

    def node_path(self, path: Path) -> str:
        """A path in this directory as the node sees it."""
        return str(self._ws.inside / path.relative_to(self.host))


def _dangling_links(directory: str, names: list[str]) -> list[str]:
    """The names in `directory` that are symbolic links to nothing."""
    return [name for name in names if os.path.islink(os.path.join(directory, name))
            and not os.path.exists(os.path.join(directory, name))]


@contextmanager
def workdir(otp: node.Otp) -> Iterator[Workdir]:
    """A Workdir for one validate run on `otp`, removed afterwards."""
    with otp.workspace() as ws:
        yield Workdir(otp, ws)
