"""Short blocks of steps the generator writes together, for rules that a random order of single steps
reaches too rarely for a campaign to see (issue 26: the fuzzer reaches the rules): each block writes
the steps the rule needs one after the other, in a state that allows them, and updates the state.

- `relation`: two call_time (call_memory) readings of one counter with calls or none between, and a
  relation the model can decide (CALL-COUNTERS-RELATION);
- `session_order`: one call traced in a session and in the legacy session (SESSION-ORDER-CALL);
- `return_to_chain`: a call chain with tail calls and exceptions traced with return_to
  (CALL-RETURN-TO-TAIL);
- `option_taken`: a tracer named for a process another tracer traces, badarg (TRACER-OPTION-TAKEN);
- `link_order`: a link passing two sessions on at once (INHERIT-LINK-ORDER);
- `holder_exit`: a token holder linked to a process exits, its exit signal carrying the token
  (SEQ-EXIT-SIGNAL);
- `reload_not_purged`: `load tcs_late` until a load finds old code (CALL-RELOAD-NOT-PURGED);
- `head_map`: a call whose map argument a map head matches (MS-HEAD-MAP);
- `silent_send`: a send spec's `{silent,Bool}` run by the send it matches (MSGPAT-SILENT-ACTION);
- `spawn_fun`: a child spawned with a fun by a process traced for call with set_on_spawn, under a
  pattern on erlang:apply/2 (PROCS-SPAWN-FUN, LIB-TARGET-APPLY, PROCS-SPAWN-ENTRY-CALL);
- `corpus_shapes`: a call in one of the corpus's shapes (cases calls/otp_meta_stack_grow,
  shapes_bs_sum_bignum, call_silent_late, matchspec/ms_bignum_negative, ms_caller_line_undefined):
  CALL-DEEP-RECURSION, CALL-MATCH-CONTEXT-ARG, CALL-SILENT-LATE, MS-GUARD-BIGNUM, MS-CALLER-LINE;
  (calls/call_receive_in_traced) CALL-RECEIVE-IN-TRACED; and (running/run_yield_in_traced) RUN-YIELD,
  a call of tcs_shapes:yielding/1, traced for running now and then;
- `sysmon`: a session's system monitor set to a limit the next steps reach, then cleared
  (SYSMON-LONG-MSGQ, SYSMON-LARGE-HEAP, SYSMON-BUSY-PORT, SYSMON-MESSAGE).

Drawn with the scenario's second stream (st.xr); but `legacy_sysmon`, written at a scenario's start,
from a stream of its own (gen.scenario).
"""
from __future__ import annotations

import random
from collections.abc import Callable
from typing import Final

from .state import CHAIN_SHAPES, PORT_NAMES, SPAWN_NAMES, FuzzState, Port

#: The chance, at each step, of a block (which then writes only where the scenario allows it).
BLOCK_CHANCE: Final[float] = 0.02
#: The funs a spawn_fun block's child runs (T any term holding no fun or reference), and the patterns
#: on erlang:apply/2 that see the child's call (procs_spawn_fun_entry_call).
FUN_VALUES: Final[tuple[str, ...]] = ("[1,2,3]", "{x,[]}", "1", "<<1>>", "ok")
APPLY_PATTERNS: Final[tuple[str, ...]] = ("[{'_',[],[{return_trace}]}]",
                                          "[{'_',[],[{return_trace},{message,{caller}}]}] local",
                                          "[{'_',[],[{return_trace}]}] meta")
#: The chance that a scenario without sessions begins with the legacy system monitor set, and the
#: limit and the child's heap (OTP's trace_SUITE system_monitor_large_heap_1 and _2, C-640).
LEGACY_SYSMON_CHANCE: Final[float] = 0.02
LEGACY_LARGE_HEAP: Final[tuple[int, int]] = (65535, 131070)
#: The bignum guard of ms_bignum_negative, and the calls that meet it or not.
BIGNUM_SPEC: Final[str] = (
    "[{['$1'],[{is_integer,'$1'},{'<','$1',-9223372036854775808}],[{message,{{{abs,'$1'},{'-','$1'},"
    "{'bnot','$1'},{'band','$1',255},{'bor','$1',1},{'bxor','$1',-1},{'div','$1',7},{'rem','$1',7},"
    "{'div','$1',-18446744073709551616},{'bsr','$1',1},{'bsr','$1',64},{'+','$1',18446744073709551617}}}},"
    "{return_trace}]}] global")
