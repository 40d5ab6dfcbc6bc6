"""Tests of the allowance windows of a golden stream (PROTOCOLS.md section 6, "Allowance windows"):
what the runtime may add (runtime-started collections, scheduling while blocked or around a
yielding call) is admitted only whole, of the right process, within its window, up to its limit."""

from __future__ import annotations

import pytest

from tcs_driver.diff import ALL_KINDS, compare
from tcs_driver.layout import REPO
from tcs_driver.stream import StreamError, parse_live_stream, parse_stream

_MINOR = ("N enabled(gc_minor_start, <tracer>, <a>) -> trace ; N trace(gc_minor_start, <tracer>, <a>, _GcInfo, #{})"
          " ; N enabled(gc_minor_end, <tracer>, <a>) -> trace ; N trace(gc_minor_end, <tracer>, <a>, _GcInfo, #{})")

GC_GOLDEN = f"""\
N ctl erlang:trace(<a>,true,[send,garbage_collection]) -> 1
A open w1 GC-RUNTIME 0..*: {_MINOR}
N enabled(send, <tracer>, <a>) -> trace
N trace(send, <tracer>, <a>, hi, #{{extra=><b>}})
A close w1
N enabled(send, <tracer>, <a>) -> trace
N trace(send, <tracer>, <a>, bye, #{{extra=><b>}})
"""

PAIR = ("enabled(gc_minor_start, <tracer>, <a>) -> trace\ntrace(gc_minor_start, <tracer>, <a>, "
        "[{heap_size,1},{heap_block_size,1},{old_heap_size,1},{old_heap_block_size,1},{stack_size,1},"
        "{recent_size,1},{mbuf_size,1},{bin_vheap_size,1},{bin_vheap_block_size,1},{bin_old_vheap_size,1},"
        "{bin_old_vheap_block_size,1},{wordsize,8}], #{})\n")
PAIR += PAIR.replace("gc_minor_start", "gc_minor_end")
CTL = "ctl erlang:trace(<a>,true,[send,garbage_collection]) -> 1\n"
HI = "enabled(send, <tracer>, <a>) -> trace\ntrace(send, <tracer>, <a>, hi, #{extra=><b>})\n"
BYE = HI.replace("hi", "bye")
START, END = PAIR.split("\n")[:2], PAIR.split("\n")[2:4]


def agree(golden: str, live: str) -> bool:
    """Return whether live agrees with golden in the default comparison."""
    return compare(parse_stream(golden, "golden"), parse_live_stream(live, "live")).agree


@pytest.mark.parametrize(
    ("live", "ok"),
    [
        pytest.param(CTL + HI + BYE, True, id="no-collection"),
        pytest.param(CTL + PAIR + HI + BYE, True, id="one-before"),
        pytest.param(CTL + HI + PAIR + PAIR + BYE, True, id="two-before-close"),
        pytest.param(CTL + HI + BYE + PAIR, False, id="after-the-window"),
        pytest.param(CTL + "\n".join(START) + "\n" + HI + "\n".join(END) + "\n" + BYE, False,
                     id="pair-split-by-a-case-line"),
        pytest.param(CTL + "\n".join(START) + "\n" + HI + BYE, False, id="start-without-end"),
        pytest.param(CTL + "\n".join(END + START) + "\n" + HI + BYE, False, id="end-before-start"),
        pytest.param(CTL + "\n".join(START[1:] + END[1:]) + "\n" + HI + BYE, False, id="without-enabled-lines"),
        pytest.param(CTL + PAIR.replace("<a>", "<b>") + HI + BYE, False, id="another-process"),
        pytest.param(CTL + PAIR.replace("-> trace", "-> discard") + HI + BYE, False, id="another-answer"),
        pytest.param(CTL + PAIR + BYE, False, id="case-line-missing"),
    ],
)
def test_runtime_collections_window(live: str, ok: bool) -> None:
    assert agree(GC_GOLDEN, live) is ok


def test_admitted_lines_are_counted() -> None:
    comparison = compare(parse_stream(GC_GOLDEN, "golden"), parse_live_stream(CTL + PAIR + HI + BYE, "live"))
    assert comparison.agree
    assert "4 live lines admitted by allowance windows" in comparison.summary()


_IN = "N enabled(in, <tracer>, <a>) -> trace ; N trace(in, <tracer>, <a>, {tcs_puppet,block,0}, #{})"
_OUT = "N enabled(out, <tracer>, <a>) -> trace ; N trace(out, <tracer>, <a>, {tcs_puppet,block,0}, #{})"
SCHED_GOLDEN = f"""\
N enabled(out, <tracer>, <a>) -> trace
N trace(out, <tracer>, <a>, {{tcs_puppet,block,0}}, #{{}})
A open w1 RUN-SIGNAL 0..1: {_IN} ... {_OUT}
N enabled(getting_linked, <tracer>, <a>) -> trace
N trace(getting_linked, <tracer>, <a>, <b>, #{{}})
A close w1
N enabled(in, <tracer>, <a>) -> trace
N trace(in, <tracer>, <a>, {{tcs_puppet,block,0}}, #{{}})
"""
OUT = "enabled(out, <tracer>, <a>) -> trace\ntrace(out, <tracer>, <a>, {tcs_puppet,block,0}, #{})\n"
IN = OUT.replace("out", "in")
LINKED = "enabled(getting_linked, <tracer>, <a>) -> trace\ntrace(getting_linked, <tracer>, <a>, <b>, #{})\n"


