/* sessions.c - trace sessions (OTP 27+, module trace): creating and destroying them, their
 * handles, the calls of module trace on a session (CONFORMANCE.md section 2, "Trace
 * sessions"); the order in which several sessions see one event is ref/state/order.c. */
#include <string.h>

#include "badcalls.h"
#include "control.h"
#include "counters.h"
#include "enabled.h"
#include "handles.h"
#include "msgpatterns.h"
#include "order.h"
#include "patterns.h"
#include "procspec.h"
#include "readings.h"
#include "release.h"
#include "running.h"
#include "sessions.h"
#include "status.h"
#include "steptext.h"
#include "sysmon.h"

/* --- terms of the calls ------------------------------------------------------------------- */

/* The Tracer of session_create/3 and of trace:info(_, Pid, tracer). */
static Term *tracer_term(Model *m, int s)
{
    const Session *ses = &m->sessions[s];
    Term *state = (Term *)ses->state_term;
    if (ses->tracer->kind == TRACER_PROCESS)
        return state;
    const char *mod = ses->tracer->kind == TRACER_RECORDER ? "recorder" : "erl_msg_tracer";
    return term_tuple3(m->a, term_atom(m->a, mod), state, NULL);
}

static void put_arg(Buf *call, const Term *t)
{
    buf_puts(call, ",");
    term_print(call, t, PRINT_CANON);
}

/* How of a trace step: true, false, or the term of `how TERM` (SESSION-BAD-HOW). */
static void put_how(Model *m, Buf *call, const Step *st)
{
    put_arg(call, st->how ? st->how : term_atom(m->a, st->on ? "true" : "false"));
}

static void ctl_term(Model *m, Buf *call, const Term *result, const char *rules)
{
    Buf r;
    buf_init(&r);
    buf_puts(&r, "-> ");
    term_print(&r, result, PRINT_CANON);
    control_line(m, buf_str(call), buf_str(&r), rules);
    buf_free(&r);
}

/* The rule of a call that a handle allows, with SESSION-WEAK when it is a weak one. */
static const char *with_weak(const Step *st, const char *rule, const char *weak_rule)
{
    return st->weak ? weak_rule : rule;
}

/* Why process/4 or function/4 refuses its handle or its options: a tuple option such as
 * {tracer,T} or {meta,T} (SESSION-REFUSED-OPTS); NULL if it does not. */
static const char *options_refused(const Model *m, const Step *st)
{
    const char *refused = handles_refused(m, st);
    if (!refused && st->how) /* How :: boolean() (003, process/4, port/4) */
        refused = "SESSION-BAD-HOW";
    if (!refused && term_list_length(st->sargs) < 0) /* FlagList :: [trace_flag()] */
        refused = "SESSION-FLAGS-NO-LIST";
    /* SESSION-UNDEFINED-TRACER: its {tracer,<tracer>} (the only tuple the parser lets through) */
    bool names_tracer = st->sop == SO_PROCESS && m->sessions[handles_session(st)].tracer_undefined;
    for (const Term *o = st->sargs; !refused && !names_tracer && o->kind == TK_CONS; o = o->u.cons.tail)
        if (o->u.cons.head->kind == TK_TUPLE)
            refused = "SESSION-REFUSED-OPTS";
    return refused;
}

/* Everything session s set is gone: flags, tracers, patterns, the defaults for new processes
 * and ports (SESSION-DESTROY); its end may wake every process (RUN-WAKE-SESSION-END): false when
 * the model refuses that. */
static bool destroy(Model *m, int s)
{
    Session *ses = &m->sessions[s];
    ses->life = LIFE_DESTROYED;
    memset(ses->pats, 0, sizeof ses->pats);
    m->bif_marked = false; /* erts clears every traced BIF's mark, whichever session set it (C-446) */
    ses->on_load = (Pattern){0};
    ses->new_flags = 0;
    model_detach(&ses->new_ports);
    sysmon_clear(&ses->sysmon);
    ses->send_pat = ses->receive_pat = (MessagePattern){0};
    for (int p = 0; p < m->nprocs; p++)
        memset(&m->procs[p].trace[s], 0, sizeof(TraceState));
    return running_session_ended(m); /* RUN-WAKE-SESSION-END (C-820) */
}

/* --- the steps ------------------------------------------------------------------------------ */