BIGNUM_ARGS: Final[tuple[str, ...]] = ("-18446744073709551617", "-9223372036854775809", "5")
#: The long_message_queue limits of a block: above what the harness's own processes reach.
LONG_QUEUE: Final[tuple[int, int]] = (20, 40)

Deliver = Callable[[str, str | None], None]


def _actors(st: FuzzState) -> list[str]:
    """Processes that can act and may be traced: free, outside the seq_trace group, no token."""
    return [p for p in st.free() if p not in st.seq_group and p not in st.token]


def _sessions(st: FuzzState, kinds: tuple[str, ...]) -> list[str]:
    """The created sessions of these tracer kinds still in use."""
    return sorted(s for s in st.created if st.sessions.get(s) in kinds and s not in st.dropped
                  and s not in st.destroyed)


def _legacy_on(st: FuzzState) -> bool:
    """Whether a legacy `trace P on ...` naming no tracer is possible: the tracer lives and the
    scenario's legacy steps name no state of their own."""
    return not st.tracer_gone and not st.step_state


def relation(st: FuzzState, deliver: Deliver) -> list[str]:
    who = _actors(st)
    if not who:
        return []
    p = st.xr.choice(who)
    kind = st.xr.choice(["call_time", "call_time", "call_memory"])
    if kind == "call_memory":
        st.needs(26, "call_memory")
    st.counted.add("id")
    first, second = f"r{st.readings + 1}", f"r{st.readings + 2}"
    st.readings += 2
    calls = st.xr.choice([0, 1, 2])
    if st.flag_functions:
        st.traced.add(p)
        st.traced_sr.add(p)
    lines = [f"pattern tcs_target:id/1 true {kind}", f"info {{tcs_target,id,1}} {kind} as {first}"]
    lines += [f"{p} call tcs_target:id({st.xr.randrange(10)})"] * calls
    lines.append(f"info {{tcs_target,id,1}} {kind} as {second}")
    # with no call between the readings are equal; a call adds time, none or some: >= holds, < not
    pairs = [(second, "=:=", first)] if calls == 0 else [(second, ">=", first), (second, "<", first),
                                                          (first, "=<", second), (first, ">", second)]
    return lines + ["relation {} {} {}".format(*st.xr.choice(pairs))]


def session_order(st: FuzzState, deliver: Deliver) -> list[str]:
    """The function tcs_target:id/1, or the BIF erlang:phash2/1 with a global pattern in one session and
    a local one in the other (LIB-TARGET-BIF-SESSIONS)."""
    sessions, who = _sessions(st, ("recorder", "process")), _actors(st)
    if not sessions or not who or not _legacy_on(st):
        return []
    s, p = st.xr.choice(sessions), st.xr.choice(who)
    st.traced.add(p)
    how = st.xr.choice(["true", "[]"])
    fn, first, second = st.xr.choice([("tcs_target:id", "", st.xr.choice(["", " local"])),
                                      ("erlang:phash2", " local", " global")])
    if fn == "erlang:phash2":
        st.features.add("library_targets")
        st.lib_patterned = True
    return [f"trace {s} {p} on call", f"trace {p} on call", f"pattern {s} {fn}/1 {how}{first}",
            f"pattern {fn}/1 {how}{second}", f"{p} call {fn}({st.xr.randrange(10)})"]


def return_to_chain(st: FuzzState, deliver: Deliver) -> list[str]:
    """trace_session_SUITE's return_to/1 chain, its calls traced with return_to under local patterns:
    return_to after a tail call (CALL-RETURN-TO-TAIL) and after an exception (CALL-RETURN-TO-EXCEPTION)."""
    who = _actors(st)
    if not who or not _legacy_on(st):
        return []
    p = st.xr.choice(who)
    st.traced.add(p)
    how, shape = st.xr.choice(["local", "extern"]), st.xr.choice(CHAIN_SHAPES)
    inner, end = st.xr.choice(["local", "extern"]), st.xr.choice(["return", "exception"])
    script = f"[{{'catch',{how}}},{{{shape},{inner}}},{end}]"
    return [f"trace {p} on call return_to", *(f"pattern tcs_target:{fn}/1 true local" for fn in ("middle", "bottom")),
            f"{p} call tcs_target:top({script})"]


