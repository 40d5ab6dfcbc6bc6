/* enabled.c - the enabled protocol: answers, trace_status probe, remove. */
#include <string.h>

#include "control.h"
#include "enabled.h"

Tracer enabled_session_tracer(const Model *m, int s)
{
    const Session *ses = &m->sessions[s];
    return (Tracer){ses->tracer, ses->state_term, ses->state_dead};
}

Tracer enabled_proc_tracer(const Model *m, int s, int proc)
{
    Tracer t = enabled_session_tracer(m, s);
    const Term *own = m->procs[proc].trace[s].state;
    t.state = own ? own : t.state; /* TRACER-OPTION: the state this process's tracer got */
    return t;
}

Answer enabled_answer(Tracer t, const char *tag)
{
    bool status = strcmp(tag, "trace_status") == 0;
    if (model_tracer_gone(t)) /* STATUS-DEAD-STATE: its state is gone */
        return status ? ANS_REMOVE : ANS_DISCARD;
    if (t.decl->kind == TRACER_ERL_MSG) /* EV-EXAMPLE-TRACER */
        return strcmp(tag, "send") == 0 || status ? ANS_TRACE : ANS_DISCARD;
    for (size_t i = 0; i < t.decl->nanswers; i++)
        if (strcmp(t.decl->answers[i].tag, tag) == 0)
            return t.decl->answers[i].answer;
    return t.decl->default_answer;
}

static const char *tracer_rule(Tracer t)
{
    if (t.decl->kind != TRACER_ERL_MSG) /* a NIF tracer's state: the runtime never looks at it */
        return t.state_dead ? " STATUS-DEAD-STATE-NIF" : "";
    return t.state_dead ? " EV-EXAMPLE-TRACER STATUS-DEAD-STATE" : " EV-EXAMPLE-TRACER";
}

/* TRACER-UNLOADED: the legacy tracer's module was deleted and not loaded since: the runtime
 * finds no callback to ask, and the tracee loses the tracer, silently. */
static bool enabled_unloaded(Model *m, int s, int proc)
{
    if (s != LEGACY_SESSION || !m->tracer_unloaded)
        return false;
    model_detach(&m->procs[proc].trace[s]);
    return true;
}

Answer enabled_probe(Model *m, int s, int proc)
{
    if (enabled_unloaded(m, s, proc))
        return ANS_REMOVE;
    if (m->sessions[s].tracer->kind == TRACER_PROCESS) /* no callbacks (SESSION-PROCESS-TRACER) */
        return ANS_TRACE;
    return enabled_probe_as(m, enabled_proc_tracer(m, s, proc), proc, "STATUS-REMOVE");
}

Answer enabled_probe_as(Model *m, Tracer tracer, int proc, const char *remove_rule)
{
    if (tracer.decl->kind == TRACER_PROCESS) /* a meta tracer process: no callbacks to ask */
        return ANS_TRACE;
    Answer ans = enabled_answer(tracer, "trace_status");
    Buf body, rules;
    buf_init(&body);
    buf_init(&rules);
    /* STATUS-PROBE: always enabled/3, never enabled_X */
    buf_puts(&body, "enabled(trace_status, ");
    term_print(&body, tracer.state, PRINT_CANON);
    buf_puts(&body, ", ");
    if (proc < 0) /* a probe about no tracee: the system seq tracer's (SEQ-TRACER-PROBE) */
        buf_puts(&body, "undefined");
    else
        model_print_id(&body, m, proc);
    buf_printf(&body, ") -> %s", answer_name(ans));
    buf_printf(&rules, "STATUS-PROBE%s%s%s", ans == ANS_REMOVE ? " " : "", ans == ANS_REMOVE ? remove_rule : "",
               tracer_rule(tracer));
    stream_line(m->out, stream_class("trace_status"), buf_str(&body), buf_str(&rules));
    buf_free(&body);
    buf_free(&rules);
    return ans;
}

bool enabled_live(const Model *m, int s, int proc, const char *tag)
{
    const Proc *p = &m->procs[proc];
    Category c;
    return p->alive && p->trace[s].attached && model_category(m, proc, tag, &c) &&
           flags_cover_tag(p->trace[s].flags, c, tag);
}

