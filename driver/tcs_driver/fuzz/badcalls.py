"""`apply trace:FN(ARGS)` steps for the generator: calls of module trace that raise, with arguments
no other step writes (cases/README.md "Trace sessions"; the model is ref/harness/badcalls.c, C-280,
C-320).

Every form here is one the model answers: a call that raises, whose error OTP blames on one
argument. Calls that would succeed, or whose error_info would explain two arguments, are the
model's documented refusals (conformance/refusals.md) and are never written. The session of a
form is a live handle unless the form is about the handle itself.
"""
from __future__ import annotations

import random
from collections.abc import Callable
from typing import Final

from .state import FuzzState

#: Flag lists of trace flags only (SESSION-TRACEE-*: the tracee is refused, not the flags).
FLAG_LISTS: Final[tuple[str, ...]] = ("[]", "[send]", "[call,procs]", "['receive',timestamp]", "[all]")
#: Flag lists holding something that is no trace flag (SESSION-UNKNOWN-FLAG, C-320).
BAD_ELEMENT_LISTS: Final[tuple[str, ...]] = ("[bad_flag]", "[send,bad_flag]", "[{silent,true}]", "[42]",
                                             "[procs,{tracer,x}]")
#: Flag and option lists that are no proper list (SESSION-FLAGS-NO-LIST).
NOT_LISTS: Final[tuple[str, ...]] = ("bad_flags", "[send|'receive']", "[send|x]", "{send}", "[local|meta]")
#: How arguments that are no boolean (SESSION-BAD-HOW).
BAD_HOWS: Final[tuple[str, ...]] = ("sometimes", "1", "[true]", "{true}")
#: Tracees process/4 refuses that are no pid (SESSION-TRACEE-BAD).
NOT_PROCESSES: Final[tuple[str, ...]] = ('"a"', "42", "external_port()", "atomics:new(1,[])", "make_ref()",
                                         "{a,b}")
#: Tracees port/4 refuses besides the case's pids (SESSION-TRACEE-BAD; another node's port:
#: SESSION-TRACEE-REMOTE).
NOT_PORTS: Final[tuple[str, ...]] = ("not_a_port", '"x"', "42", "make_ref()", "external_pid()", "external_port()")
#: MFAs function/4 refuses (SESSION-FUNCTION-BAD-MFA) and valid ones (for the options' refusals).
BAD_MFAS: Final[tuple[str, ...]] = ("a", '"a"', "{tcs_target,id}", "{1,2,3}", "{tcs_target,id,x}", "[]",
                                    "external_pid()")
GOOD_MFAS: Final[tuple[str, ...]] = ("{tcs_target,id,1}", "{tcs_target,'_','_'}", "on_load", "{lists,seq,2}")
#: Match specs the model validates (a list one, for CALL-COUNT-NO-MATCH-SPEC).
LIST_MATCH_SPECS: Final[tuple[str, ...]] = ("[{'_',[],[]}]", "[{'_',[],[{return_trace}]}]",
                                            "[{['$1'],[{is_integer,'$1'}],[{message,'$1'}]}]")
#: Option lists of function/4 that leave the MFA to be refused (no counter-only list with a match spec),
#: and two that are refused as options, before the match spec (CALL-PATTERN-GLOBAL-EXCLUSIVE, C-321).
MFA_OPTIONS: Final[tuple[str, ...]] = ("[]", "[global]", "[local]", "[meta]", "[local,call_count]",
                                       "[call_time,meta]", "[global,local]", "[meta,global]")
COUNTER_OPTIONS: Final[tuple[str, ...]] = ("call_count", "call_time", "call_memory")
#: Names session_create/3 refuses (SESSION-CREATE-NAME) and tracers it refuses (SESSION-CREATE-TRACER;
#: not `undefined`, which it takes, C-290).
BAD_NAMES: Final[tuple[str, ...]] = ('"badname"', "42", "external_pid()", "{sx}", "make_ref()", "[]")
BAD_CREATE_TRACERS: Final[tuple[str, ...]] = ("bad_tracer", "external_pid()", "42", '"t"', "{7,s}",
                                              "atomics:new(1,[])", "{a,b,c}")