def option_taken(st: FuzzState, deliver: Deliver) -> list[str]:
    who = _actors(st)
    if not st.recorder or not who or not _legacy_on(st):
        return []
    p = st.xr.choice(who)
    st.traced.add(p)
    st.traced_sr.add(p)
    return [f"trace {p} on send", f"trace {p} on call {{tracer,recorder,{st.xr.choice(['other', '[taken]'])}}}"]


def link_order(st: FuzzState, deliver: Deliver) -> list[str]:
    sessions, who = _sessions(st, ("recorder", "process")), _actors(st)
    untraced = [q for q in who if q not in st.traced and not st.new_traced]
    if not sessions or not untraced or not _legacy_on(st):
        return []
    q = st.xr.choice(untraced)
    linkers = [p for p in who if p != q and frozenset({p, q}) not in st.links]
    if not linkers:
        return []
    p, s = st.xr.choice(linkers), st.xr.choice(sessions)
    st.links.add(frozenset({p, q}))
    st.traced |= {p, q}
    return [f"trace {s} {p} on set_on_link procs", f"trace {p} on set_on_link procs", f"{p} link {q}"]


def head_map(st: FuzzState, deliver: Deliver) -> list[str]:
    who = _actors(st)
    if not who or not _legacy_on(st):
        return []
    p = st.xr.choice(who)
    st.traced.add(p)
    key = st.xr.choice(["k", "k", "j"])      # a map without the head's key does not match
    return [f"trace {p} on call", "pattern tcs_target:id/1 [{[#{k=>'$1'}],[],[{message,'$1'}]}]",
            f"{p} call tcs_target:id(#{{{key}=>{st.xr.randrange(10)}}})"]


def silent_send(st: FuzzState, deliver: Deliver) -> list[str]:
    who = _actors(st)
    if not who or not _legacy_on(st):
        return []
    p = st.xr.choice(who)
    to = st.xr.choice([q for q in st.every_name() if q not in st.seq_group] or [p])
    st.traced.add(p)
    st.traced_sr.add(p)
    deliver(to, "hello")
    return [f"trace {p} on send", f"pattern send [{{['_',hello],[],[{{silent,{st.xr.choice(['true', 'false'])}}}]}}]",
            f"{p} send {to} hello"]


def spawn_fun(st: FuzzState, deliver: Deliver) -> list[str]:
    """P traced for call and procs with set_on_spawn spawns a child with a fun under a pattern on
    erlang:apply/2, which the child calls as its entry point and which returns the fun's value; the
    child exits normal, and the pattern is gone after. P untraced before and no flags for new processes:
    the model refuses an entry point traced for messages, scheduling or garbage collection."""
    who = [p for p in _actors(st) if p not in st.traced]
    if st.new_traced or not who or not _legacy_on(st):
        return []
    child = st.fresh(SPAWN_NAMES)
    if child is None:
        return []
    p = st.xr.choice(who)
    st.traced.add(p)
    st.dead.add(child)
    st.features.add("library_targets")
    # a meta pattern as the legacy pattern step allows one: not with trace_call/5 (C-10) nor a tracer port
    pattern = st.xr.choice(APPLY_PATTERNS[:2] if st.trace_call or st.tracer_port else APPLY_PATTERNS)
    st.meta |= pattern.endswith("meta")
    return [f"trace {p} on call set_on_spawn procs", f"pattern erlang:apply/2 {pattern}",
            f"{p} spawn {child} fun() -> {st.xr.choice(FUN_VALUES)} end",
            f"pattern erlang:apply/2 false" + (" meta" if pattern.endswith("meta") else "")]


