"""A generator of valid, physically sensible scenarios (cases/README.md), seeded and reproducible.

`scenario(seed, index)` is a pure function: the same seed and index give the
same scenario, byte for byte (random.Random seeded with a string is stable
across runs and Python versions). A scenario is a header plus body lines, each
line one statement whose arguments hold no blanks (terms are written compact),
so that shrinking can drop whole lines and single arguments.

The generator follows the state of the scenario as it writes it (which
processes live, which are blocked in a receive and what their mailboxes hold,
which ports are open and who owns them, who holds a seq_trace token, which
sessions exist) so that it writes only steps the language allows: a step the
model refuses is a bug of this module unless the model documents the refusal.

It writes every step kind and option of cases/README.md, but what the model documents as not
modelled: `'_':'_'/'_'` patterns (they trace the harness's own calls), a tracer process named in a
legacy `trace` step, two tracer states among the legacy `trace` steps of one scenario (one state of
its own, `{tracer, recorder, S}` in every `on` step, is written: `_named_tracer`), valid
`{meta, recorder, S}` options with a state of their own, answers other than `trace` for scheduling
tags (RUN-HARNESS), `remove` for garbage collection tags (GC-RUNTIME), and `cpu_timestamp`.
Library targets (`erlang:phash2/1`, `lists:seq/2`: patterns, calls, `info`), driver ports (`open_port X
driver`, `port_control X busy|not_busy|timer N`, a process a busy port suspends, resumed at the next
step) and a session trace step's error_info forms (`how TERM`, `flags TERM`, `'no_such_process'`) are in
`_library_call`, `_driver_steps` and `_bad_session_trace_step`.
Calls of module trace that raise (`apply trace:FN(ARGS)`, C-280) and busy reload rounds (`tracer reload
while A calls M:F(Args)`, C-281) are in `badcalls` and `busyreload`, drawn from a random stream of their
own, so that a scenario without them is byte for byte the one its seed gave before they were written.
The forms of issues 25 and 26 are drawn from streams of their own too: timed waits, suspend/resume/status,
spawn options, NIF targets, the call paths and long terms (`runtime`), busy loops (`busyloop`), short
blocks of steps for rules a random order reaches too rarely (`blocks`, `reach`), and a peer node with links,
exit signals and messages across the two nodes at the end of a scenario (`dist`).
Steps a release lacks raise the header's `otp` (`call_memory` and `info ... all` need 26, sessions 27,
`trace:system/3` 28), so that older releases skip the scenario with the reason.
"""
from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Final

from . import badcalls, blocks, busyloop, busyreload, dist, reach, runtime
from .state import CHAIN_SHAPES, PORT_NAMES, SPAWN_NAMES, FuzzState, Port

#: The optional callbacks of erl_tracer (cases/README.md "Tracer").
OPTIONAL_CALLBACKS: Final[tuple[str, ...]] = tuple(
    f"{kind}_{cat}" for kind in ("enabled", "trace")
    for cat in ("call", "garbage_collection", "ports", "procs", "receive", "running_ports",
                "running_procs", "send"))
#: The callback sets drawn most often: each category's enabled_X, trace_X, both, and all of them.
#: Every set is one NIF library to compile (the function table decides which callbacks exist):
#: a palette that the build caches keeps a campaign's compilations few; other subsets stay rarer.
CALLBACK_PALETTE: Final[tuple[tuple[str, ...], ...]] = tuple(
    group for cat in ("call", "garbage_collection", "ports", "procs", "receive", "running_ports",
                      "running_procs", "send")
    for group in ((f"enabled_{cat}",), (f"trace_{cat}",), (f"enabled_{cat}", f"trace_{cat}"))
) + (OPTIONAL_CALLBACKS,)
ANSWER_TAGS: Final[tuple[str, ...]] = (
    "send", "'receive'", "call", "return_from", "exception_from", "return_to", "spawn", "spawned",
    "exit", "link", "unlink", "getting_linked", "getting_unlinked", "register", "unregister", "in", "out",
    "in_exiting", "out_exiting", "out_exited", "open", "closed", "gc_minor_start", "gc_minor_end",
    "gc_major_start", "gc_major_end", "seq_trace", "trace_status", "default")
SCHEDULING_TAGS: Final[tuple[str, ...]] = ("in", "out", "in_exiting", "out_exiting", "out_exited")
GC_TAGS: Final[tuple[str, ...]] = ("gc_minor_start", "gc_minor_end", "gc_major_start", "gc_major_end")
ANSWERS: Final[tuple[str, ...]] = ("trace", "discard", "remove")
PROCESS_FLAGS: Final[tuple[str, ...]] = (
    "send", "'receive'", "call", "procs", "arity", "silent", "return_to", "set_on_spawn", "set_on_first_spawn",
    "set_on_link", "set_on_first_link", "timestamp", "monotonic_timestamp", "strict_monotonic_timestamp",
    "scheduler_id", "running", "exiting", "running_procs", "garbage_collection", "ports", "running_ports",
    "cpu_timestamp")
#: Flags that make a process's own events traced at all (the rest modify them).
EVENT_FLAGS: Final[frozenset[str]] = frozenset({
    "send", "'receive'", "call", "procs", "running", "exiting", "running_procs", "garbage_collection",
    "ports", "running_ports", "all"})
PORT_FLAGS: Final[tuple[str, ...]] = ("send", "'receive'", "ports", "running_ports", "timestamp", "scheduler_id")
BAD_FLAGS: Final[tuple[str, ...]] = ("'no_such_flag'", "42", "{silent,true}")
#: Tracer options of a legacy `trace` step that raise (TRACER-OPTION-INVALID, TRACER-MODULE-UNDEF).
BAD_TRACERS: Final[tuple[str, ...]] = ("{tracer,foobar}", "{tracer,make_ref(),[]}", "{tracer,lists,[]}",
                                       "{tracer,no_such_module,[]}")
#: Meta tracer options of a legacy pattern that raise, likewise.
BAD_METAS: Final[tuple[str, ...]] = ("{meta,foobar}", "{meta,make_ref(),[]}", "{meta,lists,[]}",
                                     "{meta,no_such_module,[]}")
SPECS: Final[tuple[str, ...]] = ("all", "processes", "existing", "existing_processes", "new", "new_processes")
TARGET_FUNCTIONS: Final[tuple[tuple[str, int], ...]] = (
    ("id", 1), ("twice", 1), ("tail", 1), ("deep", 1), ("check", 1), ("relay", 1), ("catcher", 1),
    ("top", 1), ("middle", 1), ("bottom", 1))
CALL_MATCH_SPECS: Final[tuple[str, ...]] = (
    "true", "false", "[]",
    "[{'_',[],[{return_trace}]}]",
    "[{'_',[],[{exception_trace}]}]",
    "[{'_',[],[{message,{caller}}]}]",
    "[{['$1'],[{is_integer,'$1'}],[{message,'$1'}]}]",
    "[{['$1'],[{is_atom,'$1'}],[{return_trace},{message,{{'$1',{self}}}}]}]",
    "[{'_',[],[{silent,true}]}]",
    "[{'_',[],[{silent,false},{return_trace}]}]",
    "[{['_'],[],[{message,false}]}]",
    "[{'$1',[{'=:=',{length,'$1'},1}],[{message,{hd,'$1'}}]}]",
    "[{[ok],[],[]},{'_',[],[{exception_trace}]}]",
    "[{'_',[],[{message,{element,1,{{x}}}}]}]",
    "[{'_',[],[{enable_trace,send},{return_trace}]}]",
    "[{'_',[],[{message,{{{disable_trace,call},{get_tcw}}}}]}]",
    "[{['$1'],[],[{message,{trace,[],[procs]}},{display,'$1'},{process_dump}]}]",
    "[{['$1'],[{'andalso',{is_integer,'$1'},{'>','$1',3}}],[{message,{'+','$1',1}}]}]",
    "[{'_',[],[{message,{const,{a,b}}}]}]",
    "[{'$1',[],[{message,'$$'}]}]",
    "[{'_',[],[{message,'$_'}]}]",
    "[{['$1'],[{is_map,'$1'}],[{message,{map_get,k,'$1'}}]}]",
    "[{'_',[],[{set_tcw,3},{message,{get_tcw}}]}]",
    "[{'_',[{'not',{is_seq_trace}}],[{trace,[],[send]}]}]",
    "[{'_',[],[{disable_trace,call},{return_trace}]}]",
    "not_a_match_spec",
    # from the corpus's matchspec cases: a map head (MS-HEAD-MAP), node/0,1 (MS-NODE), a guard that
    # fails (MS-GUARD-FAIL), a body call that raises ('EXIT', MS-BODY-EXIT); and what erts refuses:
    # an action in a guard (MS-GUARD-CONTEXT), an unbound variable (MS-UNBOUND), an unknown function
    # (MS-UNKNOWN-FUNCTION), a head that is no list (MS-HEAD)
    "[{[#{k=>'$1'}],[],[{message,'$1'}]}]",
    "[{['$1'],[{'==',{node},nonode@nohost}],[{message,{{{node},{node,'$1'}}}}]}]",
    "[{['$1'],[{'==',{hd,'$1'},a}],[{message,list}]},{'_',[],[{message,other}]}]",
    "[{['$1'],[],[{message,{{{hd,'$1'},'$1'}}}]}]",
    "[{'_',[{message,x}],[]}]",
    "[{'_',[],[{message,'$1'}]}]",
    "[{'_',[{is_atom,a,b}],[]}]",
    "[{x,[],[]}]",
)
#: Match-spec functions that change trace flags (MS-TRACE-FLAGS, MS-TRACE-FLAGS-META): a caller of a
#: function under such a pattern may be traced afterwards.
FLAG_FUNCTIONS: Final[tuple[str, ...]] = ("enable_trace", "disable_trace", "{trace,")
#: What call counters may be set to (CALL-COUNTERS-*): pause and restart only with counter options.
COUNTER_SPECS: Final[tuple[str, ...]] = ("true", "true", "false", "pause", "restart", "[]",
                                         "[{'_',[],[]}]")   # badarg without local (CALL-COUNTERS-NO-MATCH-SPEC)