GOOD_CREATE_TRACERS: Final[tuple[str, ...]] = ("{tcs_target,[]}", "{recorder,x}")
#: What session_info/1 refuses (SESSION-INFO-BAD-WHAT).
BAD_WHATS: Final[tuple[str, ...]] = ("external_pid()", "external_port()", '"a"', '"ab"')
#: Terms that are no session handle (SESSION-NOT-A-HANDLE; trace_session_SUITE's bad_session, make_ref()).
NOT_HANDLES: Final[tuple[str, ...]] = ("atomics:new(1,[])", "make_ref()", "bad_session")


#: A form's writer: the call's text, drawn with the random stream given, for the live handles given.
_Form = Callable[[FuzzState, random.Random, list[str]], str]


def _live_handles(st: FuzzState) -> list[str]:
    """Handles of sessions created and neither destroyed nor dropped, strong and weak."""
    live = sorted(s for s in st.created if s not in st.destroyed and s not in st.dropped)
    return live + [f"weak({s})" for s in live]


def _dead_handles(st: FuzzState) -> list[str]:
    """Handles that name no live session: a destroyed one's (only the weak one once dropped), the legacy
    session's weak handle, terms that are no handle."""
    gone = sorted(st.created & (st.destroyed | st.dropped))
    return ([s for s in gone if s not in st.dropped] + [f"weak({s})" for s in gone] + ["weak(legacy)"]
            + [f"term({t})" for t in NOT_HANDLES])


def _pid(st: FuzzState, xr: random.Random, alive_only: bool = False) -> str:
    """A symbolic pid of a process of the case (dead ones too unless alive_only)."""
    names = st.alive if alive_only or not st.dead else st.alive + sorted(st.dead)
    return f"<{xr.choice(names)}>"


def _process(st: FuzzState, xr: random.Random, live: list[str]) -> str:
    """process/4: a pid of this node with flags that are no list or hold no flag, or a How that is
    no boolean (C-320); another node's pid (SESSION-TRACEE-REMOTE); no pid (SESSION-TRACEE-BAD); any
    pid with a handle that is no live one (the session is checked first, C-320)."""
    r = xr.random()
    if r < 0.45:
        pid = _pid(st, xr)
        if xr.random() < 0.35:
            return f"process({xr.choice(live)},{pid},{xr.choice(BAD_HOWS)},{xr.choice(FLAG_LISTS)})"
        flags = xr.choice(NOT_LISTS if xr.random() < 0.5 else BAD_ELEMENT_LISTS)
        return f"process({xr.choice(live)},{pid},{xr.choice(['true', 'false'])},{flags})"
    if r < 0.6:   # with bad flags both are blamed (SESSION-TRACEE-REMOTE-FLAGS, C-321)
        flags = xr.choice(FLAG_LISTS + BAD_ELEMENT_LISTS + NOT_LISTS)
        return f"process({xr.choice(live)},external_pid(),{xr.choice(['true', 'false'])},{flags})"
    if r < 0.85:   # the tracee is blamed before the flags (C-321)
        how = xr.choice(BAD_HOWS) if xr.random() < 0.25 else xr.choice(["true", "false"])
        flags = xr.choice(FLAG_LISTS + BAD_ELEMENT_LISTS + NOT_LISTS)
        return f"process({xr.choice(live)},{xr.choice(NOT_PROCESSES)},{how},{flags})"
    pid = xr.choice([_pid(st, xr), "external_pid()"])
    flags = xr.choice(FLAG_LISTS + BAD_ELEMENT_LISTS + NOT_LISTS)
    return f"process({xr.choice(_dead_handles(st))},{pid},{xr.choice(['true', 'false'] + list(BAD_HOWS))},{flags})"


def _port(st: FuzzState, xr: random.Random, live: list[str]) -> str:
    """port/4 of a tracee that is no port of this node: checked before the flags (SESSION-TRACEE-BAD,
    SESSION-TRACEE-REMOTE)."""
    who = xr.choice(NOT_PORTS + (_pid(st, xr),))
    how = "true" if xr.random() < 0.5 else "false"
    if who != "external_port()" and xr.random() < 0.2:
        how = xr.choice(BAD_HOWS)
    flags = xr.choice(FLAG_LISTS + BAD_ELEMENT_LISTS + NOT_LISTS)
    return f"port({xr.choice(live)},{who},{how},{flags})"


