/* tracepoint.c - one tracepoint, asked of every session in turn: the enabled line, then the
 * trace line (CONFORMANCE.md section 2, "The enabled protocol" and "Callback dispatch"). */
#include <string.h>

#include "dispatch.h"
#include "enabled.h"
#include "opts.h"
#include "order.h"
#include "release.h"
#include "tracepoint.h"

const char *tracepoint_rules(Model *m, int s, int nsessions, const char *ev_rules, const char *order_rule)
{
    if (m->nsessions == 1)
        return ev_rules;
    Buf b;
    buf_init(&b);
    buf_printf(&b, "%s %s", ev_rules, s == LEGACY_SESSION ? "SESSION-LEGACY" : "SESSION-ISOLATION");
    if (nsessions > 1)
        buf_printf(&b, " %s", order_rule);
    const char *r = arena_strndup(m->a, buf_str(&b), b.len);
    buf_free(&b);
    return r;
}

/* The placeholder of the time stamp a tracer process's message ends with, by kind: the
 * runtime's clock, which no model predicts (TS-PROCESS-MESSAGE). */
static Term *timestamp_placeholder(Arena *a, const char *kind)
{
    if (strcmp(kind, "monotonic") == 0)
        return term_placeholder(a, "_MonotonicTimestamp");
    if (strcmp(kind, "strict_monotonic") == 0)
        return term_placeholder(a, "_StrictMonotonicTimestamp");
    return term_placeholder(a, "_Timestamp"); /* timestamp, cpu_timestamp: {Mega, Secs, Micro} */
}

/* Whether state is the legacy tracer's state process <tracer> declared `tracer process
 * match_binaries` and ev a call: it matches the first byte of each binary argument with the bit
 * syntax before the message is read (CALL-MATCH-CONTEXT-READ). A session's tracer process and
 * <meta> hand their messages on unread. */
static bool matches_binaries(const Model *m, const Term *state, const Event *ev)
{
    return m->sc->tracer.match_binaries && state->kind == TK_PID && strcmp(state->u.name, "tracer") == 0 &&
           strcmp(ev->tag, "call") == 0;
}

/* The msg line of a tracer process (state: the process) receiving the trace message of the
 * event: {trace, Pid, Tag, Term[, Extra][, Result]}, or trace_ts with a time stamp last when
 * flags ask for one (SESSION-PROCESS-TRACER, TS-PROCESS-MESSAGE). */
static void process_tracer_message(Model *m, const Term *state, const char *tracer_rule, FlagSet flags,
                                   int proc, const Event *ev, const char *extra_rules)
{
    Term *el[7];
    size_t n = 0;
    const char *kind = flags_timestamp_kind(flags | (m->cpu_timestamp ? FLAG_BIT(FL_CPU_TIMESTAMP) : 0));
    el[n++] = term_atom(m->a, kind ? "trace_ts" : "trace");
    el[n++] = model_id(m, proc); /* a process or a port */
    el[n++] = term_atom(m->a, ev->tag);
    bool matching = matches_binaries(m, state, ev);
    el[n++] = (Term *)(matching ? release_matched_call(m, ev->term) : ev->term);
    if (ev->extra)
        el[n++] = (Term *)ev->extra;
    if (ev->ms_result) /* a {message,X} result is one more element */
        el[n++] = (Term *)ev->ms_result;
    if (kind)
        el[n++] = timestamp_placeholder(m->a, kind);
    Buf body, rules;
    buf_init(&body);
    buf_init(&rules);
    buf_puts(&body, "msg(");
    term_print(&body, state, PRINT_CANON); /* the tracer process */
    buf_puts(&body, ", ");
    term_print(&body, term_tuple(m->a, n, el), PRINT_CANON);
    buf_puts(&body, ")");
    buf_printf(&rules, "%s%s%s%s %s %s", tracer_rule, state->kind == TK_PORT ? " PORT-TRACER-MESSAGE" : "",
               kind ? " TS-PROCESS-MESSAGE" : "", matching ? " CALL-MATCH-CONTEXT-READ" : "", extra_rules, ev->rules);
    stream_line(m->out, 'N', buf_str(&body), buf_str(&rules));
    buf_free(&body);
    buf_free(&rules);
}