COUNTER_OPTIONS: Final[tuple[str, ...]] = ("call_count", "call_time", "call_memory")
#: The items of erlang:trace_info/2 and trace:info/3 for a function (call_memory and all: OTP 26+).
FUNCTION_ITEMS: Final[tuple[str, ...]] = (
    "traced", "match_spec", "meta", "meta_match_spec", "call_count", "call_time", "call_memory", "all")
#: The library targets (LIB-TARGET-*, C-180..C-182): the only functions of OTP a case may name, exactly.
LIBRARY_TARGETS: Final[tuple[str, ...]] = ("erlang:phash2/1", "lists:seq/2")
#: Functions an `info {M,F,A}` step asks about: the fixture's, one that does not exist, tcs_late's,
#: the library targets.
INFO_FUNCTIONS: Final[tuple[str, ...]] = tuple(
    f"{{tcs_target,{fn},{arity}}}" for fn, arity in TARGET_FUNCTIONS) + (
    "{tcs_target,id,2}", "{tcs_late,id,1}", "{erlang,phash2,1}", "{lists,seq,2}")
#: Integers at the bounds of make_hash2's forms (LIB-TARGET-BIF): one 32-bit word up to 28 bits, two words
#: beyond, a bignum from 2^59 on a 64-bit node, and the largest the language writes.
PHASH2_INTEGERS: Final[tuple[int, ...]] = (
    -134217728, 134217727, -134217729, 134217728, 4294967295, 4294967296, -4294967296,
    576460752303423487, 576460752303423488, -576460752303423489, 9223372036854775807, -9223372036854775807)
#: What a session trace step's error_info forms pass (SESSION-BAD-HOW, SESSION-FLAGS-NO-LIST,
#: SESSION-NO-PROCESS; OTP's trace_session_SUITE error_info/1): a How that is no boolean, a
#: FlagList that is no proper list, an atom that names no process.
BAD_HOWS: Final[tuple[str, ...]] = ("sometimes", "1", "[true]", "{true}")
BAD_FLAG_LISTS: Final[tuple[str, ...]] = ("send", "[send|'receive']", "[send|x]", "{send}")
NO_PROCESSES: Final[tuple[str, ...]] = ("'no_such_process'", "'nobody'")
#: What a port_command or port_send passes to a port.
PORT_DATA: Final[tuple[str, ...]] = ('<<"hi">>', "<<1,2>>", "<<>>", '<<"x">>')
#: The port specs of a session's trace:port/4 (SESSION-PORT-SPEC-ALL, `port(new)` and `new_ports`).
PORT_SPECS: Final[tuple[str, ...]] = ("port(new)", "new_ports", "port(all)", "port(existing)")
SEND_MATCH_SPECS: Final[tuple[str, ...]] = (
    "true", "false", "[]",
    "[{['_',hello],[],[]}]",
    "[{['$1','_'],[{is_pid,'$1'}],[]}]",
    "[{['_','$1'],[{is_atom,'$1'}],[{message,'$1'}]}]",
    "[{['_','_'],[],[{message,{caller}}]}]",
    "[{['_',{'_','_'}],[],[]}]",
    "[{['_',stop],[],[{disable_trace,send},{message,{is_seq_trace}}]}]",
    "[{['$1','_'],[{'=/=','$1',{self}}],[{message,{const,away}}]}]",
    "pause",
    # call actions in a message pattern do nothing (MSGPAT-CALL-ACTIONS); {silent,false} on a match
    # (MSGPAT-SILENT-ACTION)
    "[{'_',[],[{return_trace},{exception_trace}]}]",
    "[{['_',hello],[],[{silent,false}]},{'_',[],[]}]",
)
RECEIVE_MATCH_SPECS: Final[tuple[str, ...]] = (
    "true", "false", "[]",
    "[{['_','_',hello],[],[]}]",
    "[{[clock_service,'_','_'],[],[]}]",
    "[{['_','$1','_'],[{is_pid,'$1'}],[]}]",
    "[{['_','_','$1'],[{is_atom,'$1'}],[{message,'$1'}]}]",
    "[{'_',[],[{silent,true}]}]",
    "[{'_',[],[{exception_trace},{return_trace}]}]",
)
SEQ_COMPONENTS: Final[tuple[str, ...]] = (
    "send", "'receive'", "print", "timestamp", "monotonic_timestamp", "strict_monotonic_timestamp")
ATOMS: Final[tuple[str, ...]] = ("hello", "ok", "ping", "x", "'hello world'", "stop", "normal")
#: Registered names no OTP node has already (`logger` is the logger's process).
NAMES: Final[tuple[str, ...]] = ("alpha", "beta", "gamma")
SESSION_NAMES: Final[tuple[str, ...]] = ("sa", "sb", "sp")
#: Tracer states of the case's own (STATE-ANY-TERM): OTP's tracer_SUITE passes the first.
TRACER_STATES: Final[tuple[str, ...]] = (
    "{#{send=>trace},<tracer>,{fun()->ok end,<<0:1024>>}}", "[]", "42", "{own,<tracer>,make_ref()}",
    "#{k=>fun()->x end}")
#: Tracer states a scenario's legacy trace steps may name (`_named_tracer`), written without blanks;
#: no make_ref(), which would be another state at each step.
STEP_STATES: Final[tuple[str, ...]] = ("spec_state", "{spec,<tracer>,[1,2]}", "#{k=>[<tracer>]}", "42")
#: Exit signal reasons (`P kill Q R`, `P exit R`).
EXIT_REASONS: Final[tuple[str, ...]] = ("normal", "kill", "die", "boom", "{shutdown,x}")
#: The chance, at each step of a scenario with sessions, of an `apply` step before it (C-280), and,
#: in one without, of a busy reload round (C-281) where the scenario allows one.
APPLY_CHANCE: Final[float] = 0.05
#: How often a scenario with a tracer process and no sessions makes a port the tracer (`tracer port`,
#: PORT-TRACER): then it may have a seq tracer too, the port (PORT-TRACER-SEQ).
TRACER_PORT_CHANCE: Final[float] = 0.5
#: The chance that the end of a tracer port is a burst, `kill_all tracer P...` (KILL-ALL-PORT-OWNER),
#: not `tracer exit R`.
KILL_ALL_CHANCE: Final[float] = 0.5
#: The chance that such a burst is repeated by the harness (`rounds N`, KILL-ALL-ROUNDS), and the most
#: rounds it then does: a few, as each may crash the node (C-502, a may-crash prediction).
KILL_ALL_ROUNDS_CHANCE: Final[float] = 0.5
KILL_ALL_ROUNDS_MOST: Final[int] = 5
#: The chance that a restart of call counters is repeated by the harness (`rounds N`,
#: PATTERN-RESTART-ROUNDS), and the most rounds it then does: a few, to keep scenarios fast.
PATTERN_ROUNDS_CHANCE: Final[float] = 0.3
PATTERN_ROUNDS_MOST: Final[int] = 20
#: The chance that a `trace SPEC on` step where nothing is traced yet becomes `trace SPEC on call rounds
#: N` (PROCS-SPEC-ROUNDS, with a tracer process and no sessions), the most rounds it then makes, and the
#: chance of a time bound (`within MS`, at most TRACE_ROUNDS_MS_MOST): a few, to keep scenarios fast.
TRACE_ROUNDS_CHANCE: Final[float] = 0.5
TRACE_ROUNDS_MOST: Final[int] = 20
TRACE_ROUNDS_WITHIN_CHANCE: Final[float] = 0.5
TRACE_ROUNDS_MS_MOST: Final[int] = 50
BUSY_RELOAD_CHANCE: Final[float] = 0.03
#: The chance, at each step of a scenario without sessions, of a busy loop block (C-447) where the
#: scenario allows one.
BUSY_LOOP_CHANCE: Final[float] = 0.01
#: The chance that a scenario with a tracer process makes it the seq_trace system tracer (SEQ-TRACER-PROCESS).
SEQ_PROCESS_CHANCE: Final[float] = 0.25
#: The chance that a tracer process (no tracer port) reads call messages' binaries with the bit syntax,
#: `tracer process match_binaries` (CALL-MATCH-CONTEXT-READ; C-540 where a block calls bs_sum_a/2).
MATCH_BINARIES_CHANCE: Final[float] = 0.5
#: trace:system/3 settings the steps of a scenario do not reach, and refused ones (SYSMON-*). Not
#: long_message_queue {10,11}, the lowest the model takes: a harness process (the collector of a meta
#: pattern's reports) reached it (fuzz seed 26112026, OTP 29). Not a long_schedule limit, which would stay
#: set while later steps spawn, open ports or create sessions (the model refuses them then: C-730); it is
#: set and cleared around a sleep (reach.session_long_schedule).
SYSTEM_SETTINGS: Final[tuple[str, ...]] = (
    "long_gc 5000", "long_schedule false", "large_heap 100000000", "long_message_queue {22,33}",
    "busy_port true", "busy_port false", "long_gc false", "long_message_queue false", "busy_dist_port true",
    "long_gc -1", "long_message_queue {33,22}", "no_such_event true")


