/* procspec.c - what erlang:trace/3 does with its first argument and its flags: which
 * processes it names (a pid, all, existing, new, ...), the flags it sets or clears on each,
 * what it returns, and when it raises badarg; the step's ctl line (CONFORMANCE.md section 2,
 * "Process trace flags and process specs", CTL-TRACE). */
#include "busyloop.h"
#include "control.h"
#include "enabled.h"
#include "order.h"
#include "procspec.h"
#include "release.h"
#include "tracermod.h"

/* NULL if erlang:trace/3 accepts the step's arguments, else the rule IDs of why
 * it raises badarg (FLAGS-BADARG, FLAGS-CPU-TIMESTAMP, CTL-TRACE). */
static const char *procspec_refusal(const Model *m, const Step *st)
{
    if (st->bad_flag)
        return "FLAGS-BADARG";
    for (int i = 0; i < st->nflags; i++)
        if (st->flags[i] == FL_CPU_TIMESTAMP && st->spec != SPEC_ALL)
            return "FLAGS-CPU-TIMESTAMP"; /* "Only allowed with Procs==all" */
    if (st->spec == SPEC_PID && !m->procs[model_proc(m, st->actor)].alive)
        return "CTL-TRACE";
    return NULL;
}

/* Tracing of session s started (or extended) on process p with the flags set: the
 * trace_status probe, then attached unless it answered remove; origin names the rules; state:
 * the tracer's state the step named (NULL: the session's, TRACER-OPTION). */
static void procspec_attach(Model *m, int s, int p, FlagSet set, const char *origin, const Term *state)
{
    TraceState *ts = &m->procs[p].trace[s];
    if (!model_attached(ts))
        ts->state = state;
    /* STATUS-PROBE, during the call; a remove answer detaches it, the call still counts it.
     * PORTS-NO-START-PROBE: a port is not probed (erl_bif_trace.c start_trace) */
    Answer probe = m->procs[p].is_port ? ANS_TRACE : enabled_probe(m, s, p);
    order_set_flags(m, ts, set, true, probe, origin);
}

/* The flags set on (or cleared from) the process or port p by a step naming it or a spec. */
static void set_flags(Model *m, int s, int p, FlagSet set, bool on, const char *origin, const Term *state)
{
    if (on)
        procspec_attach(m, s, p, set, origin, state);
    else
        order_set_flags(m, &m->procs[p].trace[s], set, false, ANS_TRACE, NULL);
    if (s == LEGACY_SESSION && (on || (set & FLAG_BIT(FL_SILENT)))) /* C-150: clears OTP 25's stray flag */
        m->procs[p].untraced_silent = false;
}

static FlagSet step_flags(const Step *st)
{
    FlagSet set = 0;
    for (int i = 0; i < st->nflags; i++)
        if (st->flags[i] != FL_COUNT) /* a {tracer, ...} flag of an accepted step */
            set |= flags_expand(st->flags[i]);
    return set;
}

/* PROCS-NEW-PROBE: defaults for new processes (or ports) that still hold flags after the
 * change are checked at once by a trace_status probe about no tracee, asked of their own
 * tracer (state, NULL: the session's; PROCS-NEW-TRACER); true iff it answered remove, which
 * clears them (erts_change_new_p_tracing, get_new_p_tracing: C-93; trace:process/port of a
 * session's new specs reach the same function: C-400). */
bool procspec_defaults_probe_removes(Model *m, int s, const Term *state, Buf *rules)
{
    Tracer defaults = enabled_session_tracer(m, s);
    defaults.state = state ? state : defaults.state;
    if (enabled_probe_as(m, defaults, -1, "PROCS-NEW-PROBE") != ANS_REMOVE)
        return false;
    buf_puts(rules, " PROCS-NEW-PROBE");
    return true;
}

/* What a spec naming existing processes returns: the number of processes (and ports) it
 * matched on the node, which includes the harness's own: printed as a placeholder the live
 * runner checks against the node's counts (PROCS-SPEC-COUNT). */
static const char *count_placeholder(FlagSet set, bool procs_too, bool ports_too)
{
    bool procs = procs_too && flags_for_processes(set), ports = ports_too && flags_for_ports(set);
    return procs && ports ? "_ProcessesAndPorts" : procs ? "_Processes" : ports ? "_Ports" : "0";
}

/* Which processes and ports a spec names (st->spec other than SPEC_PID): those that exist at
 * the call (existing), those created later (future); processes (procs), ports (ports). */
typedef struct { bool procs, ports, existing, future; } Reach;

