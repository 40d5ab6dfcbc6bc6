"""Every command README.md documents, run as written with small inputs (issue 23).

The commands are read from README.md's ```sh blocks (a line, its backslash continuations
joined, its comment dropped) and from its inline code that is a command line (`./tcs` or
`/usr/bin/python3` and at least two words more). COMMANDS says, for each, how it is run here:
the README's command with a small input put in (a `--cases` pattern, a count, minutes, a
bundled tracer for a file of yours), what it must exit with and a part of what it must print.
A command whose run would take minutes is `elsewhere`: the test that runs it (named, and
checked to exist and to name the command's distinctive option); one no test runs here says
why (`not_run`, a skip). A README command that is not in COMMANDS fails
test_every_readme_command_has_a_test.

Commands run in one scratch directory shared by the module (reports one command writes, the
next reads: `./tcs diff old.json new.json` after the two runs that write them), with `./tcs`,
`build/...`, `nif_impls/...` and `bench/...` made paths of this tree.
"""
from __future__ import annotations

import os
import re
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
HOST_ERL = "/usr/lib/erlang/bin/erl"
# A small case on which every release agrees (its id: cases live in sub-directories by area).
CASE = "ev_call_tail"


@dataclass(frozen=True)
class Spec:
    """How one README command is run here: `run` (the README's command with small inputs, one
    or more shell lines run in order), its exit code and texts its output must hold; or `same_as`
    (another README command that runs the same thing); or `elsewhere` (the test that runs it)."""
    run: tuple[str, ...] = ()
    rc: int = 0
    says: tuple[str, ...] = ()
    after: tuple[str, ...] = ()  # README commands whose files this one reads
    live: bool = False
    fuzzing: bool = False
    same_as: str = ""
    elsewhere: str = ""  # "driver/tests/FILE.py::test_name: text the test names"
    writes: tuple[str, ...] = field(default=())  # files it must leave in the scratch directory
    in_project: bool = False  # runs in a rebar3 project of a tracer (test_ci_job.rebar3_project)
    not_run: str = ""  # why no test runs it (shown as a skip)