@dataclass(frozen=True)
class Scenario:
    """One generated case: header fields and body lines (declarations after the header, then steps)."""
    id: str
    otp: int
    features: tuple[str, ...]
    body: tuple[str, ...]
    rules: tuple[str, ...] = ("FUZZ",)
    desc: str = "generated by ./tcs fuzz"
    comments: tuple[str, ...] = ()

    def text(self) -> str:
        """The scenario as a .tcs file."""
        head = [f"% {c}" for c in self.comments]
        head += [f"case     {self.id}", f"rules    {' '.join(self.rules)}", f'desc     "{self.desc}"',
                 f"otp      {self.otp}"]
        if self.features:
            head.append(f"features {' '.join(self.features)}")
        return "\n".join(head + [""] + list(self.body)) + "\n"

    def with_body(self, body: tuple[str, ...]) -> "Scenario":
        """The same scenario with other body lines."""
        return replace(self, body=body)


def _term(st: FuzzState, depth: int = 0, pids: bool = True) -> str:
    """A small compact term: atoms, integers, binaries, strings, tuples, lists, maps, and (with pids) pids
    of the scenario."""
    if depth == 0 and (long := runtime.long_term(st, lambda: _term(st, depth + 1, pids))) is not None:
        return long
    r = st.rng.random()
    if r < 0.3 or depth > 1:
        return st.pick(ATOMS)
    if r < 0.45:
        return str(st.rng.randrange(-3, 100))
    if r < 0.55 and pids and st.every_name():
        return f"<{st.pick(st.every_name())}>"
    if r < 0.62:
        return f"<<{st.rng.randrange(256)},{st.rng.randrange(256)}>>"
    if r < 0.67:
        return '"ab"'
    if r < 0.8:
        return "{" + ",".join(_term(st, depth + 1, pids) for _ in range(st.rng.randrange(1, 4))) + "}"
    if r < 0.92:
        return "[" + ",".join(_term(st, depth + 1, pids) for _ in range(st.rng.randrange(0, 3))) + "]"
    return "#{" + f"k=>{_term(st, depth + 1, pids)}" + "}"


def _flags(st: FuzzState, pool: tuple[str, ...], most: int = 4, bad: tuple[str, ...] = BAD_FLAGS) -> list[str]:
    flags = st.rng.sample(pool, st.rng.randrange(1, most + 1))
    if st.rng.random() < 0.04 and "scheduler_id" in pool:    # `all` holds scheduler_id
        flags = ["all"]
    if st.rng.random() < 0.02 and bad:     # none for a session with tracer undefined
        flags.append(st.pick(bad))
    return flags


def _mark_traced(st: FuzzState, who: list[str], flags: list[str]) -> None:
    for p in who:
        st.traced.add(p)
        if {"send", "'receive'", "all"} & set(flags):
            st.traced_sr.add(p)


def _traceable(st: FuzzState) -> list[str]:
    """Processes a trace step may name: those outside the seq_trace group."""
    return [p for p in st.every_name() if p not in st.seq_group]


def _legacy_pool(st: FuzzState, pool: tuple[str, ...]) -> tuple[str, ...]:
    """The flags a legacy step draws from: no scheduler ids in a tracer process's messages (not modelled)."""
    return tuple(f for f in pool if f != "scheduler_id") if st.legacy_process else pool


def _tracer_option(st: FuzzState, how: str) -> list[str]:
    """Now and then a tracer named by an `on` step (TRACER-OPTION): an invalid one, which raises, or the
    recorder with the harness's state, the one the step would pass anyway."""
    r = st.rng.random()
    if how == "off":
        return []
    if r < 0.03:
        return [st.pick(BAD_TRACERS)]
    if r < 0.05 and st.recorder and not st.own_state and not st.step_state:
        return ["{tracer,recorder,<tracer>}"]
    return []


def _named_tracer(st: FuzzState, how: str, flags: list[str]) -> list[str]:
    """In a scenario whose legacy trace steps name a tracer state of their own (st.step_state), the
    `{tracer,recorder,S}` of an `on` step that names no tracer yet: every process and port, and the
    defaults for new ones, then have that one tracer (PROCS-NEW-TRACER, PROCS-SPEC-TRACER); a second
    state would be refused where a spec reaches a process the other traces (C-315)."""
    if not st.step_state or how == "off" or any(f.startswith("{tracer") for f in flags):
        return []
    return [f"{{tracer,recorder,{st.step_state}}}"]


def _rounds_allowed(st: FuzzState, spec: str, how: str) -> bool:
    """Whether a legacy `trace SPEC on` step may repeat itself as `trace SPEC on call rounds N`
    (PROCS-SPEC-ROUNDS): a spec naming existing processes, a tracer process (no port, not exited), no
    sessions, and nothing traced so far, nor by a pattern's match spec (the off between the rounds must
    give back the state before the step)."""
    return (how == "on" and spec in ("all", "processes", "existing", "existing_processes") and st.legacy_process
            and not st.tracer_port and not st.tracer_gone and not st.sessions and not st.traced
            and not st.new_traced and not st.meta and not st.flag_functions and not st.step_state)


def _trace_rounds(st: FuzzState) -> str:
    """The ` rounds N [within MS]` of a `trace SPEC on call` step, drawn from the second stream (xr)."""
    within = f" within {st.xr.randint(1, TRACE_ROUNDS_MS_MOST)}" if st.xr.random() < TRACE_ROUNDS_WITHIN_CHANCE else ""
    return f" rounds {st.xr.randint(2, TRACE_ROUNDS_MOST)}{within}"


def _trace_step(st: FuzzState) -> str | None:
    how = "off" if st.rng.random() < 0.15 else "on"
    r = st.rng.random()
    ports = [x for x, p in st.ports.items() if p.open or st.rng.random() < 0.2]
    if r < 0.12 and not st.seq_group and not st.token:
        spec = st.pick(SPECS)
        flags = _flags(st, _legacy_pool(st, PROCESS_FLAGS))
        rounds = ""
        if _rounds_allowed(st, spec, how) and st.xr.random() < TRACE_ROUNDS_CHANCE:
            flags, rounds = ["call"], _trace_rounds(st)   # st.xr: other scenarios kept
        if how == "on":
            if spec in ("all", "processes", "existing", "existing_processes"):
                _mark_traced(st, st.alive, flags)
            if spec in ("all", "processes", "new", "new_processes"):
                st.new_traced = True
                st.new_sr |= bool({"send", "'receive'", "all"} & set(flags))
        return f"trace {spec} {how} {' '.join(flags + _named_tracer(st, how, flags))}{rounds}"
    if r < 0.18:
        st.new_ports_traced |= how == "on"
        flags = _flags(st, _legacy_pool(st, PORT_FLAGS), 3)
        return f"trace new_ports {how} {' '.join(flags + _named_tracer(st, how, flags))}"
    if r < 0.3 and ports:
        port = st.pick(ports)
        flags = _flags(st, _legacy_pool(st, PORT_FLAGS), 3)
        return f"trace {port} {how} {' '.join(flags + _named_tracer(st, how, flags))}"
    who = _traceable(st)
    if not who:
        return None
    p = st.pick(who)
    flags = _flags(st, _legacy_pool(st, PROCESS_FLAGS))
    if how == "on" and "call" in flags and "return_to" not in flags and st.rng.random() < 0.4:
        flags.append("return_to")   # local patterns then give return_to (CALL-RETURN-TO-*)
    flags += _tracer_option(st, how)
    flags += _named_tracer(st, how, flags)
    if how == "on":
        _mark_traced(st, [p], flags)
    return f"trace {p} {how} {' '.join(flags)}"


def _chain_script(st: FuzzState, fn: str) -> str:
    """The argument of a call of `fn` in the chain top -> middle -> bottom: the shapes of the
    calls below it, then how bottom/1 ends."""
    script = [f"{{'catch',{st.pick(['local', 'extern'])}}}"] if fn == "top" else []
    if fn != "bottom":
        script.append(f"{{{st.pick(CHAIN_SHAPES)},{st.pick(['local', 'extern'])}}}")
    script.append(st.pick(["return", "exception"]))
    return "[" + ",".join(script) + "]"


def _counter_pattern(st: FuzzState, target: str, session: str | None) -> str:
    """Call counters on `target` (CALL-COUNTERS-*): one or two of call_count, call_time, call_memory
    (OTP 26+), set, paused, restarted or stopped; `local` sometimes beside true or false; a restart
    of a legacy pattern (session None) sometimes repeated (PATTERN-RESTART-ROUNDS)."""
    opts = st.rng.sample(COUNTER_OPTIONS, st.rng.randrange(1, 3))
    if "call_memory" in opts:
        st.needs(26, "call_memory")
    ms = st.pick(COUNTER_SPECS)
    if ms in ("true", "false") and st.rng.random() < 0.2:
        opts.append("local")
    if ms == "restart" and session is None and st.xr.random() < PATTERN_ROUNDS_CHANCE:  # st.xr: older seeds' scenarios kept
        opts.append(f"rounds {st.xr.randint(2, PATTERN_ROUNDS_MOST)}")
    return f"pattern {target} {ms} {' '.join(opts)}"


