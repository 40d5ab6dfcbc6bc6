"""./tcs validate --sanitize: the memory check runs the direct-call inputs on a
node under valgrind memcheck.  The bundled tcs_defect_uninit_read (which
every other check passes: test_validate.py) is caught, with the callback, the
input and its function named; the good bundled tracers stay clean; then the
reading of valgrind's XML log (which errors are the tracer's, which input
ran into them)."""
from __future__ import annotations

import argparse
import xml.etree.ElementTree as ET
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path, PurePosixPath

import pytest

from conftest import TEST_RELEASES
import tcs_driver.validate as validate
from tcs_driver import corpus, junit, node, provision
from tcs_driver.validate import bundled, engine, inputs, report, sanitize
from tcs_driver.validate.checks import SANITIZE_CHECK, CheckResult

DEFECT = "tcs_defect_uninit_read"


def _memory(results: list[CheckResult]) -> CheckResult:
    assert [r.check for r in results] == ["shape", SANITIZE_CHECK], results
    assert results[0].status == "pass", results[0].summary
    return results[1]


def _sanitize_options() -> engine.Options:
    """The options of `./tcs validate --checks shape --sanitize --parallel 1` (shape, which the other checks
    need, and memory; the default time limits, scaled under memcheck: a loaded machine must not look like a
    hang), read by the command's own parser."""
    args = argparse.ArgumentParser()
    validate.add_arguments(args)
    options = validate._options(args.parse_args(["--module", DEFECT, "--checks", "shape", "--sanitize",
                                                 "--parallel", "1"]))
    assert SANITIZE_CHECK in options.checks
    return options


@pytest.fixture(scope="module")
def sanitized(layout, otp_node, tmp_path_factory) -> dict[str, list[CheckResult]]:
    """shape and memory for the defective tracer and both good ones, on the host's OTP, side by side (a node
    under memcheck runs one thread at a time)."""
    otp, _release, _include = otp_node
    if sanitize.unavailable(otp):
        pytest.skip(f"OTP {otp.name}: {sanitize.unavailable(otp)}")
    scratch = tmp_path_factory.mktemp("sanitize")
    tracers = [t for t in bundled.defective(layout) if t.module == DEFECT] + bundled.good(layout)
    options = _sanitize_options()

    def validate_one(tracer: bundled.Bundled) -> tuple[str, list[CheckResult]]:
        where = scratch / tracer.module
        where.mkdir()
        prepared = inputs.prepare(tracer.module, str(tracer.nif), str(tracer.erl), None, None, where)
        return tracer.module, engine.validate(prepared, [otp], lambda o: corpus.runner_beams(layout, o), options,
                                              lambda _: None)

    with ThreadPoolExecutor(max_workers=len(tracers)) as pool:
        return dict(pool.map(validate_one, tracers))


@pytest.fixture(scope="module")
def memory_verdicts(sanitized) -> dict[str, CheckResult]:
    return {name: _memory(results) for name, results in sanitized.items()}


@pytest.mark.live
def test_uninitialised_read_is_caught_with_callback_input_and_function(memory_verdicts) -> None:
    memory = memory_verdicts[DEFECT]
    assert memory.status == "fail", memory.summary
    # The callback and the input: trace/5 (its NIF table has no trace_X/5) with a tag too long
    # for its 16-byte buffer; the function: where the uninitialised byte decides.
    assert memory.summary.startswith("trace("), memory.summary
    tag = memory.summary.partition("(")[2].partition(",")[0]
    assert len(tag) >= 16, memory.summary
    assert "uninitialised" in memory.summary and "is_return_event" in memory.summary, memory.summary
    assert "tcs_defect_uninit_read.c:" in memory.summary, memory.summary
    assert memory.data["errors"] >= 1


@pytest.mark.live
@pytest.mark.parametrize("name", [module for module, _, _ in bundled.GOOD])
def test_good_tracer_is_clean_under_memcheck(name: str, memory_verdicts) -> None:
    memory = memory_verdicts[name]
    assert memory.status == "pass", "\n".join([memory.summary, *memory.evidence])
    assert memory.data["errors"] == 0
    assert "no error in the tracer's library" in memory.summary


#: What memory must say of each defective tracer: the function valgrind finds the error in, and its kind.
DEFECTS = {DEFECT: ("is_return_event", "uninitialised"),
           "tcs_defect_heap_overrun": ("name_sum", "Invalid read of size 1 (Address 0x")}
#: One defect per root, to keep the cost down (a node under memcheck takes minutes).
ROOT_DEFECTS = [(release, defect) for release, defect in zip(
    [r for r in TEST_RELEASES if int(r) in provision.SUITES], [DEFECT, "tcs_defect_heap_overrun"] * 2)]