static Reach spec_reach(ProcSpec spec)
{
    /* all, existing and new name ports as well; the *_processes specs do not, the port specs
     * name ports only */
    return (Reach){
        .procs = !spec_is_ports(spec),
        .ports = spec == SPEC_ALL || spec == SPEC_EXISTING || spec == SPEC_NEW || spec_is_ports(spec),
        .existing = spec != SPEC_NEW && spec != SPEC_NEW_PROCESSES && spec != SPEC_NEW_PORTS,
        .future = spec != SPEC_EXISTING && spec != SPEC_EXISTING_PROCESSES && spec != SPEC_EXISTING_PORTS,
    };
}

/* Whether a spec reaching r with the flags set matches the process or port p, alive at the
 * call: a process (port) is matched when some flag applies to processes (ports), PROCS-SPEC-COUNT. */
static bool spec_matches(const Model *m, Reach r, FlagSet set, int p)
{
    const Proc *pp = &m->procs[p];
    bool kind = pp->is_port ? r.ports && flags_for_ports(set) : r.procs && flags_for_processes(set);
    return pp->alive && r.existing && kind;
}

bool procspec_off_clears(bool on, bool names_tracer)
{
    /* erl_bif_trace.c trace(): with How false the tracer stays nil unless a flag names one, and
     * erts_change_default_proc_tracing / _port_tracing set the defaults' tracer to it; without
     * a tracer get_default_tracing (erl_trace.c) keeps no flag */
    return !on && !names_tracer;
}

const char *procspec_apply(Model *m, int s, const Step *st, const Term *state, Buf *rules)
{
    FlagSet set = step_flags(st) & ~FLAG_BIT(FL_CPU_TIMESTAMP);
    bool has_all = false;
    for (int i = 0; i < st->nflags; i++)
        has_all |= st->flags[i] == FL_ALL;
    if (has_all)
        buf_puts(rules, " FLAGS-ALL");
    if (step_flags(st) & FLAG_BIT(FL_CPU_TIMESTAMP)) {
        m->cpu_timestamp = st->on; /* TS-CPU: a node-wide flag, not a process's */
        buf_puts(rules, " TS-CPU");
    }
    if (!st->on)
        buf_puts(rules, " FLAGS-OFF");
    if (st->spec == SPEC_PID) { /* CTL-TRACE, PORTS-TRACE: one process or port */
        int p = model_proc(m, st->actor);
        const TraceState *ts = &m->procs[p].trace[s];
        bool had = model_attached(ts) && ts->flags;
        set_flags(m, s, p, set, st->on, "CTL-TRACE", state);
        if (m->procs[p].is_port)
            buf_puts(rules, st->on ? " PORTS-TRACE PORTS-NO-START-PROBE" : " PORTS-TRACE");
        if (set & FLAG_BIT(FL_SILENT))
            buf_puts(rules, " FLAGS-SILENT");
        if (st->on && had && model_attached(ts))
            buf_puts(rules, " FLAGS-UNION");
        else if (st->on && !model_attached(ts)) /* the probe answered remove */
            buf_puts(rules, " STATUS-REMOVE-FLAGS");
        else if (had && !model_attached(ts))
            buf_puts(rules, " FLAGS-OFF-EMPTY");
        return "1";
    }
    static const char *const spec_rules[] = {
        NULL, "PROCS-SPEC-ALL", "PROCS-SPEC-ALL", "PROCS-SPEC-EXISTING", "PROCS-SPEC-EXISTING",
        "PROCS-SPEC-NEW", "PROCS-SPEC-NEW", "PORTS-NEW", "SESSION-PORT-SPEC-ALL", "SESSION-PORT-SPEC-ALL",
    };
    const char *rule = spec_rules[st->spec];
    buf_printf(rules, " %s", rule);
    Reach r = spec_reach(st->spec);
    Session *ses = &m->sessions[s];
    bool clears = procspec_off_clears(st->on, state != NULL);
    /* PROCS-NEW-TRACER: turning flags on for them gives the defaults the step's tracer, whatever
     * they had (erl_trace.c erts_change_new_p_tracing: erts_tracer_update(default_tracer, tracer)) */
    bool names_new_tracer = st->on && state && r.future;
    if (r.future && r.procs) { /* the port-only flags are for new ports, not new processes (seen live) */
        FlagSet for_procs = flags_for_processes(set);
        if (clears && for_procs) {
            ses->new_flags = 0;
            buf_puts(rules, " PROCS-NEW-OFF-CLEARS");
        } else
            ses->new_flags = st->on ? ses->new_flags | for_procs : ses->new_flags & ~for_procs;
        if (st->on && for_procs)
            ses->new_state = state;
        if (ses->new_flags && procspec_defaults_probe_removes(m, s, ses->new_state, rules))
            ses->new_flags = 0;
    }
    FlagSet for_ports = spec_is_ports(st->spec) ? set : flags_for_ports(set);
    if (r.future && r.ports && (spec_is_ports(st->spec) || for_ports)) {
        if (clears && flags_for_ports(set)) {
            model_detach(&ses->new_ports);
            buf_puts(rules, " PROCS-NEW-OFF-CLEARS");
        } else
            order_set_flags(m, &ses->new_ports, for_ports, st->on, ANS_TRACE, rule);
        if (st->on && for_ports && model_attached(&ses->new_ports))
            ses->new_ports.state = state;
        if (ses->new_ports.flags && procspec_defaults_probe_removes(m, s, ses->new_ports.state, rules))
            model_detach(&ses->new_ports);
    }
    if (names_new_tracer)
        buf_puts(rules, " PROCS-NEW-TRACER");
    if (!r.existing)
        return "0"; /* PROCS-SPEC-NEW, PORTS-NEW: "If Procs is new, the return value is 0" */
    /* a process matched gets every flag given (C-43), a port those for ports, with the step's
     * tracer (PROCS-SPEC-TRACER) */
    for (int p = 0; p < m->nprocs; p++)
        if (spec_matches(m, r, set, p))
            set_flags(m, s, p, m->procs[p].is_port ? flags_for_ports(set) : set, st->on, rule, state);
    if (st->on && state)
        buf_puts(rules, " PROCS-SPEC-TRACER");
    buf_puts(rules, " PROCS-SPEC-COUNT");
    return count_placeholder(step_flags(st), r.procs, r.ports);
}