def _pattern_step(st: FuzzState, session: str | None = None) -> str:
    """A legacy pattern (session None), or the arguments of a session's, as a `pattern` line."""
    r = st.rng.random()
    if r < 0.12 and st.late_loaded:
        # a new version loaded over it (CALL-RELOAD-NEW-INSTANCE; a second is not_purged:
        # CALL-RELOAD-NOT-PURGED), or deleted and purged: its next call loads it again
        st.late_loaded = r < 0.04
        return "load tcs_late" if st.late_loaded else "unload tcs_late"
    if r < 0.02:   # loaded by the harness before any call (no old code)
        st.late_loaded = True
        return "load tcs_late"
    if session in (None, "legacy"):
        meta_ok = not st.trace_call and not st.tracer_port   # {meta, Port} is not modelled
    else:   # a session with tracer undefined has no tracer to be the meta tracer
        meta_ok = st.sessions.get(session) != "undefined" and session not in st.no_meta
    opts = st.pick([[], ["global"], ["local"], ["bad_option"]]
                   + ([["meta"], ["local", "meta"], ["global", "meta"]] if meta_ok else []))
    if session is None and st.rng.random() < 0.03:
        opts = [st.pick(BAD_METAS)]
    if r < 0.15:   # an option is badarg for a message pattern (MSGPAT-NO-OPTIONS, MSGPAT-BAD-OPTION)
        return f"pattern send {st.pick(SEND_MATCH_SPECS)}" + (st.pick([" global", " foo"]) if st.rng.random() < 0.05 else "")
    if r < 0.28:
        return f"pattern 'receive' {st.pick(RECEIVE_MATCH_SPECS)}"
    if r < 0.35:   # counters too (CALL-COUNTERS-ON-LOAD)
        how = st.pick(["local", "global", "call_count", "call_time"])
        if how.startswith("call_"):
            return f"pattern on_load {st.pick(COUNTER_SPECS[:3])} {how}"
        return f"pattern on_load {st.pick(CALL_MATCH_SPECS[:5])} {how}"
    fn, arity = st.pick(TARGET_FUNCTIONS)
    # not '_':'_'/'_': a pattern on every module traces the harness's own calls in the scenario's
    # processes (the puppet's gate, open_port/2), which no scenario describes; '_':id/1 is badarg
    target = st.pick([f"tcs_target:{fn}/{arity}", f"tcs_target:{fn}/'_'", "tcs_target:'_'/'_'",
                      "tcs_late:id/1", "'_':id/1", *LIBRARY_TARGETS])
    target = runtime.nif_target(st, target)
    if target in LIBRARY_TARGETS:
        st.features.add("library_targets")
        # a child spawned at {lists,seq,...} would enter the pattern's function (LIB-TARGET-EXACT)
        st.seq_patterned |= target == "lists:seq/2"
        st.lib_patterned = True
    if r < 0.5:
        if target.startswith(("tcs_target:", "'_':")):
            fn = target.split(":")[1].split("/")[0]
            st.counted.add("*" if fn == "'_'" else fn)
        return _counter_pattern(st, target, session)
    st.meta |= "meta" in opts
    spec = st.pick(CALL_MATCH_SPECS)
    # a caller may get trace flags from the spec (MS-TRACE-FLAGS; for a meta pattern's caller that the
    # session does not trace, MS-TRACE-FLAGS-META): calls are made as if by a traced process from now on
    st.flag_functions |= any(f in spec for f in FLAG_FUNCTIONS)
    return f"pattern {target} {spec} {' '.join(opts)}".rstrip()


def _die(st: FuzzState, who: str, reason_normal: bool) -> None:
    """`who` exits: its ports close, an abnormal exit kills what it is linked to (a process trapping
    exits gets an 'EXIT' message instead, for a normal exit too), and its watchers get a 'DOWN'."""
    pending = [(who, reason_normal)]
    while pending:
        p, normal = pending.pop()
        if p in st.dead or p not in st.alive:
            continue
        if p != who and p in st.trapping:   # the exit signal of a port closed abnormally: a message
            _deliver(st, p, False)
            continue
        for watcher, _ in [m for m in st.monitors if m[1] == p]:
            _deliver(st, watcher, False)
        st.monitors = [m for m in st.monitors if p not in m]
        st.alive.remove(p)
        st.dead.add(p)
        st.blocked.discard(p)
        st.token.discard(p)
        st.names = {n: o for n, o in st.names.items() if o != p}
        for link in [ln for ln in st.links if p in ln]:
            st.links.discard(link)
            (other,) = link - {p}
            if other in st.ports:
                port = st.ports[other]
                port.linked.discard(p)
                if not normal and port.open:
                    _close_port(st, other)
                    pending += [(q, False) for q in port.linked]
            elif other in st.trapping:
                _deliver(st, other, False)
            elif not normal:
                pending.append((other, False))
        for x, port in st.ports.items():
            if port.owner == p and port.open:
                _close_port(st, x)
                if not normal:
                    pending += [(q, False) for q in port.linked]


def _max_heap_spawn(st: FuzzState, parent: str, how: str, child: str) -> str:
    """A child running {lists,seq,[1,L]} with a max_heap_size (PROCS-MAX-HEAP-KILL) the model knows the
    end of: killed when the list has at least as many elements as the limit has words, normal when 64
    times its length plus 10000 fits (the heap growth policy decides between)."""
    if st.rng.random() < 0.5:
        words = st.pick([20000, 50000])
        _die(st, child, False)      # exit reason killed: a signal its links can trap
        return f"{parent} {how} {child} {{lists,seq,[1,{words * st.pick([1, 4])}]}} max_heap_size {words}"
    length = st.rng.randrange(1, 200)
    _die(st, child, True)
    return f"{parent} {how} {child} {{lists,seq,[1,{length}]}} max_heap_size {64 * length + 10000 + st.rng.randrange(0, 5000)}"


def _entangled(st: FuzzState, p: str) -> bool:
    """Whether p has links or is monitored: its exit would send signals (a token holder's carry
    the token, which model v1 leaves out)."""
    return any(p in link for link in st.links) or any(watched == p for _, watched in st.monitors)


def _close_port(st: FuzzState, x: str) -> None:
    port = st.ports[x]
    port.open = False
    st.names = {n: o for n, o in st.names.items() if o != x}
    st.links = {ln for ln in st.links if x not in ln}


def _deliver(st: FuzzState, to: str, carries: bool, term: str | None = None) -> None:
    if to in st.dead:
        return
    if to in st.blocked:
        st.blocked.discard(to)
        if carries:
            st.token.add(to)
        return
    st.mailbox.setdefault(to, []).append((term, carries))


def _library_call(st: FuzzState, p: str) -> str:
    """A call of a library target (LIB-TARGET-BIF, LIB-TARGET-SEQ): erlang:phash2/1 of an atom, of an
    integer of any size the language writes, or of a compound term without pids (whose hash is the node's,
    which the model refuses); lists:seq/2 of a short list, or of arguments it refuses (function_clause)."""
    st.features.add("library_targets")
    if st.rng.random() < 0.5:
        r = st.rng.random()
        arg = (st.pick([a for a in ATOMS if " " not in a]) if r < 0.25
               else str(st.rng.randrange(-1000, 1000)) if r < 0.45
               else str(st.pick(PHASH2_INTEGERS)) if r < 0.55
               else str(st.rng.randrange(-(1 << 63) + 1, 1 << 63)) if r < 0.6
               else _term(st, pids=False))
        return f"{p} call erlang:phash2({arg})"
    r = st.rng.random()
    low = st.rng.randrange(-3, 10)
    if r < 0.8:
        args = f"{low},{low + st.rng.randrange(-1, 25)}"
    elif r < 0.9:       # From - 1 > To
        args = f"{low},{low - st.rng.randrange(2, 5)}"
    else:               # not two integers
        args = st.pick([f"a,{low}", f"{low},[]"])
    return f"{p} call lists:seq({args})"


def _suspend(st: FuzzState, p: str, x: str, data: str) -> list[str]:
    """p's port_command to the busy driver port x, which suspends p (PORTS-DRIVER-BUSY), and another
    process clearing the busy state at the next step, which resumes p and runs its command, whose echo
    reaches the owner (PORTS-DRIVER-RESUME): the two lines, or none when no other process can clear the
    state; a p that may be traced (for running: RUN-SUSPENDED-BUSY-PORT) only now and then (st.xr), so that
    the scenarios of a seed mostly stay as they were."""
    clearers = [r for r in st.free() if r != p and r not in st.token and r not in st.seq_group]
    # a traced one now and then: scheduled out and in at its command (RUN-SUSPENDED-BUSY-PORT)
    if (p in st.traced and st.xr.random() >= runtime.TRACED_SUSPEND_CHANCE) or not clearers:
        return []
    st.ports[x].busy = False
    _deliver(st, st.ports[x].owner, False)
    # the owner may send it as a message instead, suspended the same way (PORTS-DRIVER-BUSY-SEND)
    how = "port_send" if p == st.ports[x].owner and st.rng.random() < 0.5 else "port_command"
    return [f"{p} {how} {x} {data}", f"{st.pick(clearers)} port_control {x} not_busy"]


def _port_control(st: FuzzState, actor: _Actor) -> str | None:
    """`P port_control X busy|not_busy|timer N` on an open driver port (PORTS-DRIVER-CONTROL): the timer's
    timeout sends data to the owner (PORTS-DRIVER-TIMEOUT), which must not wait in a receive then. Setting
    the port busy is often followed by a process it suspends (`_suspend`)."""
    p = actor.who
    usable = [x for x, port in st.ports.items() if port.driver and port.open and port.owner not in st.blocked]
    if not usable:
        return None
    x = st.pick(usable)
    port = st.ports[x]
    item = st.pick(["busy", "busy", "not_busy", "timer"])
    if item == "timer":
        _deliver(st, port.owner, False)
        return f"{p} port_control {x} timer {st.pick([0, 0, 5, 20])}"
    port.busy = item == "busy"
    senders = [q for q in st.free() if q not in st.token and q not in st.seq_group]
    if port.busy and senders and st.rng.random() < 0.6:
        owner = port.owner if port.owner in senders and st.rng.random() < 0.3 else None
        st.then += _suspend(st, owner or st.pick(senders), x, st.pick(PORT_DATA))
    return f"{p} port_control {x} {item}"


@dataclass(frozen=True)
class _Actor:
    """The process a process step acts in, as the step's draw found the scenario."""
    who: str
    holds_token: bool           # who holds a seq_trace token
    others: tuple[str, ...]     # every other process of the scenario, alive or dead