@pytest.mark.live
@pytest.mark.parametrize("release, defect", ROOT_DEFECTS, ids=[f"{r}-{d}" for r, d in ROOT_DEFECTS])
def test_defect_is_caught_in_the_roots_too(release: str, defect: str, layout, otp_for, tmp_path: Path) -> None:
    """In an OTP 27/29 root (valgrind installed by provisioning, the JIT in one mapping); a read past the
    end of an enif_alloc block (the nodes run with +Mea min) as well as an uninitialised read."""
    otp = otp_for(release)
    sanitize.install(otp, lambda text: print(f"tcs: {text}", flush=True))
    tracer = next(t for t in bundled.defective(layout) if t.module == defect)
    prepared = inputs.prepare(tracer.module, str(tracer.nif), str(tracer.erl), None, None, tmp_path)
    memory = _memory(engine.validate(prepared, [otp], lambda o: corpus.runner_beams(layout, o),
                                     _sanitize_options(), lambda _: None))
    function, what = DEFECTS[defect]
    assert memory.status == "fail" and memory.otp == release, memory.summary
    assert memory.summary.startswith("trace(") and what in memory.summary, memory.summary
    assert f"the tracer's {function} ({defect}.c:" in memory.summary, memory.summary


@pytest.mark.live
def test_memory_verdict_is_a_check_in_json_and_junit(sanitized, tmp_path: Path) -> None:
    defect_results = sanitized[DEFECT]
    tracer = inputs.Tracer(DEFECT, tmp_path / "t.so", tmp_path / "t.beam", "t.erl", None)
    done = report.Report(tracer, [defect_results[0].otp], engine.Limits(), engine.Bench(), defect_results)
    assert done.verdict == "fail"
    checks = {c["check"]: c for c in report.to_json(done)["checks"]}
    assert checks[SANITIZE_CHECK]["status"] == "fail" and "is_return_event" in checks[SANITIZE_CHECK]["summary"]
    junit.write(tmp_path / "r.xml", "validate", report.junit_cases(done))
    [case] = [c for c in ET.parse(tmp_path / "r.xml").iter("testcase") if c.get("name") == SANITIZE_CHECK]
    failure = case.find("failure")
    assert failure is not None and "is_return_event" in (failure.text or "") + (failure.get("message") or "")


# --- reading valgrind's log ---------------------------------------------------------------

WORK = PurePosixPath("/tmp/tcs-node-x")


def _error(kind: str, *objs_fns: tuple[str, str]) -> str:
    frames = "".join(f"<frame><ip>0x1</ip><obj>{obj}</obj><fn>{fn}</fn></frame>" for obj, fn in objs_fns)
    return f"<error><unique>0x1</unique><tid>1</tid><kind>{kind}</kind><what>{kind} happened</what>" \
           f"<stack>{frames}</stack></error>"


def test_log_keeps_only_errors_with_a_frame_in_the_tracer_and_names_the_step_before() -> None:
    beam = "/usr/lib/erlang/erts-13.1.5/bin/beam.smp"
    tracer = f"{WORK}/tracer/t.so"
    text = "\n".join([
        "<?xml version=\"1.0\"?><valgrindoutput><tool>memcheck</tool>",
        _error("UninitCondition", (beam, "eq"), (beam, "erl_start")),            # OTP's own
        "TCS-STEP load - loading the tracer module and its NIF library",
        "TCS-STEP t7 trace/send trace(send, State, Tracee=pid, ok, #{})",
        _error("UninitCondition", (tracer, "look"), (tracer, "my_trace"), (beam, "call_nif")),
        "TCS-STEP t8 trace/send trace(send, State, Tracee=port, ok, #{})",
        _error("InvalidWrite", (beam, "enif_make_tuple"), (tracer, "my_trace"), (beam, "call_nif")),  # OTP's
        _error("InvalidRead", ("/usr/libexec/valgrind/vgpreload_memcheck-amd64-linux.so", "strlen"),
               (tracer, "my_enabled"), (beam, "call_nif")),
        "<suppcounts><pair><count>40</count><name>a</name></pair><pair><count>2</count><name>b</name></pair>"
        "</suppcounts></valgrindoutput>",
        # a second process (erl's shell script under valgrind) wrote its own document to the same log
        "<?xml version=\"1.0\"?><valgrindoutput>", _error("UninitValue", ("/bin/dash", "main")),
    ])
    log = sanitize.parse(text, WORK)
    assert log.otp_errors == 3 and log.suppressed == 42
    first, second = log.findings
    assert first.input() == "trace(send, State, Tracee=pid, ok, #{})" and first.where == "look (t.so)"
    assert first.stack == ("look (t.so)", "my_trace (t.so)")
    assert second.input() == "trace(send, State, Tracee=port, ok, #{})" and second.where == "my_enabled (t.so)"
    assert second.stack == ("strlen (vgpreload_memcheck-amd64-linux.so)", "my_enabled (t.so)")
    assert sanitize.describe(second) == (
        "trace(send, State, Tracee=port, ok, #{}): InvalidRead happened in the tracer's "
        "my_enabled (t.so) (innermost frame: strlen (vgpreload_memcheck-amd64-linux.so))")