@pytest.mark.parametrize(
    ("live", "ok"),
    [
        pytest.param(OUT + LINKED + IN, True, id="none"),
        pytest.param(OUT + IN + LINKED + OUT + IN, True, id="pair-around-a-case-line"),
        pytest.param(OUT + IN + OUT + LINKED + IN, True, id="pair-before"),
        pytest.param(OUT + LINKED + IN + OUT + IN, True, id="pair-right-before-the-next-case-line"),
        pytest.param(OUT + IN + OUT + IN + LINKED + OUT + IN, False, id="over-the-limit"),
        pytest.param(OUT + IN + LINKED + IN, False, id="in-without-out"),
        pytest.param(OUT + OUT + LINKED + IN + IN, False, id="out-before-in"),
        pytest.param(OUT + LINKED + IN + IN + OUT, False, id="after-the-window"),
        pytest.param(OUT + IN.replace("block,0", "run,1") + LINKED + OUT.replace("block,0", "run,1") + IN, False,
                     id="another-function"),
    ],
)


def test_scheduling_window(live: str, ok: bool) -> None:
    assert agree(SCHED_GOLDEN, live) is ok


@pytest.mark.parametrize(
    ("golden", "why"),
    [
        pytest.param(f"A open w1 GC-RUNTIME 0..*: {_MINOR}\n", "never closed", id="unclosed"),
        pytest.param("A close w2\n", "closed but not open", id="close-unknown"),
        pytest.param(f"A open w1 GC-RUNTIME 0..*: {_MINOR}\nA open w1 GC-RUNTIME 0..*: {_MINOR}\nA close w1\n",
                     "opened twice", id="opened-twice"),
        pytest.param("A open w1 GC-RUNTIME 0..0: N enabled(in, <tracer>, <a>) -> trace\nA close w1\n",
                     "not 'open", id="limit-zero"),
        pytest.param("A open w1 GC-RUNTIME 0..*: N ctl erlang:halt() -> ok\nA close w1\n",
                     "not a callback or msg line", id="ctl-in-template"),
        pytest.param("A open w1 GC-RUNTIME 0..*: N enabled(in, <tracer>, <a>) -> trace ;  ; x\nA close w1\n",
                     "empty template piece", id="empty-piece"),
        pytest.param("A open w1 GC-RUNTIME 0..*: N enabled(trace_status, <tracer>, <a>) -> trace\nA close w1\n",
                     "has class N", id="wrong-class"),
        pytest.param(f"A open w2 GC-RUNTIME 0..* after w1: {_MINOR}\nA close w2\n", "after w1, which is not open",
                     id="after-a-window-not-open"),
    ],
)
def test_malformed_windows_are_refused(golden: str, why: str) -> None:
    with pytest.raises(StreamError, match=why):
        parse_stream(golden, "golden")


def _golden_case(case: str) -> str:
    """The model's golden stream of a corpus case."""
    return (REPO / "golden" / f"{case}.stream").read_text()


_C_OUT = "enabled(out, <tracer>, <c>) -> trace\ntrace(out, <tracer>, <c>, {tcs_puppet,block,0}, #{})\n"
_C_IN = _C_OUT.replace("out", "in")
_C_LINKED = "enabled(getting_linked, <tracer>, <c>) -> trace\ntrace(getting_linked, <tracer>, <c>, <d>, #{})\n"
_C_CTL = "ctl erlang:trace(<c>,true,[running,procs]) -> 1\n"


@pytest.mark.parametrize(
    ("live", "ok"),
    [
        pytest.param(_C_CTL + _C_LINKED + _C_IN, True, id="otp25-no-schedule"),
        pytest.param(_C_CTL + _C_IN + _C_LINKED + _C_OUT + _C_IN, True, id="otp27-in-linked-out"),
        pytest.param(_C_CTL + _C_IN + _C_OUT + _C_IN + _C_LINKED + _C_OUT + _C_IN, True, id="harness-poke-too"),
        pytest.param(_C_CTL + _C_LINKED + _C_IN + _C_IN + _C_OUT, False, id="after-the-wake-up"),
        pytest.param(_C_CTL + _C_IN + _C_LINKED + _C_IN, False, id="woken-twice-without-out"),
    ],
)
def test_the_models_blocked_signals_window(live: str, ok: bool) -> None:
    """The window the model writes for run_blocked_link_signal admits what OTP 25, 27 and 29 do,
    and nothing after the wake-up."""
    assert agree(_golden_case("run_blocked_link_signal"), live) is ok


def _sched(tag: str, who: str, mfa: str, tracer: str = "<tracer>") -> str:
    """The enabled and trace lines of one scheduling event, as the recorder reports them."""
    return f"enabled({tag}, {tracer}, {who}) -> trace\ntrace({tag}, {tracer}, {who}, {mfa}, #{{}})\n"


_BLOCK = "{tcs_puppet,block,0}"
_D_OUT, _D_IN = _sched("out", "<d>", _BLOCK), _sched("in", "<d>", _BLOCK)
_INHERIT_CTL = "ctl erlang:trace(<a>,true,[set_on_link,running]) -> 1\n"