@dataclass(frozen=True)
class _ProcessStepKind:
    """A kind of process step: how many times it is among the draws when its actor may take it, and
    its writer (None: the step is not possible now; nothing is written)."""
    weight: int
    allowed: Callable[[FuzzState, _Actor], bool]
    write: Callable[[FuzzState, _Actor], str | None]


def _send(st: FuzzState, actor: _Actor) -> str | None:
    """`P send Q TERM [times N]`: a token holder's message goes only where the token may go."""
    p, holder, others = actor.who, actor.holds_token, actor.others
    if holder:   # the token goes with the message: only to processes never traced (C-65), and
        # with no links nor monitors (the exit signals of a holder carry its token: not modelled)
        others = [q for q in others if q not in st.traced and not _entangled(st, q)]
    to = st.pick(others) if others and st.rng.random() < 0.9 else p
    if holder:
        st.seq_group.add(to)
    term = _term(st)
    times = st.rng.randrange(2, 31) if not holder and st.rng.random() < 0.08 else 1
    for _ in range(times):
        _deliver(st, to, holder, term)
    return f"{p} send {to} {term}" + (f" times {times}" if times > 1 else "")


def _recv(st: FuzzState, actor: _Actor) -> str | None:
    """`P recv [match TERM | times N | after T]`: a message of P's mailbox, or a wait (a blocked P)."""
    p = actor.who
    box = st.mailbox.get(p, [])
    known = [term for term, _ in box if term is not None]
    if known and st.rng.random() < 0.3:    # RECV-SELECTIVE: the oldest message equal to the term
        term = st.pick(known)
        at = next(i for i, (t, _) in enumerate(box) if t == term)
        if box.pop(at)[1]:
            st.token.add(p)
        return f"{p} recv match {term}"
    if len(box) > 1 and st.rng.random() < 0.2:   # the oldest N messages, each a step of its own
        n = st.rng.randrange(2, len(box) + 1)
        for _ in range(n):
            if box.pop(0)[1]:
                st.token.add(p)
        return f"{p} recv times {n}"
    if box:
        if box.pop(0)[1]:
            st.token.add(p)
        return f"{p} recv" + (" after 0" if st.rng.random() < 0.2 else "")
    # a traced process too, now and then: traced for running, scheduled out and in at the wait (RUN-TIMEOUT)
    if st.rng.random() < 0.4 and (p not in st.traced or st.xr.random() < runtime.TRACED_TIMEOUT_CHANCE):
        return f"{p} recv after {st.pick([0, 0, 5])}"
    if st.rng.random() < 0.5:
        return f"{p} recv after 0"
    st.blocked.add(p)
    return f"{p} recv"


def _call(st: FuzzState, actor: _Actor) -> str | None:
    """`P call M:F(Args)`: a function of the fixture, tcs_late, or a library target."""
    p, holder = actor.who, actor.holds_token
    if holder and st.meta and st.seq_tracer and st.seq_traced_flag:
        return None   # the recorder's report of a meta-traced call, or its receipt, would be traced (C-65)
    if st.flag_functions:
        if p in st.seq_group:
            return None   # a pattern could trace a process of the seq_trace group (C-65)
        _mark_traced(st, [p], ["all"])
    if (nif := runtime.nif_call(st, p, lambda: _term(st))) is not None:
        return nif + runtime.call_path(st)
    if (test := runtime.ms_test(st, p, lambda: _term(st))) is not None:
        return test
    if st.rng.random() < (0.45 if st.lib_patterned else 0.1):   # calls the patterns see, mostly
        return _library_call(st, p) + runtime.call_path(st)
    if not st.late_loaded and st.rng.random() < 0.15 and p not in st.traced_sr and not holder:
        st.late_loaded = True
        return f"{p} call tcs_late:id({_term(st)})" + runtime.call_path(st)
    fn, _ = st.pick(TARGET_FUNCTIONS)
    arg = "ok" if fn == "check" and st.rng.random() < 0.5 else _term(st)
    if fn in ("top", "middle", "bottom"):
        arg = _chain_script(st, fn)
    return f"{p} call tcs_target:{fn}({arg})" + runtime.call_path(st)


def _gc(st: FuzzState, actor: _Actor) -> str | None:
    """`P gc [minor|major]`: never a major collection right after a minor one of P's (GC-MINOR-FULLSWEEP)."""
    p = actor.who
    minor = st.rng.random() < 0.4 and p not in st.fullsweep   # refused with fullsweep_after
    if not minor and p in st.last_minor_gc:
        minor = True
    (st.last_minor_gc.add if minor else st.last_minor_gc.discard)(p)
    return f"{p} gc" + (" minor" if minor else st.pick(["", " major"]))


def _register(st: FuzzState, actor: _Actor) -> str | None:
    """`P register NAME [X]`: P or one of its ports under a name."""
    p = actor.who
    name = st.pick(NAMES)
    mine = [x for x, port in st.ports.items() if port.open and not port.named and x not in st.names.values()]
    if mine and st.rng.random() < 0.3 and name not in st.names:
        x = st.pick(mine)
        st.names[name] = x
        st.ports[x].named = True
        return f"{p} register {name} {x}"
    if name not in st.names and p not in st.names.values():
        st.names[name] = p
    return f"{p} register {name}"


def _unregister(st: FuzzState, actor: _Actor) -> str | None:
    """`P unregister NAME`."""
    p = actor.who
    name = st.pick(NAMES)
    if name in st.names:
        del st.names[name]
    return f"{p} unregister {name}"


def _spawn(st: FuzzState, actor: _Actor) -> str | None:
    """`P spawn|spawn_link C [ENTRY [max_heap_size W]]`: a child, which may inherit P's flags."""
    p = actor.who
    child = st.fresh(SPAWN_NAMES)
    if child is None:
        return None
    st.alive.append(child)
    how = "spawn" if p in st.seq_group else st.pick(["spawn", "spawn_link"])
    if how == "spawn_link":
        st.links.add(frozenset({p, child}))
    # an entry point (PROCS-SPAWN-ENTRY) runs and exits normal at once; the model refuses a
    # child traced for more than procs, so only where nothing can pass flags on to it
    if not st.new_traced and p not in st.traced and not st.seq_patterned and st.rng.random() < 0.3:
        if st.rng.random() < 0.4:
            return _max_heap_spawn(st, p, how, child)
        low = st.rng.randrange(0, 5)
        _die(st, child, True)
        return f"{p} {how} {child} {{lists,seq,[{low},{low + st.rng.randrange(-1, 4)}]}}"
    if st.new_traced or p in st.traced:
        st.traced.add(child)
    if st.new_sr or p in st.traced_sr:
        st.traced_sr.add(child)
    return f"{p} {how} {child}" + runtime.spawn_options(st, child)


def _link_or_unlink(st: FuzzState, actor: _Actor, kind: str) -> str | None:
    """`P link|unlink Q`: a process or a port, never one of the seq_trace group."""
    p, others = actor.who, actor.others
    # a link to a seq_trace process could make it traced (set_on_link), which C-65 forbids
    if kind == "link" and p in st.seq_group:
        return None   # a holder's links carry its token when it exits (not modelled)
    targets = [q for q in others if q not in st.seq_group]
    targets += [x for x, port in st.ports.items() if port.open]
    targets = [q for q in dict.fromkeys(targets) if q != p]
    if not targets:
        return None
    q = st.pick(targets)
    if q in st.ports:
        port = st.ports[q]
        if kind == "link":
            if p in port.linked:
                return None       # linking an already linked port: not modelled
            port.linked.add(p)
            st.links.add(frozenset({p, q}))
        else:
            if p not in port.linked:
                return None       # unlinking a port that is not linked: not modelled
            port.linked.discard(p)
            st.links.discard(frozenset({p, q}))
        return f"{p} {kind} {q}"
    if kind == "link" and q in st.alive:
        st.links.add(frozenset({p, q}))
        # set_on_link (or all) passes the flags on: both may be traced from now on
        for traced in (st.traced, st.traced_sr):
            if {p, q} & traced:
                traced |= {p, q}
    elif kind == "unlink":
        st.links.discard(frozenset({p, q}))
    return f"{p} {kind} {q}"


def _exit_self(st: FuzzState, actor: _Actor) -> str | None:
    """`P exit REASON`: P ends, and its links and monitors with it (`_die`)."""
    p = actor.who
    reason = st.pick(["normal", "normal", "kill", "boom", "{shutdown,x}"])
    _die(st, p, reason == "normal")
    return f"{p} exit {reason}"


def _kill(st: FuzzState, actor: _Actor) -> str | None:
    """`P kill Q REASON`: an exit signal (SIGNAL-*) to another process, alive or not."""
    p, others = actor.who, actor.others
    if not others or not (targets := [q for q in others if q not in st.ports]):
        return None
    q, reason = st.pick(targets), st.pick(EXIT_REASONS)
    if q in st.alive:
        if reason == "kill":
            _die(st, q, False)
        elif q in st.trapping:
            _deliver(st, q, False)
        elif reason != "normal":
            _die(st, q, False)
    return f"{p} kill {q} {reason}"


def _trap_exit(st: FuzzState, actor: _Actor) -> str | None:
    """`P trap_exit true|false`."""
    p = actor.who
    on = st.rng.random() < 0.7
    (st.trapping.add if on else st.trapping.discard)(p)
    return f"{p} trap_exit {'true' if on else 'false'}"


def _monitor(st: FuzzState, actor: _Actor) -> str | None:
    """`P monitor Q`: not of a seq_trace process (its 'DOWN' would carry its token)."""
    p, others = actor.who, actor.others
    targets = [q for q in others if q not in st.ports and q not in st.seq_group]
    if not targets:
        return None
    q = st.pick(targets)
    if q in st.alive:
        st.monitors.append((p, q))
    else:        # SIGNAL-DOWN: at once, noproc
        _deliver(st, p, False)
    return f"{p} monitor {q}"


