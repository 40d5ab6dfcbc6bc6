/* tracepoint.c - one tracepoint, asked of every session in turn: the enabled line, then the
 * trace line (CONFORMANCE.md section 2, "The enabled protocol" and "Callback dispatch"). */
#include <string.h>

#include "dispatch.h"
#include "model.h"

void tracepoint_emit(Model *m, int s, int proc, const Event *ev, const char *extra_rules)
{
    if (m->sessions[s].tracer->kind == TRACER_PROCESS) {
        sessions_trace_message(m, s, proc, ev, extra_rules);
        return;
    }
    const TraceState *ts = &m->procs[proc].trace[s];
    Buf rules;
    buf_init(&rules);
    /* the rules by which the tracer got attached (none once a return outlives it) */
    buf_printf(&rules, "%s%s%s", ev->rules, ts->origin ? " " : "", ts->origin ? ts->origin : "");
    Event with_origin = *ev;
    with_origin.rules = buf_str(&rules);
    tracepoint_emit_as(m, enabled_session_tracer(m, s), ts->flags, ts->ts_cleared, proc, &with_origin, extra_rules);
    buf_free(&rules);
}

void tracepoint_emit_as(Model *m, Tracer tracer, FlagSet flags, FlagSet ts_cleared, int proc,
                        const Event *ev, const char *extra_rules)
{
    Category c;
    model_category(m, proc, ev->tag, &c);
    Buf body, rules;
    buf_init(&body);
    buf_init(&rules);
    buf_printf(&rules, "FALLBACK-CATEGORY FALLBACK-TRACE %s %s", extra_rules, ev->rules);
    /* TS-CPU: the node's cpu_timestamp flag changes what `timestamp` measures */
    flags |= m->cpu_timestamp ? FLAG_BIT(FL_CPU_TIMESTAMP) : 0;
    Term *opts = opts_build(m->a, flags, ts_cleared, ev->extra, ev->ms_result, &rules);
    buf_printf(&body, "%s(", dispatch_trace(tracer.decl->callbacks, c));
    term_print_atom(&body, ev->tag);
    buf_printf(&body, ", <%s>, ", tracer.state);
    model_print_id(&body, m, proc);
    buf_puts(&body, ", ");
    term_print(&body, ev->term, PRINT_CANON);
    buf_puts(&body, ", ");
    term_print(&body, opts, PRINT_CANON);
    buf_puts(&body, ")");
    bool example = tracer.decl->kind == TRACER_ERL_MSG;
    if (example)
        buf_puts(&rules, " EV-EXAMPLE-TRACER");
    stream_line(m->out, stream_class(ev->tag), buf_str(&body), buf_str(&rules));
    m->procs[proc].last_traced = ev->tag;
    if (example && strcmp(ev->tag, "send") == 0 && ev->extra) {
        /* EV-EXAMPLE-TRACER: trace/5 sends {trace, Tracee, Recipient} to its state */
        buf_free(&body);
        buf_printf(&body, "msg(<%s>, {trace,", tracer.state);
        model_print_id(&body, m, proc);
        buf_puts(&body, ",");
        term_print(&body, ev->extra, PRINT_CANON);
        buf_puts(&body, "})");
        stream_line(m->out, 'N', buf_str(&body), "EV-EXAMPLE-TRACER");
    }
    buf_free(&body);
    buf_free(&rules);
}

bool tracepoint_accept(Model *m, int s, int proc, const char *tag, const char *ev_rules)
{
    if (m->sessions[s].tracer->kind == TRACER_PROCESS) /* SESSION-PROCESS-TRACER: no callbacks */
        return true;
    return enabled_consult(m, s, proc, tag, ev_rules);
}

void tracepoint_fire(Model *m, int proc, const Event *ev)
{
    int order[MAX_SESSIONS];
    int n = sessions_by_attach(m, proc, order);
    for (int i = 0; i < n; i++) {
        int s = order[i];
        Event sev = *ev;
        sev.rules = sessions_rules(m, s, n, ev->rules, "SESSION-ORDER-PROCESS");
        if (enabled_live(m, s, proc, ev->tag) && tracepoint_accept(m, s, proc, ev->tag, sev.rules))
            tracepoint_emit(m, s, proc, &sev, "ENABLED-TRACE");
    }
}

void tracepoint_event(Model *m, int proc, const char *tag, const Term *term, const Term *extra,
                      const char *rules)
{
    Event ev = {tag, term, extra, NULL, rules};
    tracepoint_fire(m, proc, &ev);
}
