"""The OTP releases validate runs on, and where their nodes find files.

This is the seam for the OTP matrix.  `available(spec)` turns `--otp` into
node.Otp objects (`Otp(name, erl)`, erl the command that starts erl), and a
`Workdir` is a directory the nodes of one release read and write.  Today only
the host's release runs.  A release started through a chroot
(`erl == ["chroot", ROOT, "erl"]`) needs its files inside ROOT: Workdir then
creates its directory under ROOT/tmp and gives paths as the node sees them,
so nothing else in validate changes when such releases are provided."""
from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from .. import node


class Unavailable(Exception):
    """An OTP release asked for cannot run here."""


def available(spec: str) -> list[node.Otp]:
    """The releases `--otp` asks for: 'local', the host's release number, or
    'all' (every release this machine has).  Raises Unavailable or
    node.NoErlang."""
    otp, release, _include = node.probe_local()
    wanted = [w.strip() for w in spec.split(",") if w.strip()]
    if wanted in (["local"], [str(release)], ["all"]):
        return [otp]
    raise Unavailable(f"--otp {spec}: only the host's OTP {release} ('local') can run in this "
                      "version; OTP 27 and 29 need the Debian roots of the OTP matrix "
                      "(not provisioned yet)")


def chroot_root(otp: node.Otp) -> Path | None:
    """The root directory of a release started through chroot, else None."""
    if len(otp.erl) >= 3 and Path(otp.erl[0]).name == "chroot":
        return Path(otp.erl[1])
    return None


class Workdir:
    """A fresh directory for one validate run on one release: the runner's
    beams (beams/), the tracer's beam and library (tracer_dir/) and the job
    files.  Removed on exit."""

    def __init__(self, otp: node.Otp) -> None:
        self.otp = otp
        self._root = chroot_root(otp)
        self.host = Path(tempfile.mkdtemp(prefix="tcs-validate-",
                                          dir=self._root / "tmp" if self._root else None))
        self.beams = self.host / "beam"
        self.tracer_dir = self.host / "tracer"
        self.beams.mkdir()
        self.tracer_dir.mkdir()

    def node_path(self, path: Path) -> str:
        """A path in this directory as the node sees it."""
        if self._root is None:
            return str(path)
        return "/" + str(path.relative_to(self._root))

    def __enter__(self) -> "Workdir":
        return self

    def __exit__(self, *exc: object) -> None:
        shutil.rmtree(self.host, ignore_errors=True)