def _send_name(st: FuzzState, actor: _Actor) -> str | None:
    """`P send_name NAME TERM` (SEND-NAME): to a name of a process, or to none (badarg)."""
    p = actor.who
    named = [n for n, o in st.names.items() if o not in st.ports]
    name = st.pick(named) if named and st.rng.random() < 0.8 else st.pick(NAMES)
    term = _term(st)
    if name in st.names and st.names[name] not in st.ports:
        _deliver(st, st.names[name], False, term)
    elif name in st.names:
        return None      # a message to a port is a command it does not understand
    return f"{p} send_name {name} {term}"


def _open_port(st: FuzzState, actor: _Actor) -> str | None:
    """`P open_port X [driver]`: a cat port, or a tcs_drv one (PORTS-DRIVER-OPEN)."""
    if (x := st.fresh(PORT_NAMES)) is None:
        return None
    p = actor.who
    driver = st.rng.random() < 0.35      # tcs_drv (PORTS-DRIVER-OPEN) instead of cat
    st.ports[x] = Port(p, linked={p}, driver=driver)
    st.links.add(frozenset({p, x}))
    if driver:
        st.features.add("driver")
    return f"{p} open_port {x}" + (" driver" if driver else "")


def _port_io(st: FuzzState, actor: _Actor) -> str | None:
    """`P port_command|port_send|port_close X ...` on an open port whose owner can take its echo."""
    p = actor.who
    usable = [x for x, port in st.ports.items() if port.open and port.owner not in st.blocked]
    if not usable:
        return None
    x = st.pick(usable)
    port = st.ports[x]
    op = st.pick(["port_command", "port_command", "port_send", "port_close"])
    if op == "port_send" and (p != port.owner or port.busy):   # `!` to a busy port: not modelled
        op = "port_command"
    if op == "port_close":
        _close_port(st, x)
        return f"{p} port_close {x}"
    data = st.pick(PORT_DATA)
    if port.busy:
        lines = _suspend(st, p, x, data)
        st.then += lines[1:]
        return lines[0] if lines else None
    _deliver(st, port.owner, False)
    return f"{p} {op} {x} {data}"


def _seq_token(st: FuzzState, actor: _Actor) -> str | None:
    """`P seq_token COMPONENT VALUE`: P joins the seq_trace group and holds a token."""
    p = actor.who
    if p in st.traced or _entangled(st, p):
        return None
    st.seq_group.add(p)
    # a time stamp would end the tracer port's seq_trace messages, which are not modelled so
    stamps = not st.tracer_port and not (st.seq_tracer and st.legacy_process)
    comp = st.pick(("label",) * 3 + tuple(c for c in SEQ_COMPONENTS if stamps or "timestamp" not in c))
    value = str(st.rng.randrange(0, 50)) if comp == "label" else st.pick(["true", "true", "false"])
    st.seq_traced_flag |= comp in ("send", "'receive'") and value == "true"
    st.token.add(p)
    return f"{p} seq_token {comp} {value}"


def _seq_print(st: FuzzState, actor: _Actor) -> str | None:
    """`P seq_print [LABEL] TERM`."""
    p = actor.who
    label = f"{st.rng.randrange(0, 50)} " if st.rng.random() < 0.4 else ""
    return f"{p} seq_print {label}{st.pick(ATOMS)}"


def _seq_reset(st: FuzzState, actor: _Actor) -> str | None:
    """`P seq_reset`: P holds no token any more."""
    p = actor.who
    st.token.discard(p)
    return f"{p} seq_reset"



def _any_actor(st: FuzzState, actor: _Actor) -> bool:
    """Every process may take the step."""
    return True


def _no_token(st: FuzzState, actor: _Actor) -> bool:
    """A token holder's links, exits and names would carry its token (not modelled)."""
    return not actor.holds_token


def _may_own_port(st: FuzzState, actor: _Actor) -> bool:
    """Ports are for processes outside the seq_trace group that hold no token."""
    return _no_token(st, actor) and actor.who not in st.seq_group


def _driver_port_open(st: FuzzState, actor: _Actor) -> bool:
    """A driver port is open for `port_control`."""
    return _may_own_port(st, actor) and any(port.driver and port.open for port in st.ports.values())


def _seq_tracing(st: FuzzState, actor: _Actor) -> bool:
    """The scenario has a seq_trace tracer."""
    return st.seq_tracer


#: The process step kinds, in the order of the draw (which this order and the weights decide, so that a
#: seed gives the scenarios it always gave).
_PROCESS_STEPS: Final[dict[str, _ProcessStepKind]] = {
    "send": _ProcessStepKind(6, _any_actor, _send),
    "recv": _ProcessStepKind(5, _any_actor, _recv),
    "call": _ProcessStepKind(5, _any_actor, _call),
    "gc": _ProcessStepKind(2, _any_actor, _gc),
    "register": _ProcessStepKind(2, _any_actor, _register),
    "trap_exit": _ProcessStepKind(1, _any_actor, _trap_exit),
    "monitor": _ProcessStepKind(1, _any_actor, _monitor),
    "spawn": _ProcessStepKind(2, _no_token, _spawn),
    "link": _ProcessStepKind(3, _no_token, lambda st, actor: _link_or_unlink(st, actor, "link")),
    "unlink": _ProcessStepKind(1, _no_token, lambda st, actor: _link_or_unlink(st, actor, "unlink")),
    "exit": _ProcessStepKind(1, _no_token, _exit_self),
    "unregister": _ProcessStepKind(1, _no_token, _unregister),
    "kill": _ProcessStepKind(1, _no_token, _kill),
    "send_name": _ProcessStepKind(1, _no_token, _send_name),
    "open_port": _ProcessStepKind(2, _may_own_port, _open_port),
    "port": _ProcessStepKind(6, _may_own_port, _port_io),
    "port_control": _ProcessStepKind(5, _driver_port_open, _port_control),
    "seq_token": _ProcessStepKind(3, _seq_tracing, _seq_token),
    "seq_print": _ProcessStepKind(1, _seq_tracing, _seq_print),
    "seq_reset": _ProcessStepKind(1, _seq_tracing, _seq_reset),
}


def _process_step(st: FuzzState) -> str | None:
    """A step of a process that can act now, of a kind drawn from those it may take (_PROCESS_STEPS)."""
    free = st.free()
    if not free:
        return None
    p = st.pick(free)
    actor = _Actor(p, p in st.token, tuple(q for q in st.every_name() if q != p))
    draws = [kind for kind, step in _PROCESS_STEPS.items() if step.allowed(st, actor) for _ in range(step.weight)]
    return _PROCESS_STEPS[st.pick(draws)].write(st, actor)


def _function_item(st: FuzzState) -> str:
    """An item of erlang:trace_info/2 or trace:info/3 for a function: call_memory and all need OTP 26."""
    item = st.pick(FUNCTION_ITEMS)
    if item in ("call_memory", "all"):
        st.needs(26, "call_memory")
    return item


def _info_step(st: FuzzState) -> str:
    if st.rng.random() < 0.35:
        return f"info {runtime.nif_info(st, st.pick(INFO_FUNCTIONS))} {_function_item(st)}"
    who = st.pick(st.every_name() + ["new", "new_processes"])
    return f"info {who} {st.pick(['flags', 'tracer'])}"


def _session_ref(st: FuzzState) -> str | None:
    made = sorted(st.created)
    if not made:
        return None
    s = st.pick(made)
    if s in st.dropped or st.rng.random() < 0.15:
        return f"weak({s})"
    return s


def _session_of(ref: str) -> str:
    """The session name a handle names (`legacy` for weak(legacy))."""
    return ref.removeprefix("weak(").rstrip(")")


def _session_trace_step(st: FuzzState, ref: str, kind: str) -> str | None:
    """`trace SESSION WHO on|off FLAGS`: WHO a process, a port, or a spec (SESSION-SPEC-ALL,
    `new_processes`, `port(new)`, `new_ports`); a session with tracer undefined names its tracer,
    `{tracer,<tracer>}` (SESSION-UNDEFINED-TRACER)."""
    who = [q for q in _traceable(st)] + [x for x, port in st.ports.items() if port.open]
    if not st.seq_group and not st.token and st.rng.random() < 0.2:
        who = ["new", "new_processes", "all", "existing"]
    elif st.rng.random() < 0.15:
        who = list(PORT_SPECS)
    if not who:
        return None
    q = st.pick(who)
    pool = PORT_FLAGS if q in st.ports or q in PORT_SPECS else PROCESS_FLAGS
    if kind in ("process", "undefined"):
        # time stamps and scheduler ids in a tracer process's messages are not modelled
        pool = tuple(f for f in pool if "timestamp" not in f and f != "scheduler_id")
    elif kind == "legacy":
        pool = _legacy_pool(st, pool)
    # a session's trace step takes flag atoms and tuples (to be refused), no other term; a session with
    # tracer undefined takes {tracer,<tracer>} only
    bad = () if kind == "undefined" else ("{silent,true}", "{tracer,<tracer>}")
    flags = _flags(st, pool, 3, bad=bad)
    if kind == "undefined":
        flags.append("{tracer,<tracer>}")
    how = "off" if st.rng.random() < 0.15 else "on"
    if how == "on" and q in ("new", "new_processes", "all"):
        st.new_traced = True
        st.new_sr |= bool({"send", "'receive'", "all"} & set(flags))
    if how == "on" and q in ("all", "existing"):
        _mark_traced(st, st.alive, flags)
    elif how == "on" and q in ("port(new)", "new_ports", "port(all)"):
        st.new_ports_traced = True
    elif how == "on" and q not in st.ports and q not in PORT_SPECS and q not in ("new", "new_processes"):
        _mark_traced(st, [q], flags)
        # the legacy session traces its calls too, sometimes: one call traced in two sessions
        # (SESSION-ORDER-CALL, with the mirrored patterns of _session_step)
        if "call" in flags and st.recorder and not st.step_state and kind != "legacy" and st.rng.random() < 0.3:
            st.then.append(f"trace {q} on call")
    return f"trace {ref} {q} {how} {' '.join(flags)}"