@pytest.mark.parametrize(
    ("live", "ok"),
    [
        pytest.param(_INHERIT_CTL + _D_IN, True, id="not-scheduled-before-the-wake-up"),
        pytest.param(_INHERIT_CTL + _D_OUT + _D_IN, True, id="otp27-lone-out-then-wake-up"),
        pytest.param(_INHERIT_CTL + _D_OUT + _D_IN + _D_OUT + _D_IN, True, id="lone-out-then-a-poke"),
        pytest.param(_INHERIT_CTL + _D_OUT + _D_OUT + _D_IN, False, id="two-lone-outs"),
        pytest.param(_INHERIT_CTL + _D_IN + _D_OUT + _D_OUT + _D_IN, False, id="a-pair-before-the-lone-out"),
        pytest.param(_INHERIT_CTL + _D_IN + _D_OUT, False, id="out-after-the-wake-up"),
        pytest.param(_INHERIT_CTL + _D_IN + _D_IN, False, id="woken-twice"),
    ],
)
def test_the_models_blocked_inherit_window(live: str, ok: bool) -> None:
    """RUN-BLOCKED-INHERIT (fuzz group F1): a blocked process that gets running from a linker may go
    out once without an in before it (it was scheduled in untraced), and nothing after its wake-up."""
    assert agree(_golden_case("run_blocked_inherit_link"), live) is ok


_SESS_CTL = ("ctl trace:session_create(sa,{recorder,<sa>},[]) -> {_Ref,{sa,_Id}}\n"
             "ctl trace:session_create(sb,{recorder,<sb>},[]) -> {_Ref,{sb,_Id}}\n"
             "ctl trace:process({_Ref,{sa,_Id}},<d>,true,[running]) -> 1\n"
             "ctl trace:process({_Ref,{sb,_Id}},<a>,true,[set_on_link,running]) -> 1\n")
_SA_IN, _SA_OUT = _sched("in", "<d>", _BLOCK, "<sa>"), _sched("out", "<d>", _BLOCK, "<sa>")
_SB_IN, _SB_OUT = _sched("in", "<d>", _BLOCK, "<sb>"), _sched("out", "<d>", _BLOCK, "<sb>")


@pytest.mark.parametrize(
    ("live", "ok"),
    [
        pytest.param(_SESS_CTL + _SB_IN + _SA_IN, True, id="not-scheduled"),
        pytest.param(_SESS_CTL + _SA_IN + _SB_OUT + _SA_OUT + _SB_IN + _SA_IN, True, id="old-in-new-out"),
        pytest.param(_SESS_CTL + _SA_IN + _SA_OUT + _SA_IN + _SB_OUT + _SA_OUT + _SB_IN + _SA_IN, True,
                     id="old-pair-then-old-in-new-out"),
        pytest.param(_SESS_CTL + _SA_IN + _SB_OUT + _SA_OUT + _SB_IN + _SA_IN + _SB_OUT + _SA_OUT + _SB_IN + _SA_IN,
                     True, id="then-a-new-pair"),
        pytest.param(_SESS_CTL + _SB_IN + _SA_IN + _SB_OUT + _SA_OUT + _SA_IN + _SB_OUT + _SA_OUT + _SB_IN + _SA_IN,
                     False, id="new-in-before-the-flags-came"),
        pytest.param(_SESS_CTL + _SA_IN + _SA_OUT + _SB_IN + _SA_IN, True, id="an-old-pair-only"),
        pytest.param(_SESS_CTL + _SA_IN + _SB_OUT + _SA_OUT + _SA_IN + _SA_OUT + _SB_IN + _SA_IN, False,
                     id="old-pair-after-the-new-flags"),
        pytest.param(_SESS_CTL + _SA_IN + _SB_OUT + _SA_OUT + _SA_IN + _SB_OUT + _SA_OUT + _SB_IN + _SA_IN, False,
                     id="old-in-new-out-twice"),
    ],
)
def test_the_models_blocked_inherit_window_in_two_sessions(live: str, ok: bool) -> None:
    """RUN-BLOCKED-INHERIT with two sessions: scheduled in under the old flags (sa's in), out under
    the new ones (sb's and sa's out), once; pairs under the old flags before, under the new after."""
    assert agree(_golden_case("sess_run_blocked_inherit_link"), live) is ok


_E = "<e>"
_CS = "{code_server,call,1}"
_PREP = "{erlang,prepare_loading_1,2}"
_E_WAIT = _sched("out", _E, _CS) + _sched("in", _E, _CS)
_E_YIELD = _sched("out", _E, _PREP) + _sched("in", _E, _PREP)
_UNDEF = "{error_handler,undefined_function,3}"
_E_PREEMPT = _sched("out", _E, _UNDEF) + _sched("in", _E, _UNDEF)
_E_MINOR = PAIR.replace("<a>", _E)
_E_MAJOR = _E_MINOR.replace("gc_minor", "gc_major")
_LOAD_CTL = ("ctl seq_trace:set_system_tracer(<tracer>) -> false\n"
             "ctl erlang:trace(<e>,true,[running,return_to,garbage_collection,set_on_first_link]) -> 1\n"
             "ctl erlang:trace(<d>,true,[set_on_spawn]) -> 1\n")