static bool create(Model *m, const Step *st)
{
    int s = handles_session(st);
    Session *ses = &m->sessions[s];
    Buf call;
    buf_init(&call);
    buf_puts(&call, "trace:session_create(");
    term_print_atom(&call, ses->state);
    put_arg(&call, ses->tracer_undefined ? term_atom(m->a, "undefined") : tracer_term(m, s));
    put_arg(&call, st->sargs);
    buf_puts(&call, ")");
    if (st->sargs->kind != TK_NIL) {
        /* the undefined tracer changes what the error information explains (C-290) */
        control_line(m, buf_str(&call), "raises error:badarg",
                     ses->tracer_undefined ? "SESSION-CREATE-OPTS SESSION-UNDEFINED-TRACER" : "SESSION-CREATE-OPTS");
    } else {
        ses->life = LIFE_ALIVE;
        ses->strong = true;
        ses->info_leaked = false;
        sysmon_clear(&ses->sysmon);
        ses->since = ++m->clock;
        ctl_term(m, &call, handles_term(m, s, false), "SESSION-CREATE");
    }
    buf_free(&call);
    return true;
}

/* The line of `session_destroy/1` of the step's session, and the session destroyed if it was
 * alive: true, false for a strong handle of a destroyed one, badarg for a weak one
 * (SESSION-DESTROY, SESSION-DESTROY-WEAK); also an apply of it that does not raise. */
static bool destroy_step(Model *m, const Step *st)
{
    int s = handles_session(st);
    Buf call;
    buf_init(&call);
    handles_call_head(m, &call, "session_destroy", st);
    buf_puts(&call, ")");
    /* a weak handle destroys a live session, but a destroyed one refuses it rather than
     * answering false (SESSION-DESTROY-WEAK) */
    const char *refused = st->weak ? handles_refused(m, st) : NULL;
    if (refused) {
        control_line(m, buf_str(&call), "raises error:badarg",
                     st->session == SESSION_LEGACY ? refused : "SESSION-DESTROY-WEAK SESSION-DEAD-HANDLE");
    } else {
        bool was_alive = m->sessions[s].life == LIFE_ALIVE;
        if (was_alive && !destroy(m, s)) {
            buf_free(&call);
            return false;
        }
        control_line(m, buf_str(&call), was_alive ? "-> true" : "-> false",
                     with_weak(st, "SESSION-DESTROY", "SESSION-DESTROY SESSION-WEAK"));
    }
    buf_free(&call);
    return true;
}

static bool drop(Model *m, const Step *st)
{
    int s = handles_session(st);
    Session *ses = &m->sessions[s];
    ses->strong = false; /* the holder forgets its handle; garbage collection ends the session */
    /* unless a trace:info/3 of a process gone holds a reference to it for good: then it lives
     * on, reachable through its weak handle (SESSION-GC-INFO-DEAD, C-375) */
    bool leaked = ses->life == LIFE_ALIVE && ses->info_leaked;
    if (ses->life == LIFE_ALIVE && !leaked && !destroy(m, s))
        return false;
    control_line(m, "erlang:garbage_collect()", "-> true", leaked ? "SESSION-GC SESSION-GC-INFO-DEAD" : "SESSION-GC");
    return true;
}

static FlagSet step_flag_set(const Step *st)
{
    FlagSet set = 0;
    for (int i = 0; i < st->nflags; i++)
        set |= flags_expand(st->flags[i]);
    return set;
}

/* trace:process(S, new | new_processes, ...) or trace:port(S, new | new_ports, ...): the
 * session's defaults for processes (ports) created from now on; answers 0 (SESSION-NEW);
 * trace:process(S, all | existing, ...): the existing processes too (SESSION-SPEC-ALL);
 * trace:port(S, all | existing, ...): the existing ports too (SESSION-PORT-SPEC-ALL). */
