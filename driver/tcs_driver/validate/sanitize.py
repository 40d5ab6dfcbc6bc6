"""validate --sanitize: the memory check runs every input of the direct-call
checks on a node under valgrind memcheck and reports the errors valgrind
finds in the tracer's own library: reads of uninitialised memory (a branch,
an address or a system call that depends on them) and reads or writes
outside a heap block.

Why valgrind on the real node: it needs no sources, and it sees reads of
uninitialised memory, which an ASan build of the tracer (asan.py, used when
the sources are given with --src) cannot see and MemorySanitizer could only
with the whole emulator instrumented.  What it costs, and what it cannot see:
  - The emulator's JIT writes code that memcheck must re-translate: OTP 26 and
    later run with `+JMsingle true` (one mapping of the JIT's code) and
    `--smc-check=all-non-file`; OTP 25 has no +JMsingle, and its code is
    written through a second mapping of a memfd, so it needs
    `--smc-check=all`, which checks every block of code before it runs.
  - `+Mea min` makes enif_alloc a plain malloc, whose blocks memcheck fences;
    an overrun of a stack array or of a block inside one allocation is not seen.
  - OTP itself, run under memcheck, reports thousands of errors (its own
    allocators, its JIT's code, and enif_make_* filling a process heap that
    memcheck takes for unaddressable): an error counts only when it happens in
    the tracer's own code (a library loaded from the job's directory), or in a
    C library function (memcpy, strlen, ...) the tracer called; the
    suppressions leave out, early, every error that starts in OTP's code.  So
    a bad argument the tracer hands to an enif_* function is not seen where
    OTP's code trips over it.
  - valgrind reports an error once per place: the input named is the first
    one that ran into it.
The input: the node appends every STEP line to valgrind's XML log (O_APPEND),
so each error lies after the input that caused it (tcs_validate_lib:step/3)."""
from __future__ import annotations

import re
import shutil
import xml.etree.ElementTree as ET
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from .. import node, provision
from . import jobs

#: Programs the emulator starts that are not the tracer's business.
_SKIP_CHILDREN = ("*/erl_child_setup", "*/inet_gethost", "*/epmd", "*/heart")
#: valgrind's error kinds (Memcheck:KIND in a suppression) an OTP frame may start.
_KINDS = ("Cond", "Value1", "Value2", "Value4", "Value8", "Value16", "Value32",
          "Addr1", "Addr2", "Addr4", "Addr8", "Addr16", "Addr32", "Free", "Overlap", "Jump")
#: OTP's own code: the emulator, and its JIT's code: in a memfd mapping (OTP 25), or in anonymous
#: memory (+JMsingle true), where valgrind knows no object ("???").
_OTP_CODE = ("obj:*/beam.smp", "obj:/memfd:*", "obj:???")
#: The C library, and valgrind's replacements of its memory and string functions.
_C_LIBRARY = ("obj:*/libc.so*", "obj:*/vgpreload_memcheck*")
#: The largest move of the stack pointer memcheck takes for a stack frame; a larger one is a switch of
#: stacks, which changes no memory's state.  The JIT of OTP 26 and later runs Erlang code on each
#: process's own stack, in its heap block, and switches back to the scheduler's stack for C code; with
#: valgrind's default of 2 MB memcheck took the jumps between two blocks less than 2 MB apart for
#: frames, and the memory between them for freed stack: tens of millions of invalid accesses in OTP's
#: code (27.3.4.1: 91 million suppressed in one memory check, 113 million in a bare boot and halt),
#: and reads the tracer makes inside live heap blocks called invalid.  A tracer's frame of more than
#: 64 KB is not checked for uninitialised reads.
MAX_STACKFRAME = 65536
#: How much longer a callback call, and a whole node, may take under memcheck than on a plain node:
#: Erlang code runs from the JIT's memory, which memcheck checks for changes before every block
#: (--smc-check), and a loaded machine slows that further (a call of trace/5 on OTP 25 took over 40 s
#: on a 2-core machine under a load of 30).  Hangs are judged by the other checks.
SLOWDOWN = 100


