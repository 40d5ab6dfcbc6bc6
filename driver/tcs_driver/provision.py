"""OTP releases the host cannot install, as minimal Debian roots (BRIEF, "Facts about the machines").

OTP 27 is Debian trixie's `erlang-base`, OTP 29 Debian sid's; both need a
newer libc than the host's, so each lives in its own root made by
`debootstrap --variant=minbase --include=erlang-base,erlang-nox SUITE DIR MIRROR`
(erlang-nox: the same OTP applications as the host's, runtime_tools, tools, ...;
a root made before without them is upgraded in place with apt-get) and
nodes run with `chroot ROOT erl ...`. Roots are cached outside the source tree
($TCS_OTP_CACHE, default /var/cache/tcs), made once and reused. A root is only
ever built in a scratch directory beside its final place and renamed there once
its node has answered with the right release, so a root at the final path is
never half-made; it is still asked for its release every time it is used."""
from __future__ import annotations

import fcntl
import os
import re
import shutil
import subprocess
import tempfile
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Final

from . import node

#: The OTP releases that run in a Debian root, and the Debian suite that ships each.
SUITES: Final[dict[int, str]] = {27: "trixie", 29: "sid"}
#: The Debian packages of a root: the runtime, and the OTP applications the host's erlang-nox has.
PACKAGES: Final[tuple[str, ...]] = ("erlang-base", "erlang-nox")
#: Where apt keeps the host's package sources; the mirror is read from there.
SOURCES: Path = Path("/etc/apt/sources.list.d/debian.sources")
#: A root takes about 300 MB; this leaves room for debootstrap's downloads.
SPACE_NEEDED: int = 1 << 30
PARTIAL_PREFIX: Final[str] = ".partial-"


class ProvisionError(Exception):
    """A root could not be made or does not work; the message says why and what to do."""


def cache_dir() -> Path:
    """Where roots are kept: $TCS_OTP_CACHE, default /var/cache/tcs."""
    return Path(os.environ.get("TCS_OTP_CACHE", "/var/cache/tcs"))


def root_path(release: int) -> Path:
    """The cached root of one release (it may not exist yet)."""
    return cache_dir() / f"otp-{SUITES[release]}"


def mirror(sources: Path | None = None) -> str:
    """The first URI of the host's deb822 sources (default SOURCES) that serves a Debian release itself
    (not only -security, -updates or -backports)."""
    sources = sources or SOURCES
    try:
        text = sources.read_text()
    except OSError as why:
        raise ProvisionError(f"cannot read the host's package sources {sources}: {why.strerror}") from why
    for stanza in re.split(r"\n\s*\n", text):
        fields = {}
        for line in stanza.splitlines():
            key, colon, value = line.partition(":")
            if colon and not line.startswith((" ", "\t", "#")):
                fields[key.strip().lower()] = value.split()
        suites = fields.get("suites", [])
        if "deb" in fields.get("types", []) and fields.get("uris") and suites \
                and any(not s.endswith(("-security", "-updates", "-backports")) for s in suites):
            return fields["uris"][0].rstrip("/")
    raise ProvisionError(f"{sources} names no Debian archive (a 'Types: deb' stanza with 'URIs:' and a "
                         "release in 'Suites:'): cannot tell where to fetch OTP's Debian packages from")


def ask_release(root: Path) -> str:
    """The OTP release a node in `root` reports, or raises ProvisionError with what went wrong."""
    probe = 'io:format("~s", [erlang:system_info(otp_release)]), halt().'
    try:
        done = subprocess.run(["chroot", str(root), "erl", "-noshell", "-noinput", "-eval", probe],
                              capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)
    except (OSError, subprocess.TimeoutExpired) as why:
        raise ProvisionError(f"cannot start erl in {root}: {why}") from why
    if done.returncode != 0 or not done.stdout.isdigit():
        raise ProvisionError(f"erl does not work in {root}: {node.tail(done.stdout + done.stderr, 5)}")
    return done.stdout