def _uninit_with_origin(*origin: tuple[str, str]) -> str:
    frames = "".join(f"<frame><ip>0x1</ip><obj>{obj}</obj><fn>{fn}</fn></frame>" for obj, fn in origin)
    return _error("UninitCondition", (f"{WORK}/tracer/t.so", "keep_books"), ("/beam.smp", "call_nif")).replace(
        "</stack></error>", "</stack><auxwhat>Uninitialised value was created by a stack allocation</auxwhat>"
        f"<stack>{frames}</stack></error>")


@pytest.mark.parametrize("origin, blamed", [
    ((("/usr/lib/erlang/erts-13.1.5/bin/beam.smp", "send_to_tracer_nif_raw"),), False),
    (((f"{WORK}/tracer/t.so", "is_return_event"),), True),
], ids=["made-by-otp", "made-by-the-tracer"])
def test_an_uninitialised_value_counts_only_when_the_tracer_made_it(origin, blamed: bool) -> None:
    log = sanitize.parse("TCS-STEP t1 trace/send x\n" + _uninit_with_origin(*origin), WORK)
    assert (len(log.findings), log.otp_errors) == ((1, 0) if blamed else (0, 1))


def test_error_before_any_step_is_named_as_loading() -> None:
    log = sanitize.parse(_error("UninitCondition", (f"{WORK}/lib/app/priv/t.so", "init")), WORK)
    assert [f.input() for f in log.findings] == ["loading the tracer"]


def test_suppressions_cover_only_errors_starting_in_otp_code() -> None:
    text = sanitize.suppressions()
    assert text.count("{") == text.count("}") > 0
    assert "tracer" not in text and all(line.strip().startswith(("obj:*/beam.smp", "obj:/memfd:", "obj:???",
                                                                 "obj:*/vgpreload", "obj:*/libc.so"))
                                        for line in text.splitlines() if line.strip().startswith("obj:"))
    # every entry ends in OTP's code: what starts in the C library is left out only when OTP called it
    assert all(e.strip().splitlines()[-1].strip() in ("obj:*/beam.smp", "obj:/memfd:*", "obj:???")
               for e in text.split("}") if "Memcheck:" in e)


@pytest.mark.parametrize("release, smc, jit", [(25, "all", []), (27, "all-non-file", ["+JMsingle", "true"])],
                         ids=["otp25-dual-mapped-jit", "otp27-single-mapping"])
def test_command_follows_the_release(release: int, smc: str, jit: list[str]) -> None:
    wrap = sanitize.command(node.Otp(str(release), ["erl"]), 7, "/s.supp")
    assert wrap.before[0] == "valgrind" and f"--smc-check={smc}" in wrap.before and "--xml-fd=7" in wrap.before
    assert wrap.emulator_flags == ["+Mea", "min", *jit] and wrap.pass_fds == (7,) and wrap.outer == []
    assert f"--max-stackframe={sanitize.MAX_STACKFRAME}" in wrap.before


def test_command_in_a_root_mounts_proc_in_a_namespace_of_its_own(tmp_path: Path) -> None:
    wrap = sanitize.command(node.Otp("29", ["chroot", str(tmp_path), "erl"], tmp_path), 5, "/s.supp")
    assert wrap.outer == ["unshare", "--mount", "--pid", "--fork", f"--mount-proc={tmp_path / 'proc'}"]


def _invalid(what: str, aux: str) -> str:
    return _error("InvalidRead", (f"{WORK}/tracer/t.so", "keep_books"), ("/beam.smp", "call_nif")).replace(
        "InvalidRead happened", what).replace("</stack></error>", f"</stack><auxwhat>{aux}</auxwhat></error>")


@pytest.mark.parametrize("what, aux, blamed", [
    # tcs_good_threaded on OTP 25, once: entry 2 of its live array of 3 counters
    ("Invalid read of size 8", "Address 0x4f0 is 16 bytes inside a block of size 24 alloc'd", False),
    ("Invalid read of size 8", "Address 0x4f0 is 20 bytes inside a block of size 24 alloc'd", True),
    ("Invalid read of size 1", "Address 0x4f0 is 0 bytes after a block of size 24 alloc'd", True),
    ("Invalid read of size 8", "Address 0x4f0 is 16 bytes inside a block of size 24 free'd", True),
], ids=["inside-a-live-block", "straddling-its-end", "past-its-end", "inside-a-freed-block"])
def test_an_invalid_access_inside_a_live_block_is_not_blamed(what: str, aux: str, blamed: bool) -> None:
    log = sanitize.parse("TCS-STEP t1 trace/send x\n" + _invalid(what, aux), WORK)
    assert (len(log.findings), log.in_bounds) == ((1, 0) if blamed else (0, 1))