RUN_SUMMARY = "cases 1, pass 1, fail 0"
COMMANDS: dict[str, Spec] = {
    "./tcs run": Spec(run=(f"./tcs run --cases {CASE}",), says=(f"OTP 25: {RUN_SUMMARY}",), live=True),
    "./tcs test": Spec(run=("./tcs test --collect-only -q",), says=("test_readme_commands.py",)),
    "./tcs run --otp all": Spec(run=(f"./tcs run --otp all --cases {CASE}",),
                                says=(f"OTP 25: {RUN_SUMMARY}", f"OTP 27: {RUN_SUMMARY}", f"OTP 29: {RUN_SUMMARY}"),
                                live=True),
    "./tcs run --otp 25,29 --json r.json --html r.html": Spec(
        run=(f"./tcs run --otp 25,29 --json r.json --html r.html --cases {CASE}",),
        says=(f"OTP 29: {RUN_SUMMARY}",), writes=("r.json", "r.html"), live=True),
    "./tcs run --otp 25,/opt/otp-26.2.5/bin/erl --junit r.xml": Spec(
        run=(f"./tcs run --otp 25,{HOST_ERL} --junit r.xml --cases {CASE}",),
        says=(f"OTP 25@{HOST_ERL}: {RUN_SUMMARY}",), writes=("r.xml",), live=True),
    "./tcs diff old.json new.json": Spec(run=("./tcs diff old.json new.json",), says=("newly failing",),
                                         after=("./tcs run --otp 25 --json old.json",
                                                "./tcs run --otp 29 --json new.json"), live=True),
    "./tcs run --cases 'fallback_*' --json results.json": Spec(
        run=("./tcs run --cases 'fallback_*' --json results.json",), says=("fail 0",),
        writes=("results.json",), live=True),
    # the model writes no informative line (PROTOCOLS.md), so a strict run shows the node's probes
    "./tcs run --strict": Spec(run=(f"./tcs run --strict --cases {CASE}",), rc=1,
                               says=("(strict; kinds", "+I enabled(trace_status"), live=True),
    "./tcs sim ev_call_tail --explain": Spec(run=("./tcs sim ev_call_tail --explain",),
                                             says=("EV-RETURN-FROM",)),
    "./tcs golden [--check]": Spec(run=("./tcs golden --check", "./tcs golden")),
    "./tcs rules": Spec(run=("./tcs rules",), says=("EV-RETURN-FROM",)),
    "./tcs coverage": Spec(not_run="a coverage build, ctest and every case three times through the instrumented "
                                   "model: about 3 minutes of wall time, half a minute of CPU (issue 23); not here"),
    "./tcs test -k fallback": Spec(run=("./tcs test -k fallback --collect-only -q",), says=("fallback",)),
    "./tcs test driver/tests/test_diff.py": Spec(
        run=("./tcs test driver/tests/test_diff.py --collect-only -q",), says=("test_diff.py::",)),
    './tcs test -m "not live and not fuzzing"': Spec(
        run=('./tcs test -m "not live and not fuzzing" --collect-only -q',), says=("test_reftree.py",)),
    "./tcs validate --module M --nif M.so --erl M.erl": Spec(
        run=("./tcs validate --module tcs_good_tracer --nif build/nif/tcs_good_tracer.so "
             "--erl nif_impls/good/tcs_good_tracer.erl --checks shape",),
        says=("shape", "verdict: PASS"), live=True),
    "./tcs fuzz --seed 7 --count 500 --otp all --out found/": Spec(
        run=("./tcs fuzz --seed 7 --count 2 --otp all --out found/",), says=("agree",), live=True),
    "./tcs fuzz-parser --minutes 30": Spec(run=("./tcs fuzz-parser --minutes 0.05",), says=("libFuzzer",),
                                           fuzzing=True),
    "./tcs run --cases-dir mine/": Spec(
        elsewhere="driver/tests/test_workshop.py::test_a_known_deviation_is_one_in_any_scenario: --cases-dir"),
    "./tcs try /tmp/idea.tcs": Spec(run=("./tcs try idea.tcs",), says=("OTP 25: pass",), live=True),
    "./tcs book site/": Spec(run=(f"./tcs book --otp local --cases {CASE} site/",), says=("wrote site",),
                             writes=("site/index.html",), live=True),
    "./tcs run --otp 25 --json old.json": Spec(run=(f"./tcs run --otp 25 --json old.json --cases {CASE}",),
                                               says=(RUN_SUMMARY,), writes=("old.json",), live=True),
    "./tcs run --otp 29 --json new.json": Spec(run=(f"./tcs run --otp 29 --json new.json --cases {CASE}",),
                                               says=(f"OTP 29: {RUN_SUMMARY}",), writes=("new.json",), live=True),
    "./tcs validate --module erl_msg_tracer --nif build/nif/erl_msg_tracer.so "
    "--erl nif_impls/erl_msg_tracer/erl_msg_tracer.erl --html report.html": Spec(
        run=("./tcs validate --module erl_msg_tracer --nif build/nif/erl_msg_tracer.so "
             "--erl nif_impls/erl_msg_tracer/erl_msg_tracer.erl --html report.html --checks shape,enabled_answers",),
        says=("OTP 25: enabled_answers   pass",), writes=("report.html",), live=True),
    "rebar3 compile && ./tcs validate --module my_tracer --app _build/default/lib --otp all": Spec(
        run=("rebar3 compile && ./tcs validate --module my_tracer --app _build/default/lib --otp all --checks shape",),
        says=("OTP 29: shape", "verdict: PASS"), in_project=True, live=True),
    "./tcs validate --module tcs_defect_uninit_read --nif build/nif/tcs_defect_uninit_read.so "
    "--erl nif_impls/defective/tcs_defect_uninit_read.erl --checks shape --sanitize --otp 27": Spec(
        elsewhere="driver/tests/test_validate_sanitize.py::test_defect_is_caught_in_the_roots_too: --sanitize"),
    "./tcs fuzz --seed 7 --count 500 --otp 25,27,29 --json f.json --html f.html --out found/": Spec(
        run=("./tcs fuzz --seed 7 --count 2 --otp 25,27,29 --json f.json --html f.html --out found/",),
        says=("agree",), writes=("f.json", "f.html"), live=True),
    "./tcs fuzz --seed 7 --count 5000 --model-only": Spec(
        run=("./tcs fuzz --seed 7 --count 20 --model-only",), says=("the model only", "refused by the model: 0",
                                                                      "rules of the corpus reached: ")),
    "./tcs fuzz --minutes 10 --otp all": Spec(run=("./tcs fuzz --minutes 0.05 --otp all",), says=("agree",),
                                              live=True, fuzzing=True),  # one round: 100 scenarios a release
    "./tcs run --otp 25 --cases 'fallback_*' --shard 1/2 --json shard1.json": Spec(
        run=("./tcs run --otp 25 --cases 'fallback_*' --shard 1/2 --json shard1.json",), says=("fail 0",),
        writes=("shard1.json",), live=True),
    "./tcs run --otp 25 --cases 'fallback_*' --shard 2/2 --json shard2.json": Spec(
        run=("./tcs run --otp 25 --cases 'fallback_*' --shard 2/2 --json shard2.json",), says=("fail 0",),
        writes=("shard2.json",), live=True),
    "./tcs merge merged.json shard1.json shard2.json --junit merged.xml --html merged.html": Spec(
        run=("./tcs merge merged.json shard1.json shard2.json --junit merged.xml --html merged.html",),
        writes=("merged.json", "merged.xml", "merged.html"), live=True,
        after=("./tcs run --otp 25 --cases 'fallback_*' --shard 1/2 --json shard1.json",
               "./tcs run --otp 25 --cases 'fallback_*' --shard 2/2 --json shard2.json")),
    # command lines in the prose
    "./tcs book [--otp …] [--results R.json …] OUT_DIR": Spec(
        run=("./tcs book --otp 25,29 --results old.json --results new.json results-book/",),
        says=("wrote results-book",), writes=("results-book/index.html",),
        after=("./tcs run --otp 25 --json old.json", "./tcs run --otp 29 --json new.json"), live=True),
    "./tcs fuzz-parser --minutes N": Spec(same_as="./tcs fuzz-parser --minutes 30"),
    "./tcs merge OUT.json IN.json...": Spec(
        same_as="./tcs merge merged.json shard1.json shard2.json --junit merged.xml --html merged.html"),
    "./tcs book --results": Spec(same_as="./tcs book [--otp …] [--results R.json …] OUT_DIR"),
    "./tcs fuzz ... --out DIR": Spec(
        elsewhere="driver/tests/test_ci_shards.py::test_a_campaign_goes_on_from_its_output_directory: --out"),
    "./tcs run --json": Spec(same_as="./tcs run --cases 'fallback_*' --json results.json"),
    "./tcs run --otp all --fresh-nodes": Spec(run=(f"./tcs run --otp all --fresh-nodes --cases {CASE}",),
                                              says=(f"OTP 29: {RUN_SUMMARY}",), live=True),
    "./tcs sim CASE --explain": Spec(same_as="./tcs sim ev_call_tail --explain"),
    "./tcs test -k validate": Spec(run=("./tcs test -k validate --collect-only -q",), says=("test_validate.py",)),
    "./tcs try FILE.tcs [--otp 25,27,29] [--html F] [--explain] [--strict]": Spec(
        run=("./tcs try idea.tcs --otp 25,27,29 --html try.html --explain --strict",), rc=1,
        says=("EV-RETURN-FROM: `{return_trace}`", "OTP 29: fail", "+I enabled(trace_status"), writes=("try.html",),
        live=True),  # strict: the node's probes beside the model's one (as ./tcs run --strict)
    "./tcs validate --sanitize --checks shape": Spec(
        same_as="./tcs validate --module tcs_defect_uninit_read --nif build/nif/tcs_defect_uninit_read.so "
                "--erl nif_impls/defective/tcs_defect_uninit_read.erl --checks shape --sanitize --otp 27"),
    "./tcs bench stream": Spec(run=("./tcs bench stream --steps 2000,4000 --runs 1 --shape pingpong",),
                               says=("shape pingpong", "peak MB at 4,000 steps / at 2,000")),
    "/usr/bin/python3 bench/bigterm.py --live 25,27,29": Spec(
        run=("/usr/bin/python3 bench/bigterm.py --runs 1",), says=("tcsref    list_duplicate", "load average after")),
    "/usr/bin/python3 bench/sanitize.py --otp 27 --samples 3 --memcheck": Spec(
        elsewhere="driver/tests/test_validate_sanitize.py::test_command_follows_the_release: --smc-check"),
    "/usr/bin/python3 bench/validate_matrix.py --reps 10": Spec(
        run=("/usr/bin/python3 bench/validate_matrix.py --reps 1 --otp 25 --only heap_overrun",),
        says=("tcs_defect_heap_overrun          sanitize  FAIL memory", "false alarms on the good tracers: 0 of 0"),
        live=True),
    "/usr/bin/python3 bench/sanitize.py --otp 25,27,29 --samples 3 --stress": Spec(
        run=("/usr/bin/python3 bench/sanitize.py --otp 25 --samples 1 --stress",), says=("stress (tsan)",), live=True),
    "/usr/bin/python3 bench/sanitize.py --otp 27 --samples 3 --memcheck --frames": Spec(
        elsewhere="driver/tests/test_validate_sanitize.py::test_command_follows_the_release: MAX_STACKFRAME"),
    "/usr/bin/python3 bench/sanitize.py --otp 25,27,29 --samples 5": Spec(
        run=("/usr/bin/python3 bench/sanitize.py --otp 25 --samples 1",), says=("memory (asan)",), live=True),
    "./tcs validate --module tcs_defect_heap_overrun --nif build/nif/tcs_defect_heap_overrun.so "
    "--erl nif_impls/defective/tcs_defect_heap_overrun.erl --checks shape "
    "--sanitize --src nif_impls/defective/tcs_defect_heap_overrun.c --otp all": Spec(
        run=("./tcs validate --module tcs_defect_heap_overrun --nif build/nif/tcs_defect_heap_overrun.so "
             "--erl nif_impls/defective/tcs_defect_heap_overrun.erl --checks shape "
             "--sanitize --src nif_impls/defective/tcs_defect_heap_overrun.c --otp all",), rc=1,
        says=("in the tracer's name_sum (tcs_defect_heap_overrun.c:", "memory (OTP 29): fail"), live=True),
}