def _bad_session_trace_step(st: FuzzState, ref: str, kind: str) -> str:
    """A session trace step that raises with an error_info (OTP's trace_session_SUITE error_info/1): a How
    that is no boolean (ERRINFO-HOW), a FlagList that is no proper list (SESSION-FLAGS-NO-LIST), or an
    atom where the pid goes (SESSION-NO-PROCESS). Nothing is set."""
    ports = [x for x, port in st.ports.items() if port.open]
    q = st.pick(_traceable(st) + ports + ["new", "all", "port(new)", "port(all)"])
    pool = ("send", "'receive'", "ports") if q in ports or q in PORT_SPECS else ("send", "'receive'", "procs", "call")
    flags = st.rng.sample(pool, st.rng.randrange(1, 3)) + (["{tracer,<tracer>}"] if kind == "undefined" else [])
    how = st.pick(["on", "on", "off"])
    form = st.rng.randrange(3)
    if form == 0:
        return f"trace {ref} {q} how {st.pick(BAD_HOWS)} {' '.join(flags)}"
    if form == 1:
        return f"trace {ref} {q} {how} flags {st.pick(BAD_FLAG_LISTS)}"
    return f"trace {ref} {st.pick(NO_PROCESSES)} {how} {' '.join(flags)}"


def _session_step(st: FuzzState) -> str | None:
    not_made = [s for s in st.sessions if s not in st.created]
    if not_made and (not st.created or st.rng.random() < 0.3):
        s = not_made[0]
        if st.rng.random() < 0.03:
            return f"create {s} [bad]"      # badarg: the session is not made
        st.created.add(s)
        return f"create {s}"
    r = st.rng.random()
    ref = _session_ref(st)
    if ref is None:
        return None
    if r < 0.7 and st.rng.random() < 0.05:
        ref = "weak(legacy)"       # the legacy session through its weak handle
    kind = st.sessions.get(_session_of(ref), "legacy")
    if st.system and r < 0.2 and kind != "undefined":
        if st.rng.random() < 0.2:   # flags is no item of system: badarg (ERRINFO-INFO-SYSTEM)
            return f"info {ref} system {st.pick(['all', 'all', 'flags'])}"
        if st.rng.random() < 0.1:   # the node's legacy system monitor, which no session sets
            return "system_monitor"
        return f"system {ref} {st.pick(SYSTEM_SETTINGS)}"
    if r < 0.35:
        if st.rng.random() < 0.15:
            return _bad_session_trace_step(st, ref, kind)
        return _session_trace_step(st, ref, kind)
    if r < 0.55:
        line = _pattern_step(st, _session_of(ref))
        if line.startswith(("unload ", "load ")):
            return line
        # the same function pattern in the legacy session too, sometimes: one call traced in two
        # sessions (SESSION-ORDER-CALL, LIB-TARGET-BIF-SESSIONS)
        words = line.split()
        if (ref != "weak(legacy)" and ":" in words[1] and "meta" not in words and st.recorder
                and st.rng.random() < 0.3):
            st.then.append(line)
        return f"pattern {ref} {line.split(' ', 1)[1]}"
    if r < 0.7:
        what = st.pick([f"<{st.pick(st.every_name())}>", "new", "{tcs_target,id,1}", "send", "'receive'",
                        "new_processes", "new_ports", "on_load"] + [x for x, port in st.ports.items() if port.open])
        if what == "{tcs_target,id,1}":
            what = st.pick(INFO_FUNCTIONS)
        if what.startswith("{"):
            return f"info {ref} {what} {_function_item(st)}"
        item = {"send": "match_spec", "'receive'": "match_spec"}
        if what.startswith("<") and st.rng.random() < 0.05:   # no item of a process (ERRINFO-INFO-ITEM)
            return f"info {ref} {what} bad_item"
        return f"info {ref} {what} {item.get(what, st.pick(['flags', 'tracer']))}"
    if r < 0.8:
        what = st.pick(["all", "send", "new", "{tcs_target,id,1}", f"<{st.pick(st.every_name())}>", "on_load",
                        "new_ports", "new_processes", "'receive'"])
        return f"session_info {what}"
    if r < 0.88 and kind == "process":
        return f"delivered {ref} {st.pick(['all', f'<{st.pick(st.every_name())}>'])}"
    if ref == "weak(legacy)":
        return None
    if r < 0.93:
        s = _session_of(ref)
        if s not in st.dropped:
            st.dropped.add(s)
            return f"drop {s}"
        return None
    st.destroyed.add(_session_of(ref))
    return f"destroy {ref}"


def _tracer_module_step(st: FuzzState) -> str | None:
    """`tracer unload` (TRACER-UNLOADED) or `tracer reload` (TRACER-RELOADED) of the legacy recorder; the
    model leaves out unloading the module of the seq tracer, of the defaults for new processes and ports,
    in a case with sessions (which may share it), and of a meta pattern (its calls after a reload), and
    reloading it while new processes get flags."""
    if not st.recorder:
        return None
    if st.rng.random() < 0.5:    # not while new processes get flags: the on_load process would get them
        if st.new_traced:
            return None
        # TRACER-RELOAD-NOT-PURGED: a second reload keeps the old code; after an unload there is none
        st.tracer_module = "loaded" if st.tracer_module == "unloaded" else "old"
        return "tracer reload"
    if st.seq_tracer or st.new_traced or st.new_ports_traced or st.sessions or st.meta:
        return None
    st.tracer_module = "unloaded"
    return "tracer unload"


def _declarations(st: FuzzState, with_sessions: bool) -> tuple[list[str], str]:
    """The tracer and session declarations, and the legacy tracer kind."""
    lines: list[str] = []
    r = st.rng.random()
    # a tracer process (LEGACY-PROCESS-TRACER; a meta pattern makes it the meta tracer, CALL-META-PROCESS)
    kind = "erl_msg_tracer" if r < 0.08 else "process" if r < 0.16 else "recorder"
    state = f" state {st.pick(TRACER_STATES)}" if kind == "recorder" and st.rng.random() < 0.1 else ""
    lines.append(f"tracer {kind}{state}")
    st.recorder = kind == "recorder"
    st.own_state = bool(state)
    st.legacy_process = kind == "process"
    if kind == "recorder":
        lines += _recorder_lines(st)
        st.trace_call = _has_trace_call(lines)
    if with_sessions:
        for s in SESSION_NAMES[:st.rng.randrange(1, 4)]:
            # tracer undefined (S0 of trace_session_SUITE, SESSION-UNDEFINED-TRACER) needs a legacy tracer process
            skind = st.pick(["recorder", "recorder", "process"] + (["erl_msg_tracer"] if kind == "erl_msg_tracer" else [])
                            + (["undefined", "undefined"] if kind == "process" else []))
            st.sessions[s] = skind
            lines.append(f"session {s} tracer {skind}")
            if skind == "recorder":
                own = _recorder_lines(st)
                if _has_trace_call(own):
                    st.no_meta.add(s)     # C-10: a recorder with trace_call/5 cannot be a meta tracer
                lines += own
    return lines, kind


def _has_trace_call(lines: list[str]) -> bool:
    return any(ln.startswith("callbacks") and "trace_call" in ln.split() for ln in lines)


def _recorder_lines(st: FuzzState) -> list[str]:
    lines = []
    if st.rng.random() < 0.6:
        if st.rng.random() < 0.85:
            cbs = list(st.pick(CALLBACK_PALETTE))
        else:
            cbs = st.rng.sample(OPTIONAL_CALLBACKS, st.rng.randrange(1, 7))
        lines.append("callbacks " + " ".join(sorted(cbs)))
    answers = {tag: st.pick(ANSWERS) for tag in st.rng.sample(ANSWER_TAGS, st.rng.choice([0, 0, 1, 1, 2, 3]))}
    if answers.get("default", "trace") != "trace":
        answers.update(dict.fromkeys(SCHEDULING_TAGS, "trace"))
    # the harness's own scheduling reaches the tracer too (RUN-HARNESS): an answer other than
    # trace for a scheduling tag would act at tracepoints no scenario describes (cases/README.md)
    answers.update({tag: "trace" for tag in SCHEDULING_TAGS if tag in answers})
    # the runtime collects by itself too (GC-RUNTIME): the model refuses remove for a gc tag
    if answers.get("default") == "remove":
        answers.update({tag: "discard" for tag in GC_TAGS if tag not in answers})
    answers.update({tag: "discard" for tag in GC_TAGS if answers.get(tag) == "remove"})
    return lines + [f"answer {tag} {answer}" for tag, answer in answers.items()]


def _legacy_trace_step(st: FuzzState) -> str | None:
    """A legacy `trace` step (_trace_step); erlang:trace/3 loads the tracer module it is given, the
    recorder unless another is named (TRACER-LOAD-ON-DEMAND)."""
    line = _trace_step(st)
    if line and _names_dead_tracer(st, line):
        return None
    if line:
        _loads_tracer(st, line)
    return line


def _loads_tracer(st: FuzzState, line: str) -> None:
    """The recorder module is loaded again by a legacy `trace ... on` step that names no bad tracer."""
    if " on " in line and not any(t in line for t in BAD_TRACERS) and st.tracer_module == "unloaded":
        st.tracer_module = "loaded"