#: What --otp takes, for the --help of every command that runs nodes.
OTP_HELP: Final[str] = (
    "OTP releases, comma-separated: 25 (the host's), 27, 29 (Debian roots, provisioned on first use), "
    "'all' for those three, 'local' (default) for the host's erl, or the path of an OTP installation "
    "(its directory or its bin/erl, release 25 or later), e.g. 25,/opt/otp-26.2.5/bin/erl")
#: The oldest release the runner works on.
OLDEST: Final[int] = 25


def otps(spec: str, say: Callable[[str], None]) -> list[node.Otp]:
    """The releases of an --otp value ('local', 'all', release numbers like '25,27,29', paths of OTP
    installations, mixed freely), each ready to run.

    The host's own release runs on the host; 27 and 29 run in their roots,
    provisioned on first use; a path runs that installation's erl on the
    host. Raises NoErlang or ProvisionError."""
    host, host_release, _ = node.probe_local()
    if spec.strip() == "local":
        return [host]
    if spec.strip() == "all":
        return [host if release == host_release else otp(release, say)
                for release in sorted({host_release, *SUITES})]
    chosen: list[node.Otp] = []
    for word in (w.strip() for w in spec.split(",")):
        if word.isdigit():
            chosen.append(host if int(word) == host_release else otp(int(word), say))
        elif "/" in word or Path(word).exists():
            chosen.append(installation(word))
        else:
            raise ProvisionError(f"--otp {spec}: {word!r} is neither a release number nor the path of an OTP "
                                 "installation (use e.g. 25,27,29, 'all', 'local' or /opt/otp-26/bin/erl)")
    return list({o.name: o for o in chosen}.values())


def installation(path: str) -> node.Otp:
    """An OTP installation given by path (its directory, or its bin/erl), checked: its erl answers with a
    release of OLDEST or later. Its nodes run on the host; its name is RELEASE@ERL."""
    given = Path(path)
    erl = given / "bin" / "erl" if given.is_dir() else given
    if not erl.is_file() or not os.access(erl, os.X_OK):
        raise ProvisionError(f"--otp {path}: no erl there (give an OTP installation directory, the one with "
                             "bin/erl, or the erl executable itself)")
    erl = erl.resolve() if erl.is_symlink() else erl.absolute()
    probe = 'io:format("~s ~s", [erlang:system_info(otp_release), code:root_dir()]), halt().'
    try:
        done = subprocess.run([str(erl), "-noshell", "-noinput", "-eval", probe], capture_output=True,
                              text=True, timeout=60, stdin=subprocess.DEVNULL)
    except (OSError, subprocess.TimeoutExpired) as why:
        raise ProvisionError(f"--otp {path}: cannot start {erl}: {why}") from why
    release, _, root = done.stdout.partition(" ")
    if done.returncode != 0 or not release.isdigit():
        raise ProvisionError(f"--otp {path}: {erl} does not work: {node.tail(done.stdout + done.stderr, 5)}")
    if int(release) < OLDEST:
        raise ProvisionError(f"--otp {path}: {erl} is OTP {release}; the suite needs OTP {OLDEST} or later")
    if not str(erl).startswith(root.rstrip("/") + "/"):
        raise ProvisionError(f"--otp {path}: {erl} runs the OTP installed in {root}, not one at {erl.parent.parent} "
                             "(a copied or moved installation needs its bin/erl's ROOTDIR set to where it is "
                             "now, as its Install script does)")
    return node.Otp(f"{release}@{erl}", [str(erl)])