@pytest.mark.parametrize(
    ("live", "ok"),
    [
        pytest.param(_LOAD_CTL, True, id="nothing"),
        pytest.param(_LOAD_CTL + _E_WAIT + _E_YIELD + _E_MINOR + _E_WAIT + _E_WAIT, True, id="otp27-as-seen"),
        pytest.param(_LOAD_CTL + _E_WAIT + _E_YIELD + _E_MINOR + _E_WAIT + _E_WAIT + _E_MAJOR, True,
                     id="otp29-as-seen-runtime-major-after"),
        pytest.param(_LOAD_CTL + _E_YIELD + _E_MAJOR + _E_WAIT, True, id="delayed-major"),
        pytest.param(_LOAD_CTL + _E_YIELD + _E_MINOR + _E_YIELD + _E_MAJOR, True, id="one-of-each-kind"),
        pytest.param(_LOAD_CTL + _E_WAIT + _E_YIELD + _E_WAIT + _E_MINOR + _E_WAIT, False,
                     id="a-wait-between-the-in-and-its-collection"),
        pytest.param(_LOAD_CTL + _E_WAIT + _E_YIELD + _E_WAIT + _E_WAIT, False, id="yield-without-collection"),
        pytest.param(_LOAD_CTL + _E_YIELD + _E_MINOR + _E_YIELD + _E_MINOR, False, id="two-delayed-minors"),
        pytest.param(_LOAD_CTL + _sched("out", _E, _PREP) + _E_MINOR + _sched("in", _E, _PREP), False,
                     id="collection-while-out"),
        pytest.param(_LOAD_CTL + _E_WAIT * 5, True, id="five-waits-as-27-and-29-do"),
        pytest.param(_LOAD_CTL + _E_PREEMPT + _E_WAIT + _E_WAIT, True, id="preempted-on-the-load-path"),
        pytest.param(_LOAD_CTL + _E_PREEMPT + _E_WAIT + _E_PREEMPT, False, id="preempted-twice-at-one-function"),
        pytest.param(_LOAD_CTL + _E_WAIT + _sched("out", _E, "{code,purge,1}") + _sched("in", _E, "{code,purge,1}"),
                     False, id="out-at-a-function-off-the-load-path"),
    ],
)
def test_the_models_delayed_collection_window(live: str, ok: bool) -> None:
    """GC-RUNTIME-DELAYED (fuzz group F3) overlapping RUN-WAIT-CODE-LOAD, RUN-PREEMPT-CODE-LOAD and
    GC-RUNTIME: the yield at prepare_loading_1/2 with its collection right after the in, at most one
    of each kind, among any number of code server waits and at most one schedule at each function
    of the load path (C-366); what OTP 27 and 29 did is admitted, the rest is a difference."""
    assert agree(_golden_case("gc_runtime_delayed_code_load"), live) is ok


_MORE = "N enabled(send, <tracer>, <a>) -> trace ; N trace(send, <tracer>, <a>, more, #{extra=><b>})"
AFTER_GOLDEN = f"""\
N ctl erlang:trace(<a>,true,[send,garbage_collection]) -> 1
A open w1 GC-RUNTIME 0..*: {_MINOR.replace(" ; N enabled(gc_minor_end", " ... N enabled(gc_minor_end")}
A open w2 TEST-AFTER 0..* after w1: {_MORE}
N enabled(send, <tracer>, <a>) -> trace
N trace(send, <tracer>, <a>, hi, #{{extra=><b>}})
A close w2
A close w1
"""
MORE = HI.replace("hi", "more")


@pytest.mark.parametrize(
    ("live", "ok"),
    [
        pytest.param(CTL + HI, True, id="none"),
        pytest.param(CTL + PAIR + PAIR + MORE + HI + MORE, True, id="first-window-then-second"),
        pytest.param(CTL + "\n".join(START) + "\n" + HI + "\n".join(END) + "\n" + MORE, True,
                     id="first-around-a-case-line"),
        pytest.param(CTL + MORE + PAIR + HI, False, id="second-before-first"),
        pytest.param(CTL + PAIR + MORE + PAIR + HI, False, id="first-after-second-began"),
        pytest.param(CTL + "\n".join(START) + "\n" + MORE + "\n".join(END) + "\n" + HI, False,
                     id="second-while-first-half-done"),
    ],
)
def test_a_window_after_another(live: str, ok: bool) -> None:
    """'A open wN ... after wM': every instance of wM comes before every instance of wN (PROTOCOLS.md
    section 6); without `after` the two would interleave freely between segments."""
    assert agree(AFTER_GOLDEN, live) is ok
    assert agree(AFTER_GOLDEN.replace(" after w1", ""), live) is True  # the order is all that differs


_A_WAIT = _sched("out", "<a>", _CS) + _sched("in", "<a>", _CS)
_A_YIELD = _sched("out", "<a>", _PREP) + _sched("in", "<a>", _PREP)
_A_LOAD_CTL = ("ctl erlang:trace(<a>,true,[running,call]) -> 1\n"
               "ctl erlang:trace_pattern({tcs_late,id,1},true,[global]) -> 0\n")


@pytest.mark.parametrize(
    ("live", "ok"),
    [
        pytest.param(_A_LOAD_CTL, True, id="otp25-nothing"),
        pytest.param(_A_LOAD_CTL + _A_WAIT * 3, True, id="three-waits"),
        pytest.param(_A_LOAD_CTL + _A_WAIT * 2 + _A_YIELD + _A_WAIT, True, id="a-delayed-collection-untraced"),
        pytest.param(_A_LOAD_CTL + _A_YIELD + _A_YIELD, False, id="two-yields"),
        pytest.param(_A_LOAD_CTL + _sched("out", "<a>", _PREP) + _A_WAIT, False, id="yield-left-half-done"),
    ],
)
def test_the_models_delayed_collection_window_untraced(live: str, ok: bool) -> None:
    """GC-RUNTIME-DELAYED for a process traced for running only (fuzz seed 20261123 after F3): the yield
    at prepare_loading_1/2 at most once within the loading step, whole, among the code server waits."""
    assert agree(_golden_case("run_wait_code_load"), live) is ok