/* C-150: OTP 25's start_trace asks a process's current tracer whether it is still in use when
 * the process has flags and the step gives a tracer; a process that a meta match spec made silent
 * while untraced has the flag and no tracer, and erts_is_tracer_enabled dereferences that nil
 * tracer (lookup_tracer_nif, fixed in OTP 25.3 by erlang/otp#6495). True when the step reaches
 * such a process (spec as in procspec_apply). */
static bool reaches_stray_silent(const Model *m, const Step *st)
{
    if (!st->on)
        return false;
    if (st->spec == SPEC_PID)
        return release_stray_silent(m, model_proc(m, st->actor));
    for (int p = 0; p < m->nprocs; p++)
        if (!m->procs[p].is_port && spec_matches(m, spec_reach(st->spec), step_flags(st), p) &&
            release_stray_silent(m, p))
            return true;
    return false;
}

/* C-315: a spec turning flags on reaches a process or port that another tracer (another
 * state) traces: erl_bif_trace.c start_trace asks that tracer enabled(trace_status, ...) and,
 * while it answers trace or discard, leaves the process as it is and out of the count that
 * trace/3 returns, which the count placeholders (PROCS-SPEC-COUNT) cannot state. state: the
 * step's tracer state, NULL for the session's. */
static bool reaches_other_tracer(const Model *m, const Step *st, const Term *state)
{
    if (!st->on || st->spec == SPEC_PID)
        return false;
    const Term *own = m->sessions[LEGACY_SESSION].state_term;
    for (int p = 0; p < m->nprocs; p++) {
        const TraceState *ts = &m->procs[p].trace[LEGACY_SESSION];
        if (spec_matches(m, spec_reach(st->spec), step_flags(st), p) && model_attached(ts) &&
            term_compare(ts->state ? ts->state : own, state ? state : own) != 0)
            return true;
    }
    return false;
}

/* PROCS-SPEC-ROUNDS: `trace SPEC on call rounds N` is N calls, erlang:trace(SPEC, false, [call])
 * between each two. That call gives back the state before the step when no process the spec
 * reaches is traced yet (nor left silent by C-150) and no defaults for new processes are set: a
 * round then passes through the state before the step and the state after it only, which the
 * lines of one step state (a busy loop's window for each, CALL-BUSY-LOOP), and a tracer process
 * writes no probe line (the parser asks for one). */
typedef enum { ROUNDS_KEEP_STATE, ROUNDS_NEW_FLAGS, ROUNDS_TRACED } RoundsVerdict;

static RoundsVerdict rounds_verdict(const Model *m, const Step *st)
{
    Reach r = spec_reach(st->spec);
    FlagSet set = step_flags(st);
    if (r.future && r.procs && m->sessions[LEGACY_SESSION].new_flags)
        return ROUNDS_NEW_FLAGS;
    for (int p = 0; p < m->nprocs; p++)
        if (spec_matches(m, r, set, p) &&
            (model_attached(&m->procs[p].trace[LEGACY_SESSION]) || m->procs[p].untraced_silent))
            return ROUNDS_TRACED;
    return ROUNDS_KEEP_STATE;
}