def legacy_sysmon(st: FuzzState, rng: random.Random) -> list[str]:
    """At a scenario's start (the model refuses the setter after a call, a port, code loading...): a child
    spawned with a heap past the limit, the legacy system monitor set to it (SYSMON-LEGACY-SET) or to
    the tracer process, the child collecting, which the monitor hears of unless it is the child
    (SYSMON-LEGACY-SELF, SYSMON-LEGACY-LARGE-HEAP), and the monitor cleared; else none."""
    if rng.random() >= LEGACY_SYSMON_CHANCE or not st.alive:
        return []
    child = st.fresh(SPAWN_NAMES)
    if child is None:
        return []
    limit, heap = LEGACY_LARGE_HEAP
    st.alive.append(child)
    st.features.add("system_monitor")
    monitor = "tracer" if st.legacy_process and not st.tracer_port and rng.random() < 0.5 else child
    lines = [f"{rng.choice(st.alive[:-1])} spawn {child} options [{{min_heap_size,{heap}}}]",
             f"system_monitor {monitor} large_heap {limit}", f"{child} gc major", "system_monitor undefined"]
    return lines + (["system_monitor"] if rng.random() < 0.5 else [])


def corpus_shapes(st: FuzzState, deliver: Deliver) -> list[str]:
    """One of the corpus's call shapes (the module docstring), by a process that can act and be traced."""
    who = _actors(st)
    if not who or not _legacy_on(st):
        return []
    p = st.xr.choice(who)
    shape = st.xr.choice(["deep", "match_context", "silent_late", "bignum", "caller_line", "receive", "yield"])
    senders = [q for q in st.free() if q != p and q not in st.token]
    if shape == "receive" and senders and not st.mailbox.get(p):
        # the message is taken by the traced function's receive: p's mailbox is empty again after
        st.traced.add(p)
        return [f"trace {p} on call", "pattern tcs_shapes:receive_message/0 [{'_',[],[{return_trace}]}] local",
                f"{st.xr.choice(senders)} send {p} {{m,[1,2]}}", f"{p} call tcs_shapes:receive_message()",
                "pattern tcs_shapes:receive_message/0 false local"]
    if shape == "deep" and not st.trace_call and not st.tracer_port:     # a meta pattern (C-10)
        st.meta = True
        return ["pattern tcs_shapes:loop/1 [{'_',[],[{return_trace}]}] meta",
                f"{p} call tcs_shapes:loop({st.xr.choice([64, 200])})", "pattern tcs_shapes:loop/1 false meta"]
    if shape == "caller_line" and p not in st.traced and not st.new_traced:
        # an untraced parent: the model refuses an entry point traced for more than calls and procs
        child = st.fresh(SPAWN_NAMES)
        if child is None:
            return []
        st.traced.add(p)
        st.dead.add(child)
        st.seq_patterned = True
        st.features.add("library_targets")
        low = st.xr.randrange(0, 4)
        return [f"trace {p} on call set_on_spawn", "pattern lists:seq/2 [{'_',[],[{message,{caller_line}}]}] local",
                f"{p} spawn {child} {{lists,seq,[{low},{low + 2}]}}", "pattern lists:seq/2 false local"]
    st.traced.add(p)
    if shape == "match_context":
        return [f"trace {p} on call", "pattern tcs_shapes:'_'/'_' [{'_',[],[{return_trace}]}] local",
                f"{p} call tcs_shapes:bs_sum_a(<<1,2,3>>, {st.xr.choice([9223372036854775806, 7])})",
                "pattern tcs_shapes:'_'/'_' false local"]
    if shape == "silent_late":
        return [f"trace {p} on call return_to", "pattern tcs_target:twice/1 [{'_',[],[{return_trace}]}] local",
                "pattern tcs_target:id/1 [{'_',[],[{silent,true},{return_trace}]}] local",
                f"{p} call tcs_target:twice({st.xr.randrange(5)})", f"trace {p} off silent"]
    if shape == "yield":
        running = [f"trace {p} on running"] if st.xr.random() < 0.5 else []
        return [f"trace {p} on call", *running, "pattern tcs_shapes:yielding/1 [{'_',[],[{return_trace}]}] local",
                f"{p} call tcs_shapes:yielding({st.xr.randrange(5)})", "pattern tcs_shapes:yielding/1 false local"]
    if shape == "bignum":
        return [f"trace {p} on call", f"pattern tcs_target:id/1 {BIGNUM_SPEC}",
                f"{p} call tcs_target:id({st.xr.choice(BIGNUM_ARGS)})"]
    return []