static bool new_spec_step(Model *m, const Step *st)
{
    Session *ses = &m->sessions[handles_session(st)];
    bool port = spec_is_ports(st->spec);
    Buf call;
    buf_init(&call);
    handles_call_head(m, &call, port ? "port" : "process", st);
    buf_printf(&call, ",%s", st->actor);
    put_how(m, &call, st);
    put_arg(&call, st->sargs);
    buf_puts(&call, ")");
    FlagSet set = step_flag_set(st);
    const char *refused = options_refused(m, st);
    bool existing = st->spec == SPEC_PROCESSES || st->spec == SPEC_EXISTING_PROCESSES || st->spec == SPEC_PORTS ||
                    st->spec == SPEC_EXISTING_PORTS;
    /* cpu_timestamp with any spec (C-335): trace.erl passes process(S, all, ...) to the BIF as
     * `processes`, port(S, all, ...) as `ports`, and erl_bif_trace.c trace() takes cpu_timestamp
     * with `all` only, which neither function can pass */
    if (!refused && (set & FLAG_BIT(FL_CPU_TIMESTAMP)))
        refused = "SESSION-CPU-TIMESTAMP";
    if (refused) {
        control_line(m, buf_str(&call), "raises error:badarg", refused);
    } else if (existing) { /* as erlang:trace(all | existing_processes, ...), for ports as their port specs */
        Buf rules;
        buf_init(&rules);
        const char *rule = port ? "SESSION-PORT" : "SESSION-SPEC-ALL";
        buf_printf(&rules, st->weak ? "%s SESSION-WEAK" : "%s", rule);
        const char *result = procspec_apply(m, handles_session(st), st, NULL, &rules);
        Buf r;
        buf_init(&r);
        buf_printf(&r, "-> %s", result);
        control_line(m, buf_str(&call), buf_str(&r), buf_str(&rules));
        buf_free(&r);
        buf_free(&rules);
    } else {
        bool names_tracer = false;
        for (const Term *o = st->sargs; o && o->kind == TK_CONS; o = o->u.cons.tail)
            names_tracer |= o->u.cons.head->kind == TK_TUPLE; /* {tracer,T} (SESSION-UNDEFINED-TRACER) */
        bool clears = procspec_off_clears(st->on, names_tracer) && (port ? flags_for_ports(set)
                                                                         : flags_for_processes(set));
        Buf rules;
        buf_init(&rules);
        buf_puts(&rules, clears ? with_weak(st, "SESSION-NEW PROCS-NEW-OFF-CLEARS",
                                            "SESSION-NEW SESSION-WEAK PROCS-NEW-OFF-CLEARS")
                                : with_weak(st, "SESSION-NEW", "SESSION-NEW SESSION-WEAK"));
        /* the BIF changes the defaults with erts_change_new_p_tracing, as erlang:trace/3 does:
         * defaults left with flags are probed for trace_status at once, and remove clears them
         * (PROCS-NEW-PROBE, C-400: seen live on 27 and 29, seed 20261207 group K3) */
        if (port && clears) {
            model_detach(&ses->new_ports);
        } else if (port) {
            order_set_flags(m, &ses->new_ports, set, st->on, ANS_TRACE, "SESSION-NEW PORTS-NEW");
            if (ses->new_ports.flags && procspec_defaults_probe_removes(m, handles_session(st), NULL, &rules))
                model_detach(&ses->new_ports);
        } else { /* the flags for ports are not kept for new processes (PROCS-SPEC-NEW) */
            FlagSet for_procs = flags_for_processes(set);
            ses->new_flags = clears ? 0 : st->on ? ses->new_flags | for_procs : ses->new_flags & ~for_procs;
            if (ses->new_flags && procspec_defaults_probe_removes(m, handles_session(st), NULL, &rules))
                ses->new_flags = 0;
        }
        control_line(m, buf_str(&call), "-> 0", buf_str(&rules));
        buf_free(&rules);
    }
    buf_free(&call);
    return true;
}

/* trace:process(S, Atom, ...) with an atom that names no process: badarg (SESSION-NO-PROCESS). */
static void no_process_step(Model *m, const Step *st)
{
    Buf call;
    buf_init(&call);
    handles_call_head(m, &call, "process", st);
    buf_puts(&call, ",");
    term_print_atom(&call, st->actor);
    put_how(m, &call, st);
    put_arg(&call, st->sargs);
    buf_puts(&call, ")");
    /* the tracee is checked before the BIF looks at the session: a refused handle is not what
     * the error blames (fuzz group K5, seen live on 27 and 29) */
    const char *refused = handles_refused(m, st) ? NULL : options_refused(m, st);
    control_line(m, buf_str(&call), "raises error:badarg", refused ? refused : "SESSION-NO-PROCESS SESSION-PROCESS");
    buf_free(&call);
}