void tracepoint_emit(Model *m, int s, int proc, const Event *ev, const char *extra_rules)
{
    const TraceState *ts = &m->procs[proc].trace[s];
    if (m->sessions[s].tracer->kind == TRACER_PROCESS) {
        process_tracer_message(m, m->sessions[s].state_term,
                               s == LEGACY_SESSION                 ? "LEGACY-PROCESS-TRACER"
                               : m->sessions[s].tracer_undefined ? "SESSION-UNDEFINED-TRACER"
                                                                 : "SESSION-PROCESS-TRACER",
                               ts->flags, proc, ev, extra_rules);
        return;
    }
    Buf rules;
    buf_init(&rules);
    /* the rules by which the tracer got attached (none once a return outlives it) */
    buf_printf(&rules, "%s%s%s", ev->rules, ts->origin ? " " : "", ts->origin ? ts->origin : "");
    if (s != LEGACY_SESSION) /* a session's {Module, State} tracer, by the same protocol */
        buf_puts(&rules, " SESSION-MODULE-TRACER");
    bool scheduling = strncmp(ev->tag, "in", 2) == 0 || strncmp(ev->tag, "out", 3) == 0;
    if (scheduling && (ts->flags & FLAG_BIT(FL_RUNNING_PROCS))) /* scheduled like running */
        buf_puts(&rules, " RUN-PROCS");
    Event with_origin = *ev;
    with_origin.rules = buf_str(&rules);
    tracepoint_emit_as(m, enabled_proc_tracer(m, s, proc), ts->flags, ts->ts_cleared, proc, &with_origin, extra_rules);
    buf_free(&rules);
}