def _function(xr: random.Random, live: list[str]) -> str:
    """function/4, in the order erts checks: options that are no list, options it refuses (global
    beside a counter, CALL-COUNTERS-NOT-GLOBAL, C-321), a match spec with counters only
    (CALL-COUNT-NO-MATCH-SPEC), then the MFA (SESSION-FUNCTION-BAD-MFA)."""
    r = xr.random()
    handle = xr.choice(live)
    if r < 0.3:
        mfa = xr.choice(GOOD_MFAS + BAD_MFAS)
        ms = xr.choice(("true", "false") + LIST_MATCH_SPECS)
        return f"function({handle},{mfa},{ms},{xr.choice(NOT_LISTS)})"
    if r < 0.55:
        opts = xr.sample(COUNTER_OPTIONS, xr.randrange(1, 3)) + (["global"] if xr.random() < 0.2 else [])
        return (f"function({handle},{xr.choice(GOOD_MFAS + BAD_MFAS)},{xr.choice(LIST_MATCH_SPECS)},"
                f"[{','.join(opts)}])")
    ms = xr.choice(("true", "false", "true") + LIST_MATCH_SPECS)
    return f"function({handle},{xr.choice(BAD_MFAS)},{ms},{xr.choice(MFA_OPTIONS)})"


def _info(st: FuzzState, xr: random.Random, live: list[str]) -> str:
    """info/3 of another node's pid or port (SESSION-TRACEE-REMOTE), or with a handle that is no
    live one (its rule, as for the info step)."""
    item = xr.choice(["flags", "tracer"])
    if not live or xr.random() < 0.3:
        return f"info({xr.choice(_dead_handles(st))},{_pid(st, xr)},{item})"
    return f"info({xr.choice(live)},{xr.choice(['external_pid()', 'external_port()'])},{item})"


def _session_create(st: FuzzState, xr: random.Random) -> str:
    """session_create/3 with one bad argument: the name (SESSION-CREATE-NAME) or the tracer
    (SESSION-CREATE-TRACER)."""
    if xr.random() < 0.5:
        tracers = GOOD_CREATE_TRACERS + ((_pid(st, xr, True),) if st.alive else ())
        return f"session_create({xr.choice(BAD_NAMES)},{xr.choice(tracers)},[])"
    return f"session_create({xr.choice(['sx', 'name', 'sa'])},{xr.choice(BAD_CREATE_TRACERS)},[])"


def _send_or_recv(kind: str) -> _Form:
    """send/3 or recv/3 (kind) with a flag list that is no proper list (SESSION-FLAGS-NO-LIST)."""
    return lambda st, xr, live: f"{kind}({xr.choice(live)},{xr.choice(['true', 'false'])},{xr.choice(NOT_LISTS)})"


#: The forms of an `apply` step: how many times each is among the draws, whether it needs a live
#: handle, and its writer; in the order of the draw (which this order and the weights decide, so that a
#: seed gives the scenarios it always gave).
_FORMS: Final[dict[str, tuple[int, bool, _Form]]] = {
    "session_create": (1, False, lambda st, xr, live: _session_create(st, xr)),
    "session_info": (1, False, lambda st, xr, live: f"session_info({xr.choice(BAD_WHATS)})"),
    "session_destroy": (1, False, lambda st, xr, live: f"session_destroy({xr.choice(_dead_handles(st))})"),
    "info": (2, False, _info),
    "process": (5, True, _process),
    "port": (2, True, _port),
    "function": (3, True, lambda st, xr, live: _function(xr, live)),
    "send": (1, True, _send_or_recv("send")),
    "recv": (1, True, _send_or_recv("recv")),
}


def apply_step(st: FuzzState, xr: random.Random) -> str:
    """One `apply trace:FN(ARGS)` step that raises (the model's forms, C-280, C-320), drawn with xr."""
    live = _live_handles(st)
    draws = [kind for kind, (weight, needs_live, _) in _FORMS.items() if live or not needs_live
             for _ in range(weight)]
    return f"apply trace:{_FORMS[xr.choice(draws)][2](st, xr, live)}"