def _port_sched(tag: str, term: str) -> str:
    """A port's scheduling event as the recorder reports it (running_ports)."""
    return f"enabled_running_ports({tag}, <tracer>, <port:x>) -> trace\ntrace_running_ports({tag}, <tracer>, <port:x>, {term}, #{{}})\n"


_RECV = ("enabled('receive', <tracer>, <port:x>) -> trace\n"
         "trace('receive', <tracer>, <port:x>, {<a>,{command,<<104>>}}, #{})\n")
_A_SENDS = "enabled(send, <tracer>, <a>) -> trace\ntrace(send, <tracer>, <a>, hi, #{extra=><b>})\n"


def _normative(live: str) -> str:
    """Live lines as golden lines of class N."""
    return "".join(f"N {line}\n" for line in live.splitlines())


EITHER_GOLDEN = ("N ctl erlang:trace(<port:x>,true,[running_ports,'receive']) -> 1\n"
                 "A either w1 PORT-OP-TASK-OR-IMMEDIATE\n"
                 + _normative(_port_sched("in", "command") + _RECV + _A_SENDS + _port_sched("out", "command"))
                 + "A or w1\n" + _normative(_RECV + _A_SENDS) + "A end w1\n")
_PORT_CTL = "ctl erlang:trace(<port:x>,true,[running_ports,'receive']) -> 1\n"
_NOW_IN, _NOW_OUT = _port_sched("in", "command"), _port_sched("out", "command")
_TASK_IN, _TASK_OUT = _port_sched("in", "0"), _port_sched("out", "0")


@pytest.mark.parametrize(
    ("live", "ok"),
    [
        pytest.param(_PORT_CTL + _NOW_IN + _RECV + _NOW_OUT + _A_SENDS, True, id="immediate-call"),
        pytest.param(_PORT_CTL + _TASK_IN + _RECV + _TASK_OUT + _A_SENDS, True, id="port-task"),
        pytest.param(_PORT_CTL + _RECV + _A_SENDS, True, id="port-task-lines-dropped"),
        pytest.param(_PORT_CTL + _NOW_IN + _RECV + _A_SENDS, False, id="in-without-out"),
        pytest.param(_PORT_CTL + _TASK_IN + _RECV + _NOW_OUT + _A_SENDS, False, id="task-in-immediate-out"),
        pytest.param(_PORT_CTL + _NOW_IN + _NOW_OUT + _A_SENDS, False, id="neither-receive-missing"),
        pytest.param(_PORT_CTL + _NOW_IN + _RECV + _NOW_OUT + _RECV + _A_SENDS, False, id="both"),
        pytest.param(_PORT_CTL + _NOW_IN + _RECV + _NOW_OUT + _NOW_OUT + _A_SENDS, False, id="an-extra-out"),
        pytest.param(_PORT_CTL + _NOW_IN + _RECV + _NOW_OUT, False, id="a-line-alike-in-both-missing"),
        pytest.param(_PORT_CTL + _NOW_IN + _RECV + _NOW_OUT + _A_SENDS + _A_SENDS, False,
                     id="a-line-alike-in-both-twice"),
    ],
)
def test_either_or(live: str, ok: bool) -> None:
    """An either-or (PROTOCOLS.md section 6, "Either-or"): a group's live lines hold exactly one of the
    two alternatives; a group whose lines are the same in both (<a>'s send) takes them once."""
    assert agree(EITHER_GOLDEN, live) is ok


def test_either_or_is_named_beside_a_differing_group() -> None:
    comparison = compare(parse_stream(EITHER_GOLDEN, "golden"),
                         parse_live_stream(_PORT_CTL + _NOW_IN + _RECV + _A_SENDS, "live"))
    report = comparison.render()
    assert "@@ group <port:x> @@ allowance windows: w1 either PORT-OP-TASK-OR-IMMEDIATE" in report
    assert "-N trace_running_ports(out, <tracer>, <port:x>, command, #{})" in report  # the first alternative shown
    assert [g.group for g in comparison.differing()] == ["<port:x>"]


_EITHER_WINDOW_GOLDEN = f"""\
N ctl erlang:trace(<a>,true,[send,garbage_collection]) -> 1
A open w1 GC-RUNTIME 0..*: {_MINOR}
A either w2 TEST-EITHER
N enabled(send, <tracer>, <a>) -> trace
N trace(send, <tracer>, <a>, hi, #{{extra=><b>}})
A or w2
A end w2
A close w1
N enabled(send, <tracer>, <a>) -> trace
N trace(send, <tracer>, <a>, bye, #{{extra=><b>}})
"""


@pytest.mark.parametrize(
    ("live", "ok"),
    [
        pytest.param(CTL + HI + BYE, True, id="first"),
        pytest.param(CTL + BYE, True, id="second-empty"),
        pytest.param(CTL + PAIR + HI + PAIR + BYE, True, id="first-between-window-instances"),
        pytest.param(CTL + PAIR + BYE, True, id="second-with-a-window-instance"),
        pytest.param(CTL + "\n".join(START) + "\n" + HI + "\n".join(END) + "\n" + BYE, False,
                     id="window-segment-split-by-the-alternative"),
        pytest.param(CTL + HI + HI + BYE, False, id="first-twice"),
    ],
)
def test_either_or_within_a_window(live: str, ok: bool) -> None:
    """Window instances may come before and after an alternative's lines, but a template segment's
    lines stay together; an empty alternative takes no line."""
    assert agree(_EITHER_WINDOW_GOLDEN, live) is ok