bool enabled_consult(Model *m, int s, int proc, const char *tag, const char *ev_rules)
{
    /* TRACER-UNLOADED-PORT-KEEPS: a port's event asks with its own tag, not trace_status, and
     * erl_trace.c call_enabled_tracer answers a tag other than trace_status discard when the NIF
     * is gone: the event is dropped and the port keeps its tracer (C-330); a process has been
     * scheduled in before its event, where the trace_status check removed it (enabled_unloaded) */
    if (m->procs[proc].is_port && s == LEGACY_SESSION && m->tracer_unloaded) {
        control_decided(m, "TRACER-UNLOADED-PORT-KEEPS");
        return false;
    }
    if (enabled_unloaded(m, s, proc))
        return false;
    Buf rules;
    buf_init(&rules);
    /* the rules by which the tracer got attached to proc, if they are known */
    const char *origin = m->procs[proc].trace[s].origin;
    buf_printf(&rules, "%s%s%s", ev_rules, origin ? " " : "", origin ? origin : "");
    bool port = m->procs[proc].is_port;
    Answer ans = enabled_ask(m, enabled_proc_tracer(m, s, proc), proc, tag, buf_str(&rules),
                             port ? "PORTS-REMOVE-EVENT" : "ENABLED-REMOVE-EVENT");
    buf_free(&rules);
    /* ENABLED-REMOVE-EVENT: treated as discard; for send and call tracepoints the tracer is
     * detached as well, for 'receive' and procs ones it is not (C-5, C-47); a port loses it at
     * each of its tracepoints (PORTS-REMOVE-EVENT: erl_trace.c is_tracer_enabled, "Only
     * remove tracer on self() and ports") */
    Category c;
    model_category(m, proc, tag, &c);
    if (ans == ANS_REMOVE && (port || c == CAT_SEND || c == CAT_CALL))
        model_detach(&m->procs[proc].trace[s]);
    return ans == ANS_TRACE;
}

Answer enabled_ask(Model *m, Tracer tracer, int proc, const char *tag, const char *ev_rules,
                   const char *remove_rule)
{
    if (tracer.decl->kind == TRACER_PROCESS) /* a meta tracer process: no callbacks to ask */
        return ANS_TRACE;
    Category c;
    model_dispatch_category(m, proc, tag, &c);
    Answer ans = enabled_answer(tracer, tag);
    Buf body, rules;
    buf_init(&body);
    buf_init(&rules);
    buf_printf(&body, "%s(", dispatch_enabled(tracer.decl->callbacks, c));
    term_print_atom(&body, tag);
    buf_puts(&body, ", ");
    term_print(&body, tracer.state, PRINT_CANON);
    buf_puts(&body, ", ");
    model_print_id(&body, m, proc);
    buf_printf(&body, ") -> %s", answer_name(ans));
    buf_printf(&rules, "FALLBACK-CATEGORY FALLBACK-ENABLED%s%s %s%s",
               ans == ANS_DISCARD ? " ENABLED-DISCARD" : ans == ANS_REMOVE ? " " : "",
               ans == ANS_REMOVE ? remove_rule : "", ev_rules, tracer_rule(tracer));
    stream_line(m->out, stream_class(tag), buf_str(&body), buf_str(&rules));
    buf_free(&body);
    buf_free(&rules);
    return ans;
}

/* The enabled(seq_trace, ...) line with the tracee already printed: the seq tracer is always
 * the legacy session's tracer, asked with enabled/3 (SEQ-ENABLED). */
static bool seq_trace_line(Model *m, const Buf *tracee, const char *rules)
{
    if (m->sessions[LEGACY_SESSION].tracer->kind == TRACER_PROCESS) /* a process or port: no callbacks */
        return true;
    Answer ans = enabled_answer(enabled_session_tracer(m, LEGACY_SESSION), "seq_trace");
    Buf body;
    buf_init(&body);
    buf_puts(&body, "enabled(seq_trace, ");
    term_print(&body, m->sessions[LEGACY_SESSION].state_term, PRINT_CANON); /* the seq tracer's state */
    buf_printf(&body, ", %s) -> %s", buf_str(tracee), answer_name(ans));
    stream_line(m->out, 'N', buf_str(&body), rules);
    buf_free(&body);
    return ans == ANS_TRACE;
}

bool enabled_seq_trace(Model *m, int p, const char *rules)
{
    Buf tracee;
    buf_init(&tracee);
    model_print_id(&tracee, m, p);
    bool traced = seq_trace_line(m, &tracee, rules);
    buf_free(&tracee);
    return traced;
}

bool enabled_seq_trace_named(Model *m, const char *name, const char *rules)
{
    Buf tracee;
    buf_init(&tracee);
    buf_printf(&tracee, "<%s>", name);
    bool traced = seq_trace_line(m, &tracee, rules);
    buf_free(&tracee);
    return traced;
}

bool enabled_seq_trace_no_process(Model *m, const char *rules)
{
    Buf tracee;
    buf_init(&tracee);
    buf_puts(&tracee, "undefined");
    bool traced = seq_trace_line(m, &tracee, rules);
    buf_free(&tracee);
    return traced;
}