/* trace:process/4, or trace:port/4 for a port. */
static bool process_step(Model *m, const Step *st)
{
    if (st->spec == SPEC_NO_PROCESS) {
        no_process_step(m, st);
        return true;
    }
    if (st->spec != SPEC_PID)
        return new_spec_step(m, st);
    int s = handles_session(st);
    int p = model_proc(m, st->actor);
    bool port = m->procs[p].is_port;
    const char *rule = m->sessions[s].tracer_undefined ? (port ? "SESSION-PORT SESSION-UNDEFINED-TRACER"
                                                                : "SESSION-PROCESS SESSION-UNDEFINED-TRACER")
                       : port ? "SESSION-PORT" : "SESSION-PROCESS";
    Buf call;
    buf_init(&call);
    handles_call_head(m, &call, port ? "port" : "process", st);
    buf_puts(&call, ",");
    model_print_id(&call, m, p);
    put_how(m, &call, st);
    put_arg(&call, st->sargs);
    buf_puts(&call, ")");
    FlagSet set = step_flag_set(st);
    const char *refused = options_refused(m, st);
    if (!refused && (set & FLAG_BIT(FL_CPU_TIMESTAMP)))
        refused = "SESSION-CPU-TIMESTAMP"; /* before the tracee is looked up (C-335) */
    else if (!refused && !m->procs[p].alive)
        refused = rule;
    if (refused) {
        control_line(m, buf_str(&call), "raises error:badarg", refused);
        buf_free(&call);
        return true;
    }
    const Session *ses = &m->sessions[s];
    if (ses->tracer->kind == TRACER_PROCESS && st->on && (set & FLAG_BIT(FL_SCHEDULER_ID))) {
        buf_free(&call); /* a positive integer, ambiguous in the message's shape */
        return model_unsupported(m, st->line, st->col, "scheduler ids in a process tracer's messages are");
    }
    /* PORTS-NO-START-PROBE: trace:port/4 runs erl_bif_trace.c start_trace as erlang:trace/3
     * does, which probes no port (C-260, C-395) */
    Answer ans = !st->on || port ? ANS_TRACE : enabled_probe(m, s, p);
    order_set_flags(m, &m->procs[p].trace[s], set, st->on, ans, rule);
    control_line(m, buf_str(&call), "-> 1", st->weak ? (port ? "SESSION-PORT SESSION-WEAK" : "SESSION-PROCESS SESSION-WEAK") : rule);
    buf_free(&call);
    return true;
}

/* trace:function/4: erlang:trace_pattern/3 in the session, but for {meta, ...} options. */
static bool function_step(Model *m, const Step *st)
{
    Buf call, result, rules;
    buf_init(&call);
    buf_init(&result);
    buf_init(&rules);
    handles_call_head(m, &call, "function", st);
    buf_puts(&call, ",");
    steptext_pattern_target(&call, st);
    put_arg(&call, st->term);
    put_arg(&call, st->sargs);
    buf_puts(&call, ")");
    const char *refused = options_refused(m, st);
    if (refused) {
        control_line(m, buf_str(&call), "raises error:badarg", refused);
    } else {
        patterns_apply(m, handles_session(st), st, &result, &rules);
        buf_puts(&rules, st->weak ? " SESSION-FUNCTION SESSION-WEAK" : " SESSION-FUNCTION");
        control_line(m, buf_str(&call), buf_str(&result), buf_str(&rules));
    }
    buf_free(&call);
    buf_free(&result);
    buf_free(&rules);
    return true;
}

/* trace:send/3 or trace:recv/3: erlang:trace_pattern(send | 'receive', ...) in the session. */
static bool message_pattern_step(Model *m, const Step *st)
{
    bool send = st->sop == SO_SEND;
    Buf call, rules;
    buf_init(&call);
    buf_init(&rules);
    handles_call_head(m, &call, send ? "send" : "recv", st);
    put_arg(&call, st->term);
    put_arg(&call, st->sargs);
    buf_puts(&call, ")");
    const char *refused = handles_refused(m, st), *result = "raises error:badarg";
    if (refused) {
        buf_puts(&rules, refused);
    } else {
        result = msgpatterns_set(m, handles_session(st), send, st, &rules);
        buf_puts(&rules, send ? " SESSION-SEND-PATTERN" : " SESSION-RECV-PATTERN");
    }
    control_line(m, buf_str(&call), result, buf_str(&rules));
    buf_free(&call);
    buf_free(&rules);
    return true;
}

/* {Item, Value} */
static Term *item(Model *m, const char *name, Term *value)
{
    return term_tuple3(m->a, term_atom(m->a, name), value, NULL);
}

/* {flags, List} of a flag set, in the order OTP lists them, or {tracer, T}; NULL for another
 * item (badarg). on: the session's tracer is there. */
static Term *flags_or_tracer(Model *m, int s, bool on, FlagSet flags, const char *it)
{
    if (strcmp(it, "tracer") == 0)
        return item(m, "tracer", on ? tracer_term(m, s) : term_nil(m->a));
    if (strcmp(it, "flags") != 0)
        return NULL;
    /* every flag, in the reverse of the order erl_bif_trace.c (trace_info_tracee) conses them:
     * timestamp first, running_procs last (SESSION-INFO, fuzz_session_info_all_flags) */
    static const Flag order[] = {FL_RUNNING_PROCS, FL_RUNNING_PORTS, FL_PORTS, FL_SCHEDULER_ID,
                                 FL_SILENT, FL_RETURN_TO, FL_ARITY, FL_GARBAGE_COLLECTION,
                                 FL_EXITING, FL_RUNNING, FL_SET_ON_FIRST_LINK, FL_SET_ON_LINK,
                                 FL_SET_ON_FIRST_SPAWN, FL_PROCS, FL_CALL, FL_SET_ON_SPAWN,
                                 FL_RECEIVE, FL_SEND, FL_MONOTONIC_TIMESTAMP,
                                 FL_STRICT_MONOTONIC_TIMESTAMP, FL_TIMESTAMP};
    Term *el[FL_COUNT];
    size_t n = 0;
    for (size_t i = 0; on && i < sizeof order / sizeof order[0]; i++)
        if (flags & FLAG_BIT(order[i]))
            el[n++] = term_atom(m->a, flag_name(order[i]));
    return item(m, "flags", term_list(m->a, n, el));
}