# --- reading README.md ----------------------------------------------------------------------

_SH_BLOCK = re.compile(r"^ *```sh\n(.*?)^ *```", re.S | re.M)
_INLINE = re.compile(r"`((?:\./tcs|/usr/bin/python3) [^`]+)`")


def readme_commands(readme: str) -> list[str]:
    """The command lines of README.md, in order, each once (see the module's docstring)."""
    found: list[str] = []
    for block in _SH_BLOCK.findall(readme):
        for line in block.replace("\\\n", " ").splitlines():
            command = " ".join(_without_comment(line).split())
            if command:
                found.append(command)
    found += [span for span in _INLINE.findall(readme) if len(span.split()) >= 3]
    return list(dict.fromkeys(found))


def _without_comment(line: str) -> str:
    """line without its shell comment (a # outside quotes that starts a word)."""
    quote = ""
    for at, char in enumerate(line):
        if quote:
            quote = "" if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char == "#" and (at == 0 or line[at - 1].isspace()):
            return line[:at]
    return line


def test_readme_commands_are_read_as_written() -> None:
    text = ("```sh\n./tcs run --cases 'a#b' --x \\\n    --y   # why\n            # more why\n```\n"
            "Run `./tcs sim CASE --explain` or `./tcs run`.\n")
    assert readme_commands(text) == ["./tcs run --cases 'a#b' --x --y", "./tcs sim CASE --explain"]


