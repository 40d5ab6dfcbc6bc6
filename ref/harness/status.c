/* status.c - the tracer side of tracing: asking erlang:trace_info/2, a tracer removed from a
 * tracee, and a tracer state process that dies (CONFORMANCE.md section 2, "Tracer status"). */
#include <string.h>

#include "control.h"
#include "enabled.h"
#include "release.h"
#include "status.h"

/* {flags, [F...]} with the flags in Erlang term order, which for atoms is by name
 * (STATUS-INFO-FLAGS: the documented order is arbitrary, the stream sorts). */
static Term *flags_term(Model *m, FlagSet set)
{
    Term *el[FL_COUNT];
    size_t n = 0;
    for (int f = 0; f < FL_COUNT; f++)
        if (set & FLAG_BIT(f)) {
            Term *t = term_atom(m->a, flag_name((Flag)f));
            size_t i = n++;
            for (; i > 0 && term_compare(el[i - 1], t) > 0; i--)
                el[i] = el[i - 1];
            el[i] = t;
        }
    return term_list(m->a, n, el);
}

/* {tracer, {Module, State}}, {tracer, Pid} for a tracer process, or {tracer, []}
 * (STATUS-INFO-TRACER); own: the state a process's tracer was given, or NULL (TRACER-OPTION). */
static Term *tracer_term(Model *m, int s, bool attached, const Term *own)
{
    const Session *ses = &m->sessions[s];
    if (!attached)
        return term_nil(m->a);
    if (ses->tracer->kind == TRACER_PROCESS)
        return (Term *)ses->state_term;
    const char *module = ses->tracer->kind == TRACER_ERL_MSG ? "erl_msg_tracer" : "tcs_recorder";
    return term_tuple3(m->a, term_atom(m->a, module), (Term *)(own ? own : ses->state_term), NULL);
}

bool status_info(Model *m, const Step *st)
{
    const int s = LEGACY_SESSION; /* erlang:trace_info/2 asks the legacy session */
    bool flags = strcmp(st->item, "flags") == 0;
    Buf call, rules;
    buf_init(&call);
    buf_init(&rules);
    Term *value, *result = NULL; /* result: the whole answer when it is not {Item, Value} */
    if (st->spec != SPEC_PID) { /* the defaults for new processes (PROCS-SPEC-NEW) */
        bool cleared = model_read_new_defaults(m, s, false);
        FlagSet set = m->sessions[s].new_flags;
        value = flags ? flags_term(m, set) : tracer_term(m, s, set != 0, m->sessions[s].new_state);
        buf_puts(&call, "erlang:trace_info(");
        term_print_atom(&call, st->actor);
        buf_printf(&rules, "STATUS-INFO PROCS-SPEC-NEW%s", cleared ? " PROCS-NEW-READ STATUS-DEAD-STATE" : "");
    } else {
        int p = model_proc(m, st->actor);
        TraceState *ts = &m->procs[p].trace[s];
        buf_printf(&call, "erlang:trace_info(<%s>", st->actor);
        buf_puts(&rules, "STATUS-INFO");
        if (!m->procs[p].alive) { /* the bare atom, for every item (STATUS-INFO-DEAD, C-45) */
            value = NULL;
            result = term_atom(m->a, "undefined");
            buf_puts(&rules, " STATUS-INFO-DEAD");
        } else {
            /* asking is one of the points where trace_status is probed (STATUS-PROBE-INFO) */
            if (ts->attached && enabled_probe(m, s, p) == ANS_REMOVE) {
                model_detach(ts);
                buf_puts(&rules, " STATUS-PROBE-INFO STATUS-REMOVE");
            }
            FlagSet set = ts->flags;
            /* C-415: OTP 25's trace_info_pid answers ERTS_TRACE_FLAGS(tracee) whatever the tracer,
             * so the stray silent flag of C-150 shows (27 asks the session's tracer ref) */
            if (flags && release_stray_silent(m, p) && release_deviates(m, DEV_STRAY_SILENT_INFO)) {
                set |= FLAG_BIT(FL_SILENT);
                buf_puts(&rules, " MS-SILENT-UNTRACED");
            }
            value = flags ? flags_term(m, set) : tracer_term(m, s, ts->attached, ts->state);
            if (ts->origin)
                buf_printf(&rules, " %s", ts->origin);
            if (ts->cleared_by)
                buf_printf(&rules, " %s", ts->cleared_by);
        }
    }
    buf_printf(&call, ",%s)", st->item);
    Buf res;
    buf_init(&res);
    buf_puts(&res, "-> ");
    term_print(&res, result ? result : term_tuple3(m->a, term_atom(m->a, st->item), value, NULL), PRINT_CANON);
    control_line(m, buf_str(&call), buf_str(&res), buf_str(&rules));
    buf_free(&res);
    buf_free(&call);
    buf_free(&rules);
    return true;
}