@pytest.mark.parametrize(
    ("golden", "why"),
    [
        pytest.param("A either w1 R\nA or w1\n", "never ended", id="never-ended"),
        pytest.param("A or w1\nA end w1\n", "out of turn", id="or-without-either"),
        pytest.param("A either w1 R\nA end w1\n", "out of turn", id="end-before-or"),
        pytest.param("A either w1 R\nA or w1\nA or w1\nA end w1\n", "out of turn", id="or-twice"),
        pytest.param("A either w1 R\nA either w2 R\nA or w2\nA end w2\nA or w1\nA end w1\n", "inside either w1",
                     id="nested"),
        pytest.param("A either w1 R\nA or w1\nA end w1\nA either w1 R\nA or w1\nA end w1\n", "used before",
                     id="id-reused"),
        pytest.param(f"A either w1 R\nA open w2 GC-RUNTIME 0..*: {_MINOR}\nA close w2\nA or w1\nA end w1\n",
                     "allowance window line inside either w1", id="window-inside"),
        pytest.param("A either w1\nA or w1\nA end w1\n", "not 'either wN RULE'", id="no-rule"),
    ],
)
def test_malformed_either_ors_are_refused(golden: str, why: str) -> None:
    with pytest.raises(StreamError, match=why):
        parse_stream(golden, "golden")


_CMD = ("enabled('receive', <tracer>, <port:x>) -> trace\n"
        "trace('receive', <tracer>, <port:x>, {<a>,{command,<<120>>}}, #{})\n")
_CLOSE = _CMD.replace("{command,<<120>>}", "close")
_OPENED = ("ctl erlang:trace(new_ports,true,[running_ports,'receive']) -> 0\n"
           + _port_sched("in", "open") + _port_sched("out", "open"))


@pytest.mark.parametrize(
    ("live", "ok"),
    [
        pytest.param(_OPENED + _port_sched("in", "command") + _CMD + _port_sched("out", "command")
                     + _port_sched("in", "close") + _CLOSE, True, id="both-immediate"),
        pytest.param(_OPENED + _TASK_IN + _CMD + _TASK_OUT + _TASK_IN + _CLOSE, True, id="both-tasks"),
        pytest.param(_OPENED + _TASK_IN + _CMD + _TASK_OUT + _port_sched("in", "close") + _CLOSE, True,
                     id="command-as-task-close-immediate"),
        pytest.param(_OPENED + _port_sched("in", "command") + _CMD + _port_sched("in", "close") + _CLOSE, False,
                     id="command-in-without-out"),
        pytest.param(_OPENED + _port_sched("in", "command") + _CMD + _port_sched("out", "command")
                     + _port_sched("in", "close") + _CLOSE + _port_sched("out", "close"), False,
                     id="out-after-a-close"),
        pytest.param(_OPENED + _port_sched("in", "command") + _CMD + _port_sched("out", "command")
                     + _port_sched("in", "close"), False, id="close-not-received"),
    ],
)
def test_the_models_port_operation_either_or(live: str, ok: bool) -> None:
    """PORT-OP-TASK-OR-IMMEDIATE (fuzz/FINDINGS.md P3): each port operation of port_running_command is
    an immediate call (named in/out; a close has no out, C-67) or a port task (in 0/out 0,
    informative), independently of the other; a mixture or an out after a close is a difference."""
    assert agree(_golden_case("port_running_command"), live) is ok


def _sp(tag: str, term: str) -> str:
    """The message a tracer process <sp> gets for an event of the port."""
    return f"msg(<sp>, {{trace,<port:x>,{tag},{term}}})\n"


_SP_RECV = _sp("'receive'", "{<a>,{command,<<104>>}}")
TWO_TRACERS_GOLDEN = ("A either w1 PORT-OP-TASK-OR-IMMEDIATE\n"
                      + _normative(_port_sched("in", "command") + _sp("in", "command") + _RECV + _SP_RECV
                                   + _port_sched("out", "command") + _sp("out", "command"))
                      + "A or w1\n" + _normative(_RECV + _SP_RECV) + "A end w1\n")


@pytest.mark.parametrize(
    ("live", "ok"),
    [
        pytest.param(_port_sched("in", "command") + _sp("in", "command") + _RECV + _SP_RECV
                     + _port_sched("out", "command") + _sp("out", "command"), True, id="both-immediate"),
        pytest.param(_TASK_IN + _sp("in", "0") + _RECV + _SP_RECV + _TASK_OUT + _sp("out", "0"), True,
                     id="both-task"),
        pytest.param(_port_sched("in", "command") + _sp("in", "0") + _RECV + _SP_RECV
                     + _port_sched("out", "command") + _sp("out", "0"), False, id="module-immediate-process-task"),
        pytest.param(_TASK_IN + _sp("in", "command") + _RECV + _SP_RECV + _TASK_OUT + _sp("out", "command"), False,
                     id="module-task-process-immediate"),
    ],
)
def test_an_either_or_takes_one_alternative_in_every_group(live: str, ok: bool) -> None:
    """The port's events reach a tracer module (group <port:x>) and a tracer process (group <port:x> to
    <sp>): one run of the operation, so both groups must hold the same alternative."""
    comparison = compare(parse_stream(TWO_TRACERS_GOLDEN, "golden"), parse_live_stream(live, "live"),
                         observable=ALL_KINDS)
    assert comparison.agree is ok
    if not ok:  # each group alone holds an alternative: both are reported
        assert {g.group for g in comparison.differing()} == {"<port:x>", "<port:x> to <sp>"}