def _dist_trace(st: FuzzState, p: str, flags: list[str]) -> str | None:
    """`trace P on FLAGS` of a local process before steps across nodes (dist.py), None where the tracer
    process has exited."""
    line = f"trace {p} on {' '.join(flags + _named_tracer(st, 'on', flags))}"
    if _names_dead_tracer(st, line):
        return None
    _loads_tracer(st, line)
    _mark_traced(st, [p], flags)
    return line


def _tracer_exit_step(st: FuzzState) -> str | None:
    """`tracer exit REASON`, once; a tracer process only in a case without sessions, which then names
    it no more (STATUS-DEAD-PROCESS: _names_dead_tracer). Now and then the defaults for new processes
    are read next, which finds their tracer gone (PROCS-NEW-READ)."""
    if st.tracer_gone or (st.legacy_process and st.sessions):
        return None
    if st.seq_tracer and st.legacy_process:  # the process or port is the seq_trace system tracer too: not modelled
        return None
    if st.tracer_port and st.xr.random() < KILL_ALL_CHANCE:
        burst = _kill_all_step(st)
        if burst:
            return burst
    st.tracer_gone = True
    if st.new_traced and st.rng.random() < 0.5:
        st.then.append(f"info {st.pick(['new', 'new_processes'])} {st.pick(['flags', 'tracer'])}")
    return f"tracer exit {st.pick(['kill', 'normal', 'boom'])}"


def _untied(st: FuzzState, p: str) -> bool:
    """Whether p has no link, no monitor either way and no open port: what `kill_all` takes
    (KILL-ALL-PORT-OWNER: their signals and 'DOWN's would race the closing port)."""
    return (not any(p in link for link in st.links) and not any(p in m for m in st.monitors)
            and not any(port.owner == p and port.open for port in st.ports.values()))


def _kill_all_step(st: FuzzState) -> str | None:
    """`kill_all tracer P... [rounds N]` (in place of `tracer exit R`, with the tracer port): the port's
    owner and some processes with no links, monitors or ports, killed in one burst, which the harness
    may repeat on processes of its own (KILL-ALL-ROUNDS: the generator makes no '_':'_'/'_' pattern,
    and its legacy system monitor is cleared in the block that sets it); each exits killed (drawn with
    st.xr, issue 25's stream). None when no process qualifies."""
    untied = [p for p in st.alive if _untied(st, p)]
    if not untied:
        return None
    burst = st.xr.sample(untied, st.xr.randint(1, len(untied)))
    for p in burst:
        _die(st, p, False)
    st.tracer_gone = True
    rounds = f" rounds {st.xr.randint(2, KILL_ALL_ROUNDS_MOST)}" if st.xr.random() < KILL_ALL_ROUNDS_CHANCE else ""
    return f"kill_all tracer {' '.join(burst)}{rounds}"


def _names_dead_tracer(st: FuzzState, line: str) -> bool:
    """Whether a legacy step names the tracer process after it exited (a `trace ... on` step or a
    meta pattern), which the model leaves out: the harness has no second tracer process."""
    words = line.split()
    return st.legacy_process and st.tracer_gone and (" on " in line or (words[0] == "pattern" and "meta" in words))


def _legacy_pattern_step(st: FuzzState) -> str | None:
    """A legacy pattern step (_pattern_step), but none naming a tracer process that has exited."""
    line = _pattern_step(st)
    return None if _names_dead_tracer(st, line) else line


@dataclass(frozen=True)
class _StepKind:
    """A kind of scenario step: its weight in the draw, and its writer (None: not possible now)."""
    weight: float
    write: Callable[[FuzzState], str | None]


#: The step kinds, in the order of the draw (which this order and the weights decide, so that a seed
#: gives the scenarios it always gave); `session` only in a scenario with sessions.
_STEPS: Final[dict[str, _StepKind]] = {
    "trace": _StepKind(5, _legacy_trace_step),
    "pattern": _StepKind(2, _legacy_pattern_step),
    "process": _StepKind(12, _process_step),
    "info": _StepKind(1, _info_step),
    "tracer_exit": _StepKind(0.15, _tracer_exit_step),
    "tracer_module": _StepKind(0.3, _tracer_module_step),
    "session": _StepKind(5, _session_step),
}


def scenario(seed: int, index: int, variant: int = 0) -> Scenario:
    """A candidate for the index-th scenario of a seed (pure: the same arguments give the same scenario).

    The candidates of one index (variants) share the case id; the campaign keeps one (steer.choose)."""
    rng = random.Random(f"tcs-fuzz-{seed}-{index}-{variant}")
    with_sessions = rng.random() < 0.25
    st = FuzzState(rng, with_sessions, random.Random(f"tcs-fuzz-runtime-{seed}-{index}-{variant}"))
    body, _ = _declarations(st, with_sessions)
    # drawn apart, so that the scenarios of a seed stay as they were but for the named tracer
    side = random.Random(f"tcs-fuzz-step-state-{seed}-{index}-{variant}")
    if st.recorder and side.random() < 0.1:
        st.step_state = side.choice(STEP_STATES)
    st.alive = ["a", "b", "c", "d"][:rng.randrange(2, 5)]
    body.append("process " + " ".join(st.alive))
    steps: list[str] = []
    # drawn apart too: a port in the tracer process's place (PORT-TRACER), the case's first step
    if (st.legacy_process and not with_sessions
            and random.Random(f"tcs-fuzz-tracer-port-{seed}-{index}-{variant}").random() < TRACER_PORT_CHANCE):
        st.tracer_port = True
        steps.append("tracer port")
    # with a tracer process, drawn apart and rarer: its seq_trace messages (SEQ-TRACER-PROCESS) are
    # modelled but for time stamps, and its exit is not
    if rng.random() < 0.25 and (not st.legacy_process or st.tracer_port):
        st.seq_tracer = True
        steps.append("seq_trace tracer")
    elif (st.legacy_process and not st.tracer_port
          and random.Random(f"tcs-fuzz-seq-process-{seed}-{index}-{variant}").random() < SEQ_PROCESS_CHANCE):
        st.seq_tracer = True
        steps.append("seq_trace tracer")
    if not with_sessions:
        steps += blocks.legacy_sysmon(st, random.Random(f"tcs-fuzz-sysmon-{seed}-{index}-{variant}"))
    # the forms of fuzz/reach.py, drawn from a stream of their own too
    rare = random.Random(f"tcs-fuzz-reach-{seed}-{index}-{variant}")
    if not any(line.startswith("system_monitor") for line in steps):
        steps += reach.long_schedule(st, rare, with_sessions)
    st.system = with_sessions and rng.random() < 0.2
    goal = rng.randrange(3, 26)
    kinds = [kind for kind in _STEPS if kind != "session" or with_sessions]
    weights = [_STEPS[kind].weight for kind in kinds]
    # the steps of issue 11's follow-up (apply, the busy reload) are drawn from a stream of their own,
    # so that a scenario without them is the one this seed gave before they existed
    extra = random.Random(f"tcs-fuzz-extra-{seed}-{index}-{variant}")
    loop = random.Random(f"tcs-fuzz-loop-{seed}-{index}-{variant}")
    together = random.Random(f"tcs-fuzz-together-{seed}-{index}-{variant}")
    tries = 0
    while len(steps) < goal and tries < goal * 6:
        tries += 1
        if with_sessions and extra.random() < APPLY_CHANCE:
            steps.append(badcalls.apply_step(st, extra))
        elif not with_sessions and extra.random() < BUSY_RELOAD_CHANCE and busyreload.possible(st):
            steps += busyreload.round_steps(st, extra)
        elif not with_sessions and loop.random() < BUSY_LOOP_CHANCE and busyloop.possible(st):
            steps += busyloop.block_steps(st, loop, lambda p: _die(st, p, True))
        steps += runtime.wait_steps(st, lambda: _term(st), lambda p, t: _deliver(st, p, False, t))
        steps += runtime.suspend_steps(st, lambda: _term(st), lambda p, t: _deliver(st, p, False, t),
                                       lambda p: _die(st, p, True))
        steps += blocks.block_steps(st, lambda p, t: _deliver(st, p, False, t))
        steps += runtime.together_steps(st, together, steps, lambda: _term(st), lambda p, t: _deliver(st, p, False, t))
        steps += reach.step_steps(st, rare)
        line = _STEPS[rng.choices(kinds, weights)[0]].write(st)
        if line is not None:
            steps.append(line)
            steps += st.then
            st.then.clear()
    # a peer node at the end (issues 25, 26), drawn from a stream of its own too
    ends = random.Random(f"tcs-fuzz-dist-{seed}-{index}-{variant}")
    if ends.random() < dist.DIST_CHANCE and dist.possible(with_sessions, steps):
        steps += dist.block_steps(st, ends, lambda: _term(st), lambda p, t: _deliver(st, p, False, t),
                                  lambda p, normal: _die(st, p, normal),
                                  any(dist.STAMPED.match(s) for s in steps),
                                  any(dist.RECEIVE_PATTERN.match(s) for s in steps), lambda p, flags: _dist_trace(st, p, flags))
    # drawn last from the second stream (xr), so that every other draw of the scenario stays as it was
    if st.legacy_process and not st.tracer_port and st.xr.random() < MATCH_BINARIES_CHANCE:
        assert body[0] == "tracer process"
        body[0] += " match_binaries"
    if with_sessions:
        st.needs(27, "sessions")
    if st.system:
        st.needs(28, "system_monitor")
    features = tuple(f for f in ("sessions", "system_monitor", "call_memory", "library_targets", "driver", "dist")
                     if f in st.features)
    return Scenario(f"fuzz_{seed}_{index}", st.otp, features, tuple(body + steps))