/* trace:info(S, PidOrPort, Item): the session's flags and tracer there; undefined when dead;
 * a harness process (a tracer state, <sb>) is never traced.  NULL: badarg. */
static Term *info_process(Model *m, int s, const Term *what, const char *it)
{
    int p = model_proc(m, what->u.name);
    if (p < 0)
        return flags_or_tracer(m, s, false, 0, it);
    if (!m->procs[p].alive && what->kind == TK_PORT) /* looked up before the item (C-45) */
        return term_atom(m->a, "undefined");
    if (!m->procs[p].alive) {
        /* erl_bif_trace.c trace_info_pid checks the item before it asks the process, and then
         * takes a reference to the session for the request that a process gone never gets nor
         * gives back (SESSION-INFO, SESSION-GC-INFO-DEAD, C-375) */
        if (strcmp(it, "flags") != 0 && strcmp(it, "tracer") != 0)
            return NULL;
        m->sessions[s].info_leaked = true;
        return term_atom(m->a, "undefined");
    }
    const TraceState *ts = &m->procs[p].trace[s];
    return flags_or_tracer(m, s, model_attached(ts), ts->flags, it);
}

/* trace:info(S, new | new_processes | new_ports, Item): the defaults for processes (ports)
 * created later (SESSION-INFO-NEW). */
static Term *info_new(Model *m, int s, bool ports, const char *it)
{
    model_read_new_defaults(m, s, ports); /* PROCS-NEW-READ */
    const Session *ses = &m->sessions[s];
    if (ports)
        return flags_or_tracer(m, s, model_attached(&ses->new_ports), ses->new_ports.flags, it);
    return flags_or_tracer(m, s, ses->new_flags != 0, ses->new_flags, it);
}

/* True iff what is {M,F,A} of a fixture module or a library target; *fn is the function, or
 * -1 when there is no such function (or its module is not loaded yet). */
static bool fixture_mfa(const Model *m, const Term *what, int *fn)
{
    if (what->kind != TK_TUPLE || what->u.tuple.n != 3)
        return false;
    const Term *mod = what->u.tuple.el[0], *f = what->u.tuple.el[1], *ar = what->u.tuple.el[2];
    int mi = mod->kind == TK_ATOM ? fixture_module(mod->u.name) : -1;
    if (mi < 0 || f->kind != TK_ATOM || ar->kind != TK_INT)
        return false;
    *fn = m->loaded[mi] ? fixture_fn((FixtureModule)mi, f->u.name, ar->u.i) : -1;
    /* a library module's other functions exist, but the model does not know them (LIB-TARGET-EXACT) */
    return *fn >= 0 || !fixture_module_is_library((FixtureModule)mi);
}

/* A pattern's match spec as info/3 shows it: [] for true. */
static Term *match_spec_value(Model *m, const Term *ms)
{
    return term_is_atom(ms, "true") ? term_nil(m->a) : (Term *)ms;
}

/* The meta item of a pattern: {meta, T} with T the session's tracer as {tracer, T} shows it
 * ({Module, State} or a pid: SESSION-META, C-27), or {meta, false}. In the legacy session
 * (erlang:trace_info/2) the meta tracer is the recorder with its meta state, which
 * erlang:trace_info/2 results print as tcs_recorder (PROTOCOLS.md section 6), or with
 * `tracer process` that process, the `meta` option named ({meta, Pid}: STATUS-INFO-META). */
static Term *meta_item(Model *m, int s, const Pattern *pat)
{
    if (!pat->meta)
        return item(m, "meta", term_atom(m->a, "false"));
    if (pat->meta_nil) /* STATUS-DEAD-PROCESS: a call found the meta tracer process dead */
        return item(m, "meta", term_nil(m->a));
    bool process = m->sessions[s].tracer->kind == TRACER_PROCESS;
    if (s != LEGACY_SESSION || (process && !pat->meta_state))
        return item(m, "meta", tracer_term(m, s));
    if (process) /* {meta, <meta>} */
        return item(m, "meta", (Term *)pat->meta_state);
    Term *state = pat->meta_state ? (Term *)pat->meta_state : term_pid(m->a, "meta");
    const char *mod = m->sessions[s].tracer->kind == TRACER_ERL_MSG ? "erl_msg_tracer" : "tcs_recorder";
    return item(m, "meta", term_tuple3(m->a, term_atom(m->a, mod), state, NULL));
}