def otp(release: int, say: Callable[[str], None]) -> node.Otp:
    """How to start nodes of `release` (27 or 29): provisions its root on first use, checks it answers."""
    if release not in SUITES:
        raise ProvisionError(f"OTP {release} is not available: the host runs its own release, and "
                             f"{', '.join(f'OTP {r} (Debian {s})' for r, s in SUITES.items())} run in Debian roots")
    if os.geteuid() != 0:
        raise ProvisionError(f"OTP {release} runs in a Debian root with chroot, which needs root: "
                             "run ./tcs as root, or use --otp local")
    root = root_path(release)
    with _locked(root):
        if root.is_dir():
            try:
                _check(root, release)
            except ProvisionError as why:
                say(f"{root} is not a working OTP {release} root ({why}); making it again")
                _remove(root)
            else:
                if missing := missing_packages(root):
                    _upgrade(root, release, missing, say)
                return node.Otp(str(release), ["chroot", str(root), "erl"], root)
        _build(root, release, say)
    return node.Otp(str(release), ["chroot", str(root), "erl"], root)


def _check(root: Path, release: int) -> None:
    """Raises ProvisionError unless a node in `root` reports `release`."""
    reported = ask_release(root)
    if reported != str(release):
        raise ProvisionError(f"its node reports OTP {reported}, not {release} (Debian {SUITES[release]} "
                             f"moved on? then update SUITES in {Path(__file__).name})")


def missing_packages(root: Path, packages: tuple[str, ...] = PACKAGES) -> list[str]:
    """The packages (default: PACKAGES) a root lacks (dpkg keeps a file list of every installed package)."""
    return [p for p in packages if not (root / "var" / "lib" / "dpkg" / "info" / f"{p}.list").exists()]


def add_packages(otp: node.Otp, packages: tuple[str, ...], why: str, say: Callable[[str], None]) -> None:
    """Installs Debian packages a command needs beside OTP (valgrind for validate --sanitize: `why`
    says so) into the root `otp` runs in, once, the way a root is upgraded; nothing for the host's
    or a path's OTP."""
    if otp.root is None:
        return
    with _locked(otp.root):
        if missing := missing_packages(otp.root, packages):
            _upgrade(otp.root, otp.release, missing, say, why)


def _upgrade(root: Path, release: int, packages: list[str], say: Callable[[str], None],
             why: str = "the OTP applications the host's erlang-nox has") -> None:
    """Installs the missing packages into a root made before they were part of it (apt-get in the
    root, from the suite's archive it was made from); raises ProvisionError with the log's tail."""
    log = root.parent / f"{root.name}.upgrade.log"
    say(f"upgrading the OTP {release} root {root}: installing {', '.join(packages)} ({why}; once, "
        f"about 100 MB; log: {log})")
    # Like debootstrap, which made the root, no Valid-Until check: sid's Release file is short-lived
    # and a machine whose clock runs ahead would find it expired.
    script = ("dpkg --configure -a && apt-get -o Acquire::Check-Valid-Until=false update -qq && "
              f"apt-get install -y -qq --no-install-recommends {' '.join(packages)}")
    with open(log, "w") as out:
        done = subprocess.run(["chroot", str(root), "sh", "-c", script], stdout=out, stderr=subprocess.STDOUT,
                              stdin=subprocess.DEVNULL, env=dict(os.environ, DEBIAN_FRONTEND="noninteractive"))
    if done.returncode != 0 or missing_packages(root, tuple(packages)):
        raise ProvisionError(f"upgrading {root} failed (exit {done.returncode}); the end of {log}:\n"
                             + node.tail(log.read_text(errors="replace"), 12))
    _check(root, release)
    say(f"OTP {release} root {root} upgraded")


@contextmanager
def _locked(root: Path) -> Iterator[None]:
    """Holds a lock file beside `root` so that two runs never build or replace it at once."""
    try:
        root.parent.mkdir(parents=True, exist_ok=True)
        lock = open(root.parent / f"{root.name}.lock", "w")
    except OSError as why:
        raise ProvisionError(f"cannot use the cache directory {root.parent}: {why.strerror} "
                             "(set TCS_OTP_CACHE to a writable directory)") from why
    with lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield


def _build(root: Path, release: int, say: Callable[[str], None]) -> None:
    """Makes `root` with debootstrap in a scratch directory, checks it, then renames it into place."""
    suite = SUITES[release]
    for stale in root.parent.glob(f"{PARTIAL_PREFIX}{root.name}-*"):
        say(f"removing {stale}, left by an interrupted provisioning")
        _remove(stale)
    if shutil.which("debootstrap") is None:
        raise ProvisionError("debootstrap is missing: apt-get install debootstrap")
    free = shutil.disk_usage(root.parent).free
    if free < SPACE_NEEDED:
        raise ProvisionError(f"not enough space in {root.parent}: {free >> 20} MiB free, a root needs "
                             f"about {SPACE_NEEDED >> 20} MiB (set TCS_OTP_CACHE to a roomier directory)")
    archive = mirror()
    _check_reachable(archive, suite)
    scratch = Path(tempfile.mkdtemp(prefix=f"{PARTIAL_PREFIX}{root.name}-", dir=root.parent))
    log = root.parent / f"{root.name}.debootstrap.log"
    say(f"provisioning OTP {release}: Debian {suite} root with {', '.join(PACKAGES)} in {root} "
        f"(debootstrap from {archive}, about 450 MB, once; log: {log})")
    try:
        _debootstrap(suite, scratch, archive, log, say)
        _check(scratch, release)
        scratch.rename(root)
    except BaseException:
        _remove(scratch)
        raise
    say(f"OTP {release} is ready in {root}")


def _check_reachable(archive: str, suite: str) -> None:
    """Raises ProvisionError when the mirror's Release file for `suite` cannot be fetched."""
    url = f"{archive}/dists/{suite}/Release"
    try:
        with urllib.request.urlopen(urllib.request.Request(url, method="HEAD"), timeout=30):
            pass
    except (urllib.error.URLError, OSError) as why:
        reason = getattr(why, "reason", why)
        raise ProvisionError(f"cannot reach the Debian mirror ({url}: {reason}); provisioning needs "
                             f"network access to the mirror configured in {SOURCES}") from why


def _debootstrap(suite: str, target: Path, archive: str, log: Path, say: Callable[[str], None]) -> None:
    """Runs debootstrap, its output into `log`, reporting each new stage; raises with the log's tail."""
    cmd = ["debootstrap", "--variant=minbase", f"--include={','.join(PACKAGES)}", suite, str(target), archive]
    stages: set[str] = set()
    with open(log, "w") as out:
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                stdin=subprocess.DEVNULL)
        assert proc.stdout is not None
        for line in proc.stdout:
            out.write(line)
            # "I: Retrieving libc6 2.41-..." is stage "Retrieving": one message per stage, not per package.
            words = line.split()
            if len(words) >= 2 and words[0] == "I:" and words[1] not in stages:
                stages.add(words[1])
                say(f"debootstrap: {line.strip()[3:]}")
        code = proc.wait()
    if code != 0:
        raise ProvisionError(f"debootstrap {suite} failed (exit {code}); the end of {log}:\n"
                             + node.tail(log.read_text(errors="replace"), 12))


def _mounts_under(path: Path) -> list[str]:
    """Mount points at or below `path` (debootstrap mounts /proc and /sys inside its target)."""
    prefix = str(path.resolve())
    with open("/proc/mounts") as mounts:
        points = [line.split()[1].replace("\\040", " ") for line in mounts]
    return sorted((p for p in points if p == prefix or p.startswith(prefix + "/")), reverse=True)


def _remove(path: Path) -> None:
    """Deletes a root or a scratch root, after unmounting whatever is mounted inside it."""
    for point in _mounts_under(path):
        subprocess.run(["umount", "--lazy", point], capture_output=True)
    if left := _mounts_under(path):
        raise ProvisionError(f"cannot remove {path}: still mounted inside it: {', '.join(left)}")
    shutil.rmtree(path, ignore_errors=True)
    if path.exists():
        raise ProvisionError(f"cannot remove {path}: remove it by hand")