@dataclass(frozen=True)
class Finding:
    """One error valgrind found in the tracer's library."""
    kind: str                 # valgrind's kind: UninitCondition, InvalidRead, ...
    what: str                 # valgrind's words, with the address's story for an invalid access
    where: str                # the tracer's innermost frame: function (file:line)
    stack: tuple[str, ...]    # the frames from the innermost to the tracer's outermost
    step: str | None          # the STEP line it came after: "INDEX KEY TEXT"

    def input(self) -> str:
        """The input that ran into it, as the user reads it."""
        return self.step.split(" ", 2)[2] if self.step and self.step.count(" ") >= 2 else "loading the tracer"


@dataclass(frozen=True)
class Log:
    """What valgrind's log said: the tracer's errors, and how many it left out as OTP's own."""
    findings: tuple[Finding, ...]
    otp_errors: int           # distinct errors not in the tracer's code
    suppressed: int           # occurrences of errors the suppressions left out (starting in OTP's code)
    in_bounds: int = 0        # "invalid" accesses wholly inside a live heap block (in_bounds_of_live_block)


def suppressions() -> str:
    """The suppression file: every error that starts in OTP's code (the emulator, the JIT's code),
    or in the C library (or valgrind's replacement of one of its functions) called by OTP's code."""
    entries = []
    for kind in _KINDS:
        for i, otp_code in enumerate(_OTP_CODE):
            entries.append(f"{{\n   otp-{kind}-{i}\n   Memcheck:{kind}\n   {otp_code}\n}}\n")
            for j, library in enumerate(_C_LIBRARY):
                entries.append(f"{{\n   otp-libc-{kind}-{i}{j}\n   Memcheck:{kind}\n   {library}\n"
                               f"   {otp_code}\n}}\n")
    return "".join(entries)


def install(otp: node.Otp, say: Callable[[str], None]) -> None:
    """Installs valgrind into the root `otp` runs in, once (provisioning's upgrade step); raises
    provision.ProvisionError.  On the host it is the user's: unavailable() says how to get it."""
    provision.add_packages(otp, ("valgrind",), "validate --sanitize runs its nodes under valgrind memcheck", say)


def unavailable(otp: node.Otp) -> str | None:
    """Why nodes of this release cannot run under memcheck here, in user words, or None."""
    where = otp.root if otp.root is not None else Path("/")
    if (where / "usr" / "bin" / "valgrind").exists() or (otp.root is None and shutil.which("valgrind")):
        return None
    if otp.root is not None:
        return f"valgrind is not installed in the OTP {otp.name} root {otp.root}"
    return "valgrind is not installed (Debian: apt-get install valgrind)"


def command(otp: node.Otp, log_fd: int, suppression_file: str) -> jobs.Wrap:
    """How to start a node of `otp` under memcheck, its XML log written to log_fd (in a root, with
    /proc: jobs.proc_namespace)."""
    jit = ["+JMsingle", "true"] if otp.release >= 26 else []
    smc = "all-non-file" if otp.release >= 26 else "all"
    valgrind = ["valgrind", "--tool=memcheck", "--trace-children=yes",
                f"--trace-children-skip={','.join(_SKIP_CHILDREN)}", "--child-silent-after-fork=yes",
                "--error-limit=no", f"--max-stackframe={MAX_STACKFRAME}", "--num-callers=16",
                f"--smc-check={smc}", "--track-origins=yes",
                f"--suppressions={suppression_file}", "--xml=yes", f"--xml-fd={log_fd}"]
    return jobs.Wrap(jobs.proc_namespace(otp), valgrind, ["+Mea", "min", *jit], (log_fd,))


_ITEM = re.compile(r"^TCS-STEP ([^\n]*)$|<error>.*?</error>|<suppcounts>.*?</suppcounts>", re.M | re.S)


def parse(text: str, tracer_dir: PurePosixPath) -> Log:
    """The errors in a memcheck XML log (several processes may have written to it, the node its
    STEP lines) whose stack has a frame in a library under tracer_dir (as the node sees it)."""
    findings: list[Finding] = []
    otp_errors = suppressed = in_bounds = 0
    step: str | None = None
    for match in _ITEM.finditer(text):
        if match.group(1) is not None:
            step = match.group(1).strip()
            continue
        element = ET.fromstring(match.group(0))
        if element.tag == "suppcounts":
            suppressed += sum(int(c.findtext("count") or 0) for c in element.iter("pair"))
            continue
        if in_bounds_of_live_block(element):
            in_bounds += 1
            continue
        finding = _finding(element, tracer_dir, step)
        if finding is None:
            otp_errors += 1
        else:
            findings.append(finding)
    return Log(tuple(findings), otp_errors, suppressed, in_bounds)