_K_CTL = "ctl erlang:trace(<a>,true,[exiting,procs]) -> 1\n"
_K_DIRTY_OUT = "enabled(out_exiting, <tracer>, <a>) -> trace\n"
_K_OUT_TRACED = _K_DIRTY_OUT + "trace(out_exiting, <tracer>, <a>, 0, #{})\n"
_K_IN = "enabled(in_exiting, <tracer>, <a>) -> trace\ntrace(in_exiting, <tracer>, <a>, 0, #{})\n"
_K_EXIT = "enabled(exit, <tracer>, <a>) -> trace\ntrace(exit, <tracer>, <a>, boom, #{})\n"
_K_EXITED = "enabled(out_exited, <tracer>, <a>) -> trace\ntrace(out_exited, <tracer>, <a>, 0, #{})\n"


@pytest.mark.parametrize(
    ("live", "ok"),
    [
        pytest.param(_K_CTL + _K_IN + _K_EXIT + _K_EXITED, True, id="exit-run-on-a-normal-scheduler"),
        pytest.param(_K_CTL + _K_DIRTY_OUT + _K_IN + _K_EXIT + _K_EXITED, True, id="c200-dirty-out-asked"),
        pytest.param(_K_CTL + _K_OUT_TRACED + _K_IN + _K_EXIT + _K_EXITED, False, id="a-trace-line-is-never-reported"),
        pytest.param(_K_CTL + _K_DIRTY_OUT + _K_DIRTY_OUT + _K_IN + _K_EXIT + _K_EXITED, False, id="twice"),
        pytest.param(_K_CTL + _K_IN + _K_DIRTY_OUT + _K_EXIT + _K_EXITED, True, id="after-in-exiting"),  # C-800
        pytest.param(_K_CTL + _K_IN + _K_EXIT + _K_DIRTY_OUT + _K_EXITED, True, id="after-exit"),  # C-800
        pytest.param(_K_CTL + _K_DIRTY_OUT + _K_IN + _K_EXIT + _K_DIRTY_OUT + _K_EXITED, False,
                     id="before-in-exiting-and-after-exit"),
        pytest.param(_K_CTL + _K_IN + _K_EXIT + _K_EXITED + _K_DIRTY_OUT, False, id="after-out-exited"),
    ],
)
def test_the_models_killed_dirty_out_window(live: str, ok: bool) -> None:
    """The window the model writes for run_killed_exit2_in_gate admits the one enabled line of the
    dirty scheduler's out_exiting anywhere before the out_exited: before the in_exiting (C-200), or
    while a normal scheduler runs the exit (C-800); once, and nothing else."""
    assert agree(_golden_case("run_killed_exit2_in_gate"), live) is ok


_K_IN_ASKED = "enabled(in_exiting, <tracer>, <a>) -> trace\n"
_K_NORMAL_PAIR = _K_IN + _K_OUT_TRACED    # a normal scheduler that finds the dirty work still flagged
_K_DIRTY_PAIR = _K_IN_ASKED + _K_DIRTY_OUT  # the dirty scheduler that finds it exiting: reports lost


@pytest.mark.parametrize(
    ("live", "ok"),
    [
        pytest.param(_K_CTL + _K_NORMAL_PAIR + _K_IN + _K_EXIT + _K_EXITED, True, id="normal-scheduler-pair"),
        pytest.param(_K_CTL + _K_DIRTY_PAIR + _K_IN + _K_EXIT + _K_EXITED, True, id="dirty-scheduler-pair"),
        pytest.param(_K_CTL + _K_DIRTY_OUT + _K_NORMAL_PAIR + _K_IN + _K_EXIT + _K_EXITED, True,
                     id="c200-out-then-pair"),
        pytest.param(_K_CTL + _K_NORMAL_PAIR + _K_DIRTY_OUT + _K_IN + _K_EXIT + _K_EXITED, True,
                     id="pair-then-c200-out"),
        pytest.param(_K_CTL + _K_DIRTY_PAIR + _K_NORMAL_PAIR + _K_DIRTY_OUT + _K_IN + _K_EXIT + _K_EXITED, True,
                     id="all-three-once"),
        pytest.param(_K_CTL + _K_NORMAL_PAIR + _K_NORMAL_PAIR + _K_IN + _K_EXIT + _K_EXITED, False,
                     id="normal-pair-twice"),
        pytest.param(_K_CTL + _K_DIRTY_PAIR + _K_DIRTY_PAIR + _K_IN + _K_EXIT + _K_EXITED, False,
                     id="dirty-pair-twice"),
        pytest.param(_K_CTL + _K_IN + _K_OUT_TRACED.replace("trace(out_exiting", "trace(out", 1) + _K_IN + _K_EXIT
                     + _K_EXITED, False, id="pair-with-another-tag"),
        pytest.param(_K_CTL + _K_IN + _K_NORMAL_PAIR + _K_EXIT + _K_EXITED, False, id="pair-after-the-exits-in"),
        pytest.param(_K_CTL + _K_IN + _K_EXIT + _K_NORMAL_PAIR + _K_EXITED, False, id="pair-after-exit"),
        pytest.param(_K_CTL + _K_IN + _K_IN + _K_EXIT + _K_EXITED, False, id="in-without-its-out"),
    ],
)
def test_the_models_killed_dirty_migrate_windows(live: str, ok: bool) -> None:
    """The windows the model writes for run_killed_exit2_in_gate admit, before the exit's in_exiting,
    at most one in_exiting and straight back out_exiting with every line (a normal scheduler) and one
    with its enabled lines only (the dirty one), in any order with C-200's out_exiting (C-300, fuzz
    group V9), and nothing else."""
    assert agree(_golden_case("run_killed_exit2_in_gate"), live) is ok