/* trace:info(S, {M,F,A} | on_load, Item) for the pattern of a fixture function or the on_load
 * one (NULL: no such function); the counters as counters_value reports them
 * (CALL-COUNTERS-INFO). For on_load `all` lists the same seven items as for a function
 * (SESSION-INFO-ON-LOAD; OTP lists five: C-25); `all` is false while nothing is set. */
Term *sessions_info_function(Model *m, int s, const Pattern *pat, const char *it)
{
    static const char *const items[] = {"traced", "match_spec", "meta", "meta_match_spec",
                                        "call_memory", "call_time", "call_count"};
    bool is_all = strcmp(it, "all") == 0, known_item = is_all;
    for (size_t i = 0; i < sizeof items / sizeof items[0]; i++)
        known_item |= strcmp(it, items[i]) == 0;
    if (!known_item)
        return NULL;
    if (!pat)
        return item(m, it, term_atom(m->a, "undefined"));
    Term *el[7];
    el[0] = item(m, items[0], term_atom(m->a, !pat->set ? "false" : pat->local ? "local" : "global"));
    el[1] = item(m, items[1], !pat->set ? term_atom(m->a, "false") : match_spec_value(m, pat->ms));
    el[2] = meta_item(m, s, pat);
    el[3] = item(m, items[3], !pat->meta ? term_atom(m->a, "false") : match_spec_value(m, pat->meta_ms));
    for (int i = 4; i < 7; i++) {
        CounterKind k = counters_kind(items[i]);
        el[i] = item(m, items[i], counters_value(m, &pat->counters[k], k, pat == &m->sessions[s].on_load));
    }
    if (is_all && !order_pattern_in_use(pat))
        return item(m, "all", term_atom(m->a, "false"));
    /* erl_bif_trace.c, trace_info_on_load: OTP 27 and 29 list neither call_memory nor call_time
     * (C-25) */
    if (is_all && pat == &m->sessions[s].on_load && release_deviates(m, DEV_ON_LOAD_ALL_FIVE)) {
        el[4] = el[6];
        return item(m, "all", term_list(m->a, 5, el));
    }
    if (is_all)
        return item(m, "all", term_list(m->a, 7, el));
    /* erl_bif_trace.c, trace_info_func: OTP 25 and 27 turn the nil meta tracer of a traced
     * function into [] ("backwards compatibility"), OTP 29 answers false (C-210) */
    if (sessions_meta_none(m, s, pat, it) && release_deviates(m, DEV_META_ITEM_NIL))
        return item(m, "meta", term_nil(m->a));
    for (int i = 0;; i++)
        if (strcmp(it, items[i]) == 0)
            return el[i];
}

bool sessions_meta_none(const Model *m, int s, const Pattern *pat, const char *it)
{
    return pat && pat != &m->sessions[s].on_load && strcmp(it, "meta") == 0 && !pat->meta &&
           order_pattern_in_use(pat);
}