_INSIDE = re.compile(r"is (\d+) bytes inside a block of size (\d+) alloc'd")
_SIZE = re.compile(r"(?:read|write) of size (\d+)")


def in_bounds_of_live_block(error: ET.Element) -> bool:
    """Whether memcheck called an access invalid that lies wholly inside a heap block still allocated: no
    access outside a block can be that, so the block's addressability was lost, not the program's bounds.
    Seen on OTP 25 nodes (the JIT in two mappings, no +JMsingle): the emulator's own mutex reads inside a
    live 216-byte block from erts_load_nif, and once a correct tracer's read of entry 2 of its live 24-byte
    array of 3 (tcs_good_threaded), were reported as "Invalid read"."""
    kind = error.findtext("kind") or ""
    inside = _INSIDE.search(error.findtext("auxwhat") or "")
    size = _SIZE.search(error.findtext("what") or "")
    if not kind.startswith("Invalid") or inside is None or size is None:
        return False
    offset, block = int(inside.group(1)), int(inside.group(2))
    return offset + int(size.group(1)) <= block


def _finding(error: ET.Element, tracer_dir: PurePosixPath, step: str | None) -> Finding | None:
    """The error as a Finding when it happened in the tracer's code: its innermost frame is the
    tracer's, or a C library function (or valgrind's replacement of one) the tracer called; and,
    for a use of an uninitialised value, the value was made uninitialised in the tracer's code
    (--track-origins: its origin stack, the second, has a frame of the tracer).  A value the
    runtime hands over with bits memcheck takes as undefined (the JIT's registers, a flatmap the
    runtime builds on the C stack) is OTP's: on a correct tracer that reads its scheduler_id and
    its tag, memcheck blamed such values on the tracer."""
    stacks = error.findall("stack")
    if not stacks:
        return None
    origin = stacks[1] if len(stacks) > 1 and (error.findtext("kind") or "").startswith("Uninit") else None
    if origin is not None and not any(_in(frame, tracer_dir) for frame in origin.iter("frame")):
        return None
    stack = list(stacks[0].iter("frame"))
    inner = 0
    while inner < len(stack) - 1 and _is_libc(stack[inner]):
        inner += 1
    if not stack or not _in(stack[inner], tracer_dir):
        return None
    what = error.findtext("what") or error.findtext("xwhat/text") or error.findtext("kind") or "?"
    aux = error.findtext("auxwhat")
    ours = [i for i, frame in enumerate(stack) if _in(frame, tracer_dir)]
    return Finding(error.findtext("kind") or "?", f"{what} ({aux})" if aux else what, _frame(stack[ours[0]]),
                   tuple(_frame(f) for f in stack[:ours[-1] + 1]), step)


def _is_libc(frame: ET.Element) -> bool:
    name = PurePosixPath(frame.findtext("obj") or "").name
    return name.startswith(("vgpreload_", "libc.so", "libc-"))


def _in(frame: ET.Element, tracer_dir: PurePosixPath) -> bool:
    obj = frame.findtext("obj") or ""
    return obj.startswith(str(tracer_dir).rstrip("/") + "/")


def _frame(frame: ET.Element) -> str:
    fn = frame.findtext("fn") or "???"
    file, line = frame.findtext("file"), frame.findtext("line")
    if file:
        return f"{fn} ({file}:{line})"
    return f"{fn} ({PurePosixPath(frame.findtext('obj') or '?').name})"


def describe(finding: Finding) -> str:
    """One finding in a verdict line: the input, what valgrind saw, where in the tracer."""
    inner = f" (innermost frame: {finding.stack[0]})" if finding.stack[0] != finding.where else ""
    return f"{finding.input()}: {finding.what} in the tracer's {finding.where}{inner}"