bool status_tracer_exit(Model *m, const Step *st)
{
    (void)st; /* the reason does not matter to the tracer: only that the process is gone */
    Session *legacy = &m->sessions[LEGACY_SESSION];
    legacy->state_dead = true;
    if (m->legacy_monitor && strcmp(m->legacy_monitor, "tracer") == 0)
        m->legacy_monitor = NULL; /* SYSMON-LEGACY-SET: cleared when its process ends */
    if (legacy->tracer->kind != TRACER_PROCESS)
        return true;
    /* PORT-TRACER-DEAD: the tracer port closes with its owner, the state process; erl_tracer's
     * enabled/3 answers remove for a port that is not alive, as for a dead process */
    if (legacy->state_term->kind == TK_PORT)
        control_decided(m, "PORT-TRACER-DEAD");
    /* STATUS-DEAD-PROCESS: the runtime drops a dead tracer process at its tracees' next event
     * and at every trace_info (erl_tracer's enabled answers remove), and so does a read of the
     * defaults for new processes and ports: no step can tell that from dropping it now. The
     * sessions created with tracer undefined name the same process (SESSION-UNDEFINED-TRACER). */
    control_decided(m, "STATUS-DEAD-PROCESS");
    for (int s = 0; s < m->nsessions; s++) {
        Session *ses = &m->sessions[s];
        if (s != LEGACY_SESSION && !ses->tracer_undefined)
            continue;
        for (int p = 0; p < m->nprocs; p++)
            model_detach(&m->procs[p].trace[s]);
        ses->new_flags = 0;
        ses->new_state = NULL;
        model_detach(&ses->new_ports);
    }
    return true;
}

/* STATUS-DEAD-STATE-SCHEDULE-IN: erts schedules p in; erl_process.c trace_schedule_in ("Clear
 * tracer if it has been removed") probes trace_status, which the dead state answers remove, and
 * the process removes the tracer itself (erl_trace.c is_tracer_ref_enabled: "Only remove tracer
 * on (self() or ports)"). The probe is not predicted, as no schedule-in probe is (STATUS-PROBE,
 * C-326). True iff p lost the tracer. */
static bool scheduled_in(Model *m, int p)
{
    TraceState *ts = &m->procs[p].trace[LEGACY_SESSION];
    if (!model_attached(ts) || !model_tracer_gone(enabled_proc_tracer(m, LEGACY_SESSION, p)))
        return false;
    model_detach(ts);
    return true;
}

void status_settled(Model *m)
{
    if (!m->sessions[LEGACY_SESSION].state_dead)
        return;
    for (int p = 0; p < m->nprocs; p++) /* the settle's poke wakes each puppet in the gate */
        if (model_waits_in_gate(&m->procs[p]))
            scheduled_in(m, p);
}

bool status_asked_scheduled(Model *m, int p)
{
    /* trace_info_pid sends p an RPC request (erl_bif_trace.c, erts_proc_sig_send_rpc_request);
     * a process running dirty code (the gate's NIF) has it handled by the dirty signal handler */
    const Proc *pp = &m->procs[p];
    return pp->alive && !pp->is_port && !model_waits_in_gate(pp) && scheduled_in(m, p);
}