def test_every_readme_command_has_a_test() -> None:
    documented = readme_commands((REPO / "README.md").read_text())
    assert [c for c in documented if c not in COMMANDS] == [], "README commands without a test: add them to COMMANDS"
    assert [c for c in COMMANDS if c not in documented] == [], "COMMANDS no longer in README.md: remove them"


@pytest.mark.parametrize("command", [c for c, s in COMMANDS.items() if s.same_as or s.elsewhere or s.not_run])
def test_command_covered_by_another_test(command: str) -> None:
    spec = COMMANDS[command]
    if spec.not_run:
        pytest.skip(f"{command}: {spec.not_run}")
    if spec.same_as:
        assert COMMANDS[spec.same_as].run or COMMANDS[spec.same_as].elsewhere, spec.same_as
        return
    where, names = spec.elsewhere.split(": ", 1)
    path, test = where.split("::")
    text = (REPO / path).read_text()
    assert f"def {test}(" in text and names in text, spec.elsewhere


# --- running them ---------------------------------------------------------------------------

@pytest.fixture(scope="module")
def scratch(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The directory the commands run in, with idea.tcs: the small case under another id."""
    work = tmp_path_factory.mktemp("readme")
    source = next((REPO / "cases").rglob(f"{CASE}.tcs"))
    (work / "idea.tcs").write_text(re.sub(rf"^case\s+{CASE}\b", "case     idea", source.read_text(), flags=re.M))
    return work


_DONE: dict[str, subprocess.CompletedProcess[str]] = {}


def _in_tree(line: str) -> str:
    """line with ./tcs and the tree's relative paths (build/, nif_impls/, bench/) made absolute."""
    line = re.sub(r"(?<!\S)\./", f"{REPO}/", line)
    return re.sub(r"(?<!\S)(?=(?:build|nif_impls|bench)/)", f"{REPO}/", line)


def run_readme(command: str, work: Path) -> list[subprocess.CompletedProcess[str]]:
    """Runs the lines of command's Spec in work (after the commands it reads the files of)."""
    spec = COMMANDS[command]
    for before in spec.after:
        if before not in _DONE:
            run_readme(before, work)
    if spec.in_project:
        work = work / "project"
        if not work.exists():
            from test_ci_job import rebar3_project  # that module skips itself without junitparser
            rebar3_project(work)
    done = []
    for line in spec.run:
        result = subprocess.run(_in_tree(line), shell=True, cwd=work, capture_output=True, text=True,
                                env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}, timeout=600)
        done.append(result)
        assert result.returncode == spec.rc, f"{line}: exit {result.returncode}\n{result.stdout}\n{result.stderr}"
    _DONE[command] = done[-1]
    return done


def _params() -> list:
    params = []
    for command, spec in COMMANDS.items():
        if not spec.run:
            continue
        marks = [pytest.mark.live] * spec.live + [pytest.mark.fuzzing] * spec.fuzzing
        params.append(pytest.param(command, marks=marks, id=re.sub(r"\W+", "_", spec.run[0][6:]).strip("_")[:60]))
    return params


@pytest.mark.parametrize("command", _params())
def test_readme_command_runs(command: str, scratch: Path) -> None:
    spec = COMMANDS[command]
    done = _DONE.get(command)
    output = done.stdout + done.stderr if done else "".join(r.stdout + r.stderr for r in run_readme(command, scratch))
    for text in spec.says:
        assert text in output, f"{command}: no {text!r} in\n{output}"
    for name in spec.writes:
        assert (scratch / name).is_file(), f"{command}: wrote no {name}"