_K_YIELD = _K_OUT_TRACED + _K_IN  # scheduled out exiting and back in, in the middle of the exit


@pytest.mark.parametrize(
    ("live", "ok"),
    [
        pytest.param(_K_CTL + _K_IN + _K_EXIT + _K_YIELD + _K_EXITED, True, id="a-yield-after-exit"),
        pytest.param(_K_CTL + _K_IN + _K_EXIT + _K_YIELD + _K_YIELD + _K_EXITED, True, id="two-yields"),  # C-701
        pytest.param(_K_CTL + _K_IN + _K_EXIT + _K_YIELD + _K_YIELD + _K_YIELD + _K_EXITED, True, id="three-yields"),
        pytest.param(_K_CTL + _K_IN + _K_YIELD + _K_EXIT + _K_EXITED, True,
                     id="before-exit-it-is-c300s-pair-then-the-exits-in"),
        pytest.param(_K_CTL + _K_IN + _K_EXIT + _K_OUT_TRACED + _K_DIRTY_OUT + _K_IN + _K_YIELD + _K_EXITED, True,
                     id="the-dirty-schedulers-out-within-a-yield"),  # C-800, as seen live on 25
        pytest.param(_K_CTL + _K_IN + _K_EXIT + _K_DIRTY_OUT + _K_IN + _K_EXITED, False,
                     id="a-yield-without-its-trace-line"),
        pytest.param(_K_CTL + _K_IN + _K_EXIT + _K_OUT_TRACED + _K_DIRTY_OUT + _K_DIRTY_OUT + _K_IN + _K_EXITED,
                     False, id="two-dirty-outs-within-a-yield"),
        pytest.param(_K_CTL + _K_IN + _K_EXIT + _K_OUT_TRACED + _K_IN_ASKED + _K_EXITED, False,
                     id="a-yields-in-without-its-trace-line"),
        pytest.param(_K_CTL + _K_IN + _K_EXIT + _K_EXITED + _K_YIELD, False, id="a-yield-after-out-exited"),
    ],
)
def test_the_models_exit_yield_window(live: str, ok: bool) -> None:
    """The window the model writes for run_killed_exit2_in_gate admits out_exiting and in_exiting pairs,
    any number, between the exit event and out_exited (an exit that yields, C-302; fuzz group V9's own
    scenario; more than once, C-701), with the dirty scheduler's one out_exiting, its enabled line only,
    among them (C-800), and nothing else there: an in_exiting after the exit needs a yield's out_exiting
    with its trace line, which only a normal scheduler reports."""
    assert agree(_golden_case("run_killed_exit2_in_gate"), live) is ok


_LS_SET = "ctl erlang:system_monitor(<tracer>,[{long_schedule,100}]) -> undefined\n"
_LS_CLEAR = ("ctl erlang:system_monitor(undefined) -> {<tracer>,[{long_schedule,100}]}\n"
             "ctl erlang:system_monitor() -> undefined\n")


def _ls(subject: str) -> str:
    """A long_schedule monitor message to the tracer process about subject."""
    return f"msg(<tracer>, {{monitor,{subject},long_schedule,_Info}})\n"


@pytest.mark.parametrize(
    ("live", "ok"),
    [
        pytest.param(_LS_SET + _ls("<a>") + _LS_CLEAR, True, id="the-sleepers-message"),
        pytest.param(_LS_SET + _ls("<?>") + _ls("<a>") + _ls("<a>") + _ls("<port:?>") + _ls("<?>") + _LS_CLEAR,
                     True, id="and-any-number-about-any-process"),
        pytest.param(_LS_SET + _LS_CLEAR, False, id="no-message-about-the-sleeper"),
        pytest.param(_LS_SET + _ls("<?>") + _ls("<port:?>") + _LS_CLEAR, False, id="only-others"),
        pytest.param(_LS_SET + _ls("<tracer>") + _ls("<a>") + _LS_CLEAR, False, id="about-the-monitor-itself"),
    ],
)
def test_the_models_long_schedule_windows(live: str, ok: bool) -> None:
    """otp_trace_system_monitor_long_schedule states the message about the process that slept 300 ms
    under a 100 ms limit, which must come, and admits any number more about any process or port but
    the monitor (wall-clock time, C-730); the tracer process's messages are compared."""
    golden = parse_stream(_golden_case("otp_trace_system_monitor_long_schedule"), "golden")
    assert compare(golden, parse_live_stream(live, "live"), observable=ALL_KINDS).agree is ok
