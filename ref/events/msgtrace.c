/* msgtrace.c - what the send and 'receive' trace patterns do at each send and receive
 * tracepoint (CONFORMANCE.md section 2, "Message patterns", MSGPAT-*); setting them is
 * ref/harness/msgpatterns.c.
 *
 * At a send or a receive of a traced process erts (erl_trace.c: trace_send, trace_receive)
 * first looks at the pattern: off, no event at all; with a match spec, it runs it and drops
 * the event when no clause matches, on {message,false}, and when the process is silent (only
 * then); only after that is the tracer's enabled callback asked. */
#include <string.h>

#include "control.h"
#include "enabled.h"
#include "msgtrace.h"

#include "release.h"
#include "msflags.h"
#include "order.h"
#include "tracepoint.h"

static bool is_send(const char *tag) { return strcmp(tag, "receive") != 0; }

/* What the match spec sees: [Receiver, Msg] for a send; [Node, Sender, Msg] for a receive,
 * [clock_service, undefined, timeout] for a receive that timed out (MSGPAT-TIMEOUT), and
 * [Atom, undefined, Msg] for a message the runtime queued from an atom such as system
 * (erl_trace.c trace_receive: "node name or other atom (e.g 'system')"). */
static Term *ms_args(Model *m, bool send, const Term *msg, const Term *peer)
{
    Term *el[3];
    size_t n = 0;
    bool atom_sender = !send && peer && peer->kind == TK_ATOM;
    if (!send)
        el[n++] = atom_sender ? (Term *)peer : term_atom(m->a, peer ? "nonode@nohost" : "clock_service");
    el[n++] = peer && !atom_sender ? (Term *)peer : term_atom(m->a, "undefined");
    el[n++] = (Term *)msg;
    return term_list(m->a, n, el);
}

/* The event's rules: those of the event, then what the pattern did: nothing to say of the
 * default pattern, but for a silent process (MSGPAT-SILENT); o is the match spec's outcome,
 * NULL when there is no match spec. */
static const char *event_rules(Model *m, const char *base, const MessagePattern *pat, bool send,
                               bool timeout, bool silent, const MsOutcome *o)
{
    Buf b;
    buf_init(&b);
    buf_puts(&b, base);
    if (!o) {
        buf_printf(&b, "%s%s", pat->set ? " MSGPAT-TRUE" : "", silent ? " MSGPAT-SILENT" : "");
    } else {
        buf_printf(&b, " MSGPAT-MATCH-SPEC %s%s", send ? "MSGPAT-SEND-ARGS" : "MSGPAT-RECEIVE-ARGS",
                   timeout ? " MSGPAT-TIMEOUT" : "");
        if (o->rules[0])
            buf_printf(&b, " %s", o->rules);
        if (o->message)
            buf_puts(&b, " MSGPAT-MESSAGE");
        if (o->silent >= 0)
            buf_puts(&b, " MSGPAT-SILENT-ACTION");
        if (o->return_trace || o->exception_trace)
            buf_puts(&b, " MSGPAT-CALL-ACTIONS");
    }
    const char *s = arena_strndup(m->scratch, buf_str(&b), b.len); /* for the lines of this event only */
    buf_free(&b);
    return s;
}

bool msgtrace_event(Model *m, const Step *st, int proc, const char *tag, const Term *msg, const Term *peer,
                    const char *rules)
{
    bool send = is_send(tag);
    int *order;
    int n = order_by_attach(m, proc, &order); /* SESSION-ORDER-PROCESS */
    for (int i = 0; i < n; i++) {
        int s = order[i];
        /* MSGPAT-PORT-RECEIVE: a port's receive is never matched against the 'receive' pattern
         * (OTP 25, 27, 29); a port's send is dropped by a send pattern false from OTP 27 on,
         * but no match spec runs for it, there being no process to run it in (C-85 in
         * CONFORMANCE.md, expectations/otp25.toml) */
        static const MessagePattern unpatterned; /* on, no match spec: MSGPAT-DEFAULT */
        const MessagePattern *pat = model_message_pattern(&m->sessions[s], send);
        bool port_unmatched = m->procs[proc].is_port && (!send || pat->ms) && pat->set;
        if (m->procs[proc].is_port && (!send || pat->ms))
            pat = &unpatterned;
        if (!enabled_live(m, s, proc, tag)) {
            if (pat->set && m->procs[proc].alive) /* the pattern traces nothing without the flag */
                control_decided(m, "MSGPAT-FLAG");
            continue;
        }
        /* OTP 25's trace_port_send checks no send pattern at all (C-85, its release prediction) */
        if (pat->off && m->procs[proc].is_port && release_deviates(m, DEV_PORT_SEND_PATTERN_IGNORED))
            pat = &unpatterned;
        if (pat->off) /* MSGPAT-FALSE: not even enabled is asked */
            continue;
        FlagSet *flags = &m->procs[proc].trace[s].flags;
        MsOutcome o;
        if (pat->ms) {
            MsFlagsCtx ctx;
            MsCall call = {ms_args(m, send, msg, peer), model_id(m, proc), NULL, m->procs[proc].token != NULL,
                           msflags_hooks(&ctx, m, s, proc), &m->tcw, release_has(m, DEV_MS_MAP_KEY_TWICE), 0, NULL};
            o = ms_run(m->a, pat->ms, &call);
            if (o.unsupported)
                return model_unsupported(m, st->line, st->col, o.unsupported);
            if (o.keys_collided)
                release_deviates(m, DEV_MS_MAP_KEY_TWICE);
            if (o.silent >= 0) /* MSGPAT-SILENT-ACTION: only a send spec can run {silent,Bool} */
                *flags = o.silent ? *flags | FLAG_BIT(FL_SILENT) : *flags & ~FLAG_BIT(FL_SILENT);
            /* MSGPAT-BEFORE-ENABLED: the match spec decides before the tracer is asked;
             * MSGPAT-SILENT: a silent process's events are dropped, with a match spec only */
            if (!o.matched || ms_message_false(&o) || (*flags & FLAG_BIT(FL_SILENT))) {
                control_decided(m, "MSGPAT-BEFORE-ENABLED");
                continue;
            }
        }
        bool silent = *flags & FLAG_BIT(FL_SILENT);
        Buf why;
        buf_init(&why);
        buf_puts(&why, rules);
        if (port_unmatched)
            buf_puts(&why, " MSGPAT-PORT-RECEIVE");
        if (pat->set && strcmp(tag, "send_to_non_existing_process") == 0)
            buf_puts(&why, " MSGPAT-NONEXIST"); /* through the send pattern like a send */
        if (pat->ms && strstr(o.rules, "MS-SELF"))
            buf_puts(&why, " MSGPAT-SELF");
        const char *base = arena_strndup(m->scratch, buf_str(&why), why.len); /* this event's lines only */
        buf_free(&why);
        const char *session = tracepoint_rules(m, s, n, base, "SESSION-ORDER-PROCESS");
        Event ev = {tag, msg, send ? peer : NULL, pat->ms ? ms_message_result(&o) : NULL,
                    event_rules(m, session, pat, send, !peer, silent, pat->ms ? &o : NULL)};
        if (tracepoint_accept(m, s, proc, tag, ev.rules))
            tracepoint_emit(m, s, proc, &ev, "ENABLED-TRACE");
    }
    return true;
}