void tracepoint_emit_as(Model *m, Tracer tracer, FlagSet flags, FlagSet ts_cleared, int proc,
                        const Event *ev, const char *extra_rules)
{
    if (tracer.decl->kind == TRACER_PROCESS) { /* a meta tracer process (CALL-META) */
        process_tracer_message(m, tracer.state, "CALL-META-PROCESS", flags, proc, ev, extra_rules);
        return;
    }
    Category c;
    model_dispatch_category(m, proc, ev->tag, &c);
    Buf body, rules;
    buf_init(&body);
    buf_init(&rules);
    buf_printf(&rules, "FALLBACK-CATEGORY FALLBACK-TRACE %s %s", extra_rules, ev->rules);
    if (tracer.decl->callbacks) /* the NIF table's optional callbacks decide which is called */
        buf_puts(&rules, " FALLBACK-NIF-TABLE");
    if (m->procs[proc].is_port)
        buf_puts(&rules, " PORTS-CATEGORY");
    if (tracer.state->kind != TK_PID) /* a state of the case's own, passed as it is */
        buf_puts(&rules, " STATE-ANY-TERM");
    /* TS-CPU: the node's cpu_timestamp flag changes what `timestamp` measures */
    flags |= m->cpu_timestamp ? FLAG_BIT(FL_CPU_TIMESTAMP) : 0;
    Term *opts = opts_build(m->scratch, flags, ts_cleared, ev->extra, ev->ms_result, m->on_dirty_scheduler, &rules); /* printed only */
    buf_printf(&body, "%s(", dispatch_trace(tracer.decl->callbacks, c));
    term_print_atom(&body, ev->tag);
    buf_puts(&body, ", ");
    term_print(&body, tracer.state, PRINT_CANON);
    buf_puts(&body, ", ");
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
        buf_puts(&body, "msg(");
        term_print(&body, tracer.state, PRINT_CANON); /* the example tracer's state: a process */
        buf_puts(&body, ", {trace,");
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

/* The full tracepoint for the sessions that trace proc with every flag of needed (0: any). */
static void fire_needing(Model *m, int proc, const Event *ev, FlagSet needed)
{
    int *order;
    int n = order_by_attach(m, proc, &order);
    for (int i = 0; i < n; i++) {
        int s = order[i];
        if ((m->procs[proc].trace[s].flags & needed) != needed)
            continue;
        Event sev = *ev;
        sev.rules = tracepoint_rules(m, s, n, ev->rules, "SESSION-ORDER-PROCESS");
        if (enabled_live(m, s, proc, ev->tag) && tracepoint_accept(m, s, proc, ev->tag, sev.rules))
            tracepoint_emit(m, s, proc, &sev, "ENABLED-TRACE");
    }
}

void tracepoint_fire(Model *m, int proc, const Event *ev)
{
    fire_needing(m, proc, ev, 0);
}

void tracepoint_fire_flagged(Model *m, int proc, const Event *ev, FlagSet needed)
{
    fire_needing(m, proc, ev, needed);
}

void tracepoint_fire_unreported(Model *m, int proc, const Event *ev)
{
    int *order;
    int n = order_by_attach(m, proc, &order);
    for (int i = 0; i < n; i++) /* a process tracer has no enabled callback: no line at all */
        if (enabled_live(m, order[i], proc, ev->tag))
            (void)tracepoint_accept(m, order[i], proc, ev->tag,
                                    tracepoint_rules(m, order[i], n, ev->rules, "SESSION-ORDER-PROCESS"));
}

void tracepoint_event(Model *m, int proc, const char *tag, const Term *term, const Term *extra,
                      const char *rules)
{
    Event ev = {tag, term, extra, NULL, rules};
    tracepoint_fire(m, proc, &ev);
}

/* The msg line of a seq tracer that is a process or a port (SEQ-TRACER-PROCESS, PORT-TRACER-SEQ,
 * DIST-SEQ-TRACER): erl_tracer's {seq_trace, Label, SeqTraceInfo} (a token without time stamps: the
 * parser refuses them, SEQ-TRACER-PROCESS). */
static void port_seq_message(Model *m, const Term *tracer, const SeqToken *tok, Term *info, const char *rules)
{
    Term *el[3] = {term_atom(m->a, "seq_trace"), term_int(m->a, tok->label), info};
    Buf body;
    buf_init(&body);
    buf_puts(&body, "msg(");
    term_print(&body, tracer, PRINT_CANON);
    buf_puts(&body, ", ");
    term_print(&body, term_tuple(m->a, 3, el), PRINT_CANON);
    buf_puts(&body, ")");
    stream_line(m->out, 'N', buf_str(&body), rules);
    buf_free(&body);
}

/* The SeqTraceInfo of a transfer: {Type, {Previous, Current}, From, To, Msg}. */
static Term *seq_info(Model *m, const SeqToken *tok, const char *type, Term *to, const Term *msg)
{
    Term *serial = term_tuple3(m->a, term_int(m->a, tok->lastcnt), term_int(m->a, tok->serial), NULL);
    Term *el[5] = {term_atom(m->a, type), serial, model_pid(m, tok->sender), to, (Term *)msg};
    return term_tuple(m->a, 5, el);
}

void tracepoint_peer_seq_trace(Model *m, const Term *tracer, const SeqToken *tok, const char *type, Term *to,
                               const Term *msg, const char *rules)
{
    Buf r;
    buf_init(&r);
    buf_printf(&r, "%s SEQ-TRACE DIST-SEQ-TRACER", rules);
    port_seq_message(m, tracer, tok, seq_info(m, tok, type, to, msg), buf_str(&r));
    buf_free(&r);
}

void tracepoint_seq_trace(Model *m, const SeqToken *tok, const char *type, Term *to, const Term *msg,
                          const char *rules)
{
    Term *info = seq_info(m, tok, type, to, msg);
    Buf body, r;
    buf_init(&body);
    buf_init(&r);
    buf_printf(&r, "%s SEQ-TRACE", rules);
    if (m->sessions[LEGACY_SESSION].tracer->kind == TRACER_PROCESS) {
        bool port = m->sessions[LEGACY_SESSION].state_term->kind == TK_PORT;
        buf_puts(&r, port ? " PORT-TRACER-SEQ PORT-TRACER-MESSAGE" : " SEQ-TRACER-PROCESS");
        port_seq_message(m, m->sessions[LEGACY_SESSION].state_term, tok, info, buf_str(&r));
        buf_free(&body);
        buf_free(&r);
        return;
    }
    Term *opts = opts_build(m->a, tok->stamps, 0, NULL, NULL, false, &r);
    buf_puts(&body, "trace(seq_trace, ");
    term_print(&body, m->sessions[LEGACY_SESSION].state_term, PRINT_CANON);
    buf_printf(&body, ", %lld, ", tok->label);
    term_print(&body, info, PRINT_CANON);
    buf_puts(&body, ", ");
    term_print(&body, opts, PRINT_CANON);
    buf_puts(&body, ")");
    stream_line(m->out, 'N', buf_str(&body), buf_str(&r));
    buf_free(&body);
    buf_free(&r);
}