bool procspec_step(Model *m, const Step *st)
{
    Buf call, rules;
    buf_init(&call);
    buf_init(&rules);
    buf_puts(&call, "erlang:trace(");
    if (st->spec == SPEC_PID)
        model_print_id(&call, m, model_proc(m, st->actor));
    else
        term_print_atom(&call, st->actor);
    buf_printf(&call, ",%s,[", st->on ? "true" : "false");
    for (int i = 0; i < st->nflags; i++) {
        if (i)
            buf_puts(&call, ",");
        term_print(&call, st->flag_terms[i], PRINT_CANON);
    }
    buf_puts(&call, "])");
    /* erlang.erl loads a tracer module first (TRACER-LOAD-ON-DEMAND), then erts checks */
    TracerVerdict verdict;
    const Term *state;
    Buf tracer_rules;
    buf_init(&tracer_rules);
    if (!tracermod_check(m, st, false, &verdict, &state, &tracer_rules)) {
        buf_free(&tracer_rules);
        buf_free(&call);
        buf_free(&rules);
        return false;
    }
    const Term *session_state = m->sessions[LEGACY_SESSION].state_term;
    const char *refusal = verdict != TRACER_ACCEPTED ? "CTL-TRACE" : procspec_refusal(m, st);
    RoundsVerdict rounds = !refusal && st->rounds > 1 ? rounds_verdict(m, st) : ROUNDS_KEEP_STATE;
    if (rounds != ROUNDS_KEEP_STATE) {
        buf_free(&tracer_rules);
        buf_free(&call);
        buf_free(&rules);
        return model_unsupported(m, st->line, st->col, rounds == ROUNDS_NEW_FLAGS
                                 ? "a trace step with rounds while new processes get trace flags (the off between "
                                   "its rounds would clear them) is"
                                 : "a trace step with rounds that reaches a process traced already (the off between "
                                   "its rounds would clear its flags) is");
    }
    if (!refusal && reaches_other_tracer(m, st, state)) {
        buf_free(&tracer_rules);
        buf_free(&call);
        buf_free(&rules);
        return model_unsupported(m, st->line, st->col, "a process spec turning flags on for a process that "
                                 "another tracer traces (OTP leaves it out of the count: C-315) is");
    }
    buf_puts(&rules, refusal ? refusal : "CTL-TRACE");
    buf_puts(&rules, buf_str(&tracer_rules));
    buf_free(&tracer_rules);
    const char *result = NULL;
    if (!refusal) {
        int p = st->spec == SPEC_PID ? model_proc(m, st->actor) : -1;
        const TraceState *ts = p >= 0 ? &m->procs[p].trace[LEGACY_SESSION] : NULL;
        /* start_trace compares tracers only to turn flags on: off clears them whatever the tracer */
        if (st->on && ts && model_attached(ts) && term_compare(ts->state ? ts->state : session_state,
                                                      state ? state : session_state) != 0) {
            buf_puts(&rules, " TRACER-OPTION-TAKEN"); /* another tracer traces it: badarg (C-124) */
        } else if (reaches_stray_silent(m, st) && release_deviates(m, DEV_STRAY_SILENT_CRASH)) {
            /* a crash (ref/state/release.c): the run ends here, no result, no ctl line */
        } else { /* the trace_status probe happens during the call, before its result (STATUS-PROBE) */
            result = procspec_apply(m, LEGACY_SESSION, st, state, &rules);
            if (st->rounds > 1) /* every round answers as the one the line prints */
                buf_puts(&rules, " PROCS-SPEC-ROUNDS");
            if (st->spec == SPEC_ALL || st->spec == SPEC_PROCESSES || st->spec == SPEC_EXISTING ||
                st->spec == SPEC_EXISTING_PROCESSES) /* the specs OTP-19034 names */
                busyloop_spec_trace(m);
        }
    }
    if (!m->crashed) {
        Buf res;
        buf_init(&res);
        if (result)
            buf_printf(&res, "-> %s", result);
        else
            buf_printf(&res, "raises error:%s", verdict == TRACER_UNDEF ? "undef" : "badarg");
        control_line(m, buf_str(&call), buf_str(&res), buf_str(&rules));
        buf_free(&res);
    }
    buf_free(&call);
    buf_free(&rules);
    return true;
}