def holder_exit(st: FuzzState, deliver: Deliver) -> list[str]:
    """P, never traced, with no links, monitors or ports, links to Q, never traced, takes a token and
    exits normal: Q (not trapping exits) lives on, and both stay in the seq_trace group (C-65)."""
    if not st.seq_tracer:
        return []
    untraced = [p for p in _actors(st) if p not in st.traced and not any(p in pair for pair in st.monitors)
                and not any(p in link for link in st.links)]
    p = st.draw([p for p in untraced if not any(port.owner == p and port.open for port in st.ports.values())])
    q = None if p is None else st.draw([q for q in untraced if q != p and q not in st.trapping])
    if p is None or q is None:
        return []
    st.seq_group |= {p, q}
    st.alive.remove(p)
    st.dead.add(p)
    st.names = {n: o for n, o in st.names.items() if o != p}
    return [f"{p} link {q}", f"{p} seq_token {st.xr.choice(['label 7', 'send true'])}",
            f"{p} exit normal"]


def reload_not_purged(st: FuzzState, deliver: Deliver) -> list[str]:
    loads = 2 if st.late_loaded else 3
    st.late_loaded = True
    return ["load tcs_late"] * loads


def sysmon(st: FuzzState, deliver: Deliver) -> list[str]:
    sessions = [s for s, kind in st.sessions.items() if kind == "process" and s not in st.dropped
                and s not in st.destroyed]
    if not sessions:
        return []
    s = st.xr.choice(sorted(sessions))
    kind = st.xr.choice(["long_message_queue", "large_heap", "busy_port"])
    lines = {"long_message_queue": _long_queue, "large_heap": _large_heap, "busy_port": _busy_port}[kind](st, deliver)
    if not lines:
        return []
    create = [] if s in st.created else [f"create {s}"]
    st.created.add(s)
    st.system = True     # the case needs trace:system/3 (OTP 28), whether or not it drew other settings
    setting = {"long_message_queue": f"{{{LONG_QUEUE[0]},{LONG_QUEUE[1]}}}", "large_heap": "1000000",
               "busy_port": "true"}[kind]
    return [*create, f"system {s} {kind} {setting}", *lines, f"system {s} {kind} false"]


def _long_queue(st: FuzzState, deliver: Deliver) -> list[str]:
    """A process with an empty mailbox sends itself enough messages to reach the limit, then takes them."""
    who = [p for p in _actors(st) if not st.mailbox.get(p)]
    if not who:
        return []
    p = st.xr.choice(who)
    n = LONG_QUEUE[1] + st.xr.randrange(0, 5)
    return [f"{p} send {p} hello times {n}", f"{p} recv times {n}"]


def _large_heap(st: FuzzState, deliver: Deliver) -> list[str]:
    """A child building a list of two million elements (its heap past a million words), ending normal;
    as `P spawn C ENTRY` of the generator, only where no flags can pass to the child."""
    who = [p for p in _actors(st) if p not in st.traced]
    if not who or st.new_traced or st.seq_patterned or (child := st.fresh(SPAWN_NAMES)) is None:
        return []
    st.dead.add(child)
    return [f"{st.xr.choice(who)} spawn {child} {{lists,seq,[1,2000000]}}"]


def _busy_port(st: FuzzState, deliver: Deliver) -> list[str]:
    """A driver port made busy, a process suspended sending to it, the port not busy again: the command
    runs and its echo reaches the owner."""
    who = _actors(st)
    if len(who) < 2 or (x := st.fresh(PORT_NAMES)) is None:
        return []
    owner = st.xr.choice(who)
    senders = [q for q in who if q != owner]
    if not senders:
        return []
    st.ports[x] = Port(owner, linked={owner}, driver=True)
    st.links.add(frozenset({owner, x}))
    st.features.add("driver")
    deliver(owner, None)
    return [f"{owner} open_port {x} driver", f"{owner} port_control {x} busy",
            f"{st.xr.choice(senders)} port_command {x} <<\"b\">>", f"{owner} port_control {x} not_busy"]


#: The blocks, drawn alike.
BLOCKS: Final[tuple[Callable[[FuzzState, Deliver], list[str]], ...]] = (
    relation, session_order, return_to_chain, option_taken, link_order, head_map, silent_send, holder_exit,
    reload_not_purged, sysmon, spawn_fun, corpus_shapes)


def block_steps(st: FuzzState, deliver: Deliver) -> list[str]:
    """Now and then the steps of one block, else none."""
    if st.xr.random() >= BLOCK_CHANCE:
        return []
    return st.xr.choice(BLOCKS)(st, deliver)