static bool info_step(Model *m, const Step *st)
{
    int s = handles_session(st);
    const Term *what = st->term;
    const char *it = st->sargs->u.name;
    Buf call;
    buf_init(&call);
    handles_call_head(m, &call, "info", st);
    put_arg(&call, what);
    put_arg(&call, st->sargs);
    buf_puts(&call, ")");
    const char *refused = handles_refused(m, st);
    if (refused) {
        control_line(m, buf_str(&call), "raises error:badarg", refused);
        buf_free(&call);
        return readings_take(m, st, s, -1, NULL);
    }
    Term *result;
    int fi = -1;
    const Pattern *read = NULL; /* the function's pattern, for a named reading */
    const char *rule = "SESSION-INFO";
    if (what->kind == TK_PID || what->kind == TK_PORT) {
        result = info_process(m, s, what, it);
    } else if (term_is_atom(what, "new") || term_is_atom(what, "new_processes") || term_is_atom(what, "new_ports")) {
        result = info_new(m, s, term_is_atom(what, "new_ports"), it);
        rule = "SESSION-INFO SESSION-INFO-NEW";
    } else if (term_is_atom(what, "on_load")) {
        /* erl_bif_trace.c, trace_info_on_load: while the session has no on_load pattern on, it
         * answers {Item, false} before it looks at the item, so also for flags or tracer */
        const Pattern *on_load = &m->sessions[s].on_load;
        result = order_pattern_in_use(on_load) ? sessions_info_function(m, s, on_load, it)
                                               : item(m, it, term_atom(m->a, "false"));
        rule = "SESSION-INFO SESSION-INFO-ON-LOAD";
    } else if (term_is_atom(what, "system")) { /* its one item is all (003, info/3) */
        result = strcmp(it, "all") == 0 ? sysmon_info(m, s) : NULL;
        rule = "SESSION-INFO SESSION-SYSTEM-INFO";
    } else if (term_is_atom(what, "send") || term_is_atom(what, "receive")) {
        const MessagePattern *pat = term_is_atom(what, "send") ? &m->sessions[s].send_pat : &m->sessions[s].receive_pat;
        Term *ms = pat->off ? term_atom(m->a, "false") : pat->ms ? (Term *)pat->ms : term_atom(m->a, "true");
        result = strcmp(it, "match_spec") == 0 ? item(m, "match_spec", ms) : NULL;
    } else if (fixture_mfa(m, what, &fi)) {
        read = fi < 0 ? NULL : &m->sessions[s].pats[fi];
        const char *uncounted = counters_uncounted(read, it);
        if (uncounted) {
            buf_free(&call);
            return model_unsupported(m, st->line, st->term_col, uncounted);
        }
        result = sessions_info_function(m, s, read, it);
        rule = sessions_meta_none(m, s, read, it) ? "SESSION-INFO STATUS-INFO-META-NONE" : rule;
    } else {
        buf_free(&call);
        return model_unsupported(m, st->line, st->term_col, "this trace:info/3 argument is");
    }
    Buf rules;
    buf_init(&rules);
    buf_printf(&rules, "%s%s", rule, st->weak && result ? " SESSION-WEAK" : "");
    if (result)
        ctl_term(m, &call, result, buf_str(&rules));
    else
        control_line(m, buf_str(&call), "raises error:badarg", buf_str(&rules));
    buf_free(&rules);
    buf_free(&call);
    return readings_take(m, st, s, fi, result ? read : NULL);
}

/* The weak handles of the sessions, as a list term. */
static Term *weak_list(Model *m, const int *sessions, int n)
{
    Term **el = arena_alloc(m->a, (size_t)n * sizeof *el);
    for (int i = 0; i < n; i++)
        el[i] = handles_term(m, sessions[i], true);
    return term_list(m->a, (size_t)n, el);
}

/* Whether a live session is listed by session_info(What) for What an atom: all of them for
 * all; for send and 'receive' those whose pattern is not false; for on_load those with an
 * on_load pattern, counters included; for new and new_processes (new_ports) those with defaults for new
 * processes (ports). */
static bool session_affects(const Session *ses, const Term *what)
{
    if (term_is_atom(what, "send"))
        return !ses->send_pat.off;
    if (term_is_atom(what, "receive"))
        return !ses->receive_pat.off;
    if (term_is_atom(what, "on_load")) /* a counter alone counts (fuzz seed 26112026, 27 and 29) */
        return order_pattern_in_use(&ses->on_load);
    if (term_is_atom(what, "new_ports"))
        return model_attached(&ses->new_ports);
    if (term_is_atom(what, "new") || term_is_atom(what, "new_processes"))
        return ses->new_flags != 0;
    return true;
}

/* trace:session_info(What). */
static bool session_info_step(Model *m, const Step *st)
{
    const Term *what = st->term;
    Buf call;
    buf_init(&call);
    buf_puts(&call, "trace:session_info(");
    term_print(&call, what, PRINT_CANON);
    buf_puts(&call, ")");
    int *list = arena_alloc(m->a, (size_t)m->nsessions * sizeof *list), n = 0, fi;
    Term *result = NULL;
    const char *rules = "SESSION-INFO-SESSIONS";
    if (what->kind == TK_PID || what->kind == TK_PORT) {
        int p = model_proc(m, what->u.name);
        if (p >= 0 && !m->procs[p].alive) {
            result = term_atom(m->a, "undefined");
        } else if (p >= 0) { /* the sessions attached to it, first attached first */
            if (status_asked_scheduled(m, p))
                rules = "SESSION-INFO-SESSIONS STATUS-DEAD-STATE-SCHEDULE-IN";
            int *by;
            int k = order_by_attach(m, p, &by);
            for (int i = k - 1; i >= 0; i--)
                list[n++] = by[i];
        }
    } else if (term_is_atom(what, "all") || term_is_atom(what, "send") || term_is_atom(what, "receive") ||
               term_is_atom(what, "on_load") || term_is_atom(what, "new") ||
               term_is_atom(what, "new_processes") || term_is_atom(what, "new_ports")) {
        /* the live sessions in creation order, the legacy one last; for send and 'receive'
         * those whose pattern is not false, for on_load those with an on_load pattern, for
         * new (new_processes, new_ports) those with defaults for new processes (ports) */
        if (term_is_atom(what, "on_load"))
            rules = "SESSION-INFO-SESSIONS SESSION-INFO-ON-LOAD";
        else if (!term_is_atom(what, "all") && !term_is_atom(what, "send") && !term_is_atom(what, "receive"))
            rules = "SESSION-INFO-SESSIONS SESSION-INFO-NEW";
        int *order = arena_alloc(m->a, (size_t)m->nsessions * sizeof *order);
        unsigned *key = arena_alloc(m->a, (size_t)m->nsessions * sizeof *key);
        int k = 0;
        for (int s = 1; s < m->nsessions; s++) {
            key[s] = m->sessions[s].since;
            if (m->sessions[s].life == LIFE_ALIVE)
                order[k++] = s;
        }
        order_sort(order, key, k, false);
        order[k++] = LEGACY_SESSION;
        for (int i = 0; i < k; i++) {
            const Session *ses = &m->sessions[order[i]];
            if (session_affects(ses, what))
                list[n++] = order[i];
        }
    } else if (fixture_mfa(m, what, &fi)) {
        if (fi < 0) {
            result = term_atom(m->a, "undefined");
        } else {
            /* the sessions with a breakpoint in the function's code (local, meta, counters)
             * first, then those with a global pattern on its export entry, each first set first:
             * erl_bif_trace.c function_traced_by_sessions conses the code's sessions onto the
             * export entry's (SESSION-INFO-SESSIONS, fuzz seed 20261205 group Y2) */
            unsigned *key = arena_alloc(m->a, (size_t)m->nsessions * sizeof *key);
            for (int s = 0; s < m->nsessions; s++) {
                const Pattern *pat = &m->sessions[s].pats[fi];
                bool in_code = (pat->set && pat->local) || pat->meta || !pat->set;
                key[s] = (in_code ? 0u : 1u << 31) | pat->since;
                if (order_pattern_in_use(pat))
                    list[n++] = s;
            }
            order_sort(list, key, n, false);
        }
    } else {
        buf_free(&call);
        return model_unsupported(m, st->line, st->term_col, "this trace:session_info/1 argument is");
    }
    ctl_term(m, &call, result ? result : weak_list(m, list, n), rules);
    buf_free(&call);
    return true;
}

/* trace:delivered(S, Tracee), then the message it promises.  The session is not looked at
 * (SESSION-DELIVERED, C-23): any handle works, even a destroyed session's or {legacy,default}. */
static bool delivered_step(Model *m, const Step *st)
{
    Buf call;
    buf_init(&call);
    handles_call_head(m, &call, "delivered", st);
    put_arg(&call, st->term);
    buf_puts(&call, ")");
    control_line(m, buf_str(&call), "-> _Ref", "SESSION-DELIVERED");
    Term *el[3] = {term_atom(m->a, "trace_delivered"), st->term, term_placeholder(m->a, "_Ref")};
    buf_free(&call);
    buf_puts(&call, "receive()");
    ctl_term(m, &call, term_tuple(m->a, 3, el), "SESSION-DELIVERED");
    buf_free(&call);
    return true;
}

/* trace:system(S, Event, Value) (OTP 28+). */
static bool system_step(Model *m, const Step *st)
{
    Buf call;
    buf_init(&call);
    handles_call_head(m, &call, "system", st);
    put_arg(&call, st->term);
    put_arg(&call, st->sargs);
    buf_puts(&call, ")");
    const char *rules = handles_refused(m, st), *result = "raises error:badarg";
    if (!rules)
        result = sysmon_set(m, handles_session(st), st->term, st->sargs, &rules);
    if (result)
        control_line(m, buf_str(&call), result, rules);
    buf_free(&call);
    return result != NULL;
}

bool sessions_step(Model *m, const Step *st)
{
    switch (st->sop) {
    case SO_CREATE: return create(m, st);
    case SO_DESTROY: return destroy_step(m, st);
    case SO_DROP: return drop(m, st);
    case SO_PROCESS: return process_step(m, st);
    case SO_FUNCTION: return function_step(m, st);
    case SO_SEND:
    case SO_RECV: return message_pattern_step(m, st);
    case SO_INFO: return info_step(m, st);
    case SO_SESSION_INFO: return session_info_step(m, st);
    case SO_SYSTEM: return system_step(m, st);
    case SO_APPLY: return handles_apply_destroys(m, st) ? destroy_step(m, st) : badcalls_step(m, st);
    default: return delivered_step(m, st);
    }
}
