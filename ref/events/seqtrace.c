/* seqtrace.c - sequential tracing through a tracer module (CONFORMANCE.md section 2,
 * "seq_trace").  The system seq tracer is the scenario's tracer; each information transfer
 * of a process holding a token asks enabled(seq_trace, State, Pid) and, if the token's flag
 * for it is set, calls trace(seq_trace, State, Label, SeqTraceInfo, Opts). */
#include <string.h>

#include "control.h"
#include "enabled.h"
#include "release.h"
#include "seqtrace.h"
#include "steps.h"
#include "tracepoint.h"

/* What a message the runtime queues carries in place of a token: OTP's am_undefined, which
 * leaves the receiver's token as it is (SEQ-RECEIVE-RUNTIME). A 'DOWN' whose reason is no
 * immediate term comes as a signal of its own, which OTP 25 turns into a message without a
 * token, and OTP 27 and 29 not (C-360). Compared by address only. */
static const SeqToken RUNTIME_MESSAGE, DOWN_TERM_REASON;

/* Erlang's immediate terms (atom, small integer, local pid or port, []): what
 * erts_proc_sig_send_monitor_down passes in the monitor itself (is_immed(reason)). */
static bool immediate(const Term *t)
{
    static const long long small_max = (1LL << 59) - 1, small_min = -(1LL << 59);
    switch (t->kind) {
    case TK_ATOM:
    case TK_NIL:
        return true;
    case TK_INT:
        return t->u.i >= small_min && t->u.i <= small_max;
    case TK_PID:
    case TK_PORT:
        return !term_is_external(t);
    default:
        return false;
    }
}

const SeqToken *seqtrace_runtime_token(void)
{
    return &RUNTIME_MESSAGE;
}

const SeqToken *seqtrace_down_token(const Term *reason)
{
    return immediate(reason) ? &RUNTIME_MESSAGE : &DOWN_TERM_REASON;
}

/* True iff p's node has a system seq tracer: this node's, the scenario's tracer (SEQ-TRACER), or,
 * for a process on the peer node, the process `seq_trace tracer peer` made that node's
 * (DIST-SEQ-TRACER): "the trace messages are sent to the system tracer" of p's own node. */
static bool node_seq_tracer(const Model *m, int p)
{
    return m->procs[p].remote ? m->peer_seq_tracer != NULL : m->seq_tracer;
}

/* Whether p's node's seq tracer, there is one, takes p's transfer: the answer of this node's
 * enabled(seq_trace, ...) (SEQ-ENABLED) about p, or about no process (the tracee undefined:
 * anonymous); the peer node's is a process, asked nothing. */
static bool seq_enabled_about(Model *m, int p, bool anonymous, const char *rules)
{
    if (m->procs[p].remote)
        return true;
    return anonymous ? enabled_seq_trace_no_process(m, rules) : enabled_seq_trace(m, p, rules);
}

static bool seq_enabled(Model *m, int p, const char *rules)
{
    return seq_enabled_about(m, p, false, rules);
}

/* The seq_trace output of one transfer: enabled whatever the token's flags (SEQ-FLAGS), asked
 * once more when seq_bump asked already (again: SEQ-ENABLED-REPEAT), then (flag set) its trace
 * line, with the token's time stamps (SEQ-TIMESTAMP); a process of the peer node's goes to
 * that node's seq tracer (DIST-SEQ-TRACER). */
static void seq_output_about(Model *m, int p, bool anonymous, const SeqToken *tok, const char *type, bool flag,
                             bool again, Term *to, const Term *msg, const char *rules)
{
    Buf asked, traced;
    buf_init(&asked);
    buf_init(&traced);
    buf_printf(&asked, "%s SEQ-FLAGS%s", rules, again ? " SEQ-ENABLED-REPEAT" : "");
    buf_printf(&traced, "%s%s", rules, tok->stamps ? " SEQ-TIMESTAMP" : "");
    if (seq_enabled_about(m, p, anonymous, buf_str(&asked)) && flag) {
        if (m->procs[p].remote)
            tracepoint_peer_seq_trace(m, model_pid(m, model_proc(m, m->peer_seq_tracer)), tok, type, to, msg,
                                      buf_str(&traced));
        else
            tracepoint_seq_trace(m, tok, type, to, msg, buf_str(&traced));
    }
    buf_free(&asked);
    buf_free(&traced);
}

static void seq_output(Model *m, int p, const SeqToken *tok, const char *type, bool flag, bool again,
                       Term *to, const Term *msg, const char *rules)
{
    seq_output_about(m, p, false, tok, type, flag, again, to, msg, rules);
}

/* SEQ-SERIAL: before a send or print the token gets {LastCnt, ++Clock} of the process and
 * the process as its sender; the tracer is asked first, and only its trace bumps the serial. */
static SeqToken *seq_bump(Model *m, int p, const char *rules)
{
    Proc *pp = &m->procs[p];
    SeqToken *tok = arena_alloc(m->a, sizeof *tok);
    *tok = *pp->token;
    if (!node_seq_tracer(m, p) || seq_enabled(m, p, rules)) {
        tok->serial = ++pp->seq_clock;
        tok->lastcnt = pp->seq_lastcnt;
        tok->sender = p;
    }
    pp->token = tok;
    return tok;
}

const SeqToken *seqtrace_send(Model *m, int p, int q, const Term *msg)
{
    if (!m->procs[p].token)
        return NULL;
    SeqToken *tok = seq_bump(m, p, "SEQ-ENABLED SEQ-SERIAL SEQ-SEND");
    if (node_seq_tracer(m, p))
        seq_output(m, p, tok, "send", tok->send, true, model_pid(m, q), msg, "SEQ-ENABLED SEQ-SEND");
    return tok;
}

const SeqToken *seqtrace_exit_signal(Model *m, int p, int q, const Term *reason)
{
    if (!m->procs[p].token)
        return NULL;
    /* erts_proc_exit_handle_link passes the dying process's token with its link exit signal,
     * and sending it is a send transfer (seq_trace_update_serial, seq_trace_output_exit with
     * SEQ_TRACE_SEND): {send, Serial, <p>, <q>, {'EXIT', <p>, Reason}}, whatever q does with it
     * (erlang/otp seq_trace_SUITE trace_exit/1; live: otp_seq_trace_exit) */
    SeqToken *tok = seq_bump(m, p, "SEQ-ENABLED SEQ-SERIAL SEQ-EXIT-SIGNAL");
    if (node_seq_tracer(m, p)) {
        /* DIST-SEQ-EXIT, C-620: to a process on another node the signal goes through
         * erts_dsig_send_exit_tt (dist.c), whose seq_trace_output_exit passes no process: the
         * tracer is asked about undefined */
        bool across = m->procs[q].remote != m->procs[p].remote;
        Term *msg = term_tuple3(m->a, term_atom(m->a, "EXIT"), model_pid(m, p), (Term *)reason);
        seq_output_about(m, p, across, tok, "send", tok->send, true, model_pid(m, q), msg,
                         across ? "SEQ-ENABLED SEQ-EXIT-SIGNAL DIST-SEQ-EXIT" : "SEQ-ENABLED SEQ-EXIT-SIGNAL");
    }
    return tok;
}

bool seqtrace_exit_received(Model *m, int q)
{
    /* handling an exit signal with a token that kills it asks the seq tracer about q, and traces
     * nothing whatever the token's flags (seen live on 25, 27, 29: enabled(seq_trace, State, Q)
     * and no trace/5 with send, 'receive' or print set, seq_exit_signal_holder); whether q then
     * holds the token for its own exit signals model v1 leaves out */
    Proc *qp = &m->procs[q];
    if (qp->nlinks > 0 || qp->nwatchers > 0) /* its link to p is gone already */
        return model_unsupported(m, m->step->line, m->step->col,
                                 "a process killed by a seq_trace token holder's exit signal, itself linked to "
                                 "others or monitored, is");
    if (node_seq_tracer(m, q))
        seq_enabled(m, q, "SEQ-ENABLED SEQ-EXIT-SIGNAL");
    return true;
}

void seqtrace_exit_ignored(Model *m, int q)
{
    /* C-520: q handles the signal, with its token, before it finds it has nothing to do: the seq
     * tracer is asked about q, nothing is traced whatever the token's flags, and q's own sends
     * carry no token afterwards (seen live on 25, 27, 29: seq_exit_signal_normal_ignored) */
    if (node_seq_tracer(m, q))
        seq_enabled(m, q, "SEQ-ENABLED SEQ-EXIT-SIGNAL");
}

void seqtrace_receive(Model *m, int p, const Message *msg)
{
    Proc *pp = &m->procs[p];
    if (msg->token == &RUNTIME_MESSAGE) { /* no transfer, the token stays */
        if (pp->token)
            control_decided(m, "SEQ-RECEIVE-RUNTIME");
        return;
    }
    if (msg->token == &DOWN_TERM_REASON) {
        /* C-360: only OTP 25 clears it, and only a token held makes the difference */
        if (pp->token && release_deviates(m, DEV_DOWN_TERM_REASON_CLEARS_TOKEN))
            pp->token = NULL;
        return;
    }
    pp->token = msg->token; /* SEQ-RECEIVE: a message without a token clears the process's */
    if (!msg->token)
        return;
    pp->seq_lastcnt = msg->token->serial;
    if (pp->seq_clock < msg->token->serial)
        pp->seq_clock = msg->token->serial;
    if (node_seq_tracer(m, p))
        seq_output(m, p, msg->token, "receive", msg->token->receive, false, model_pid(m, p), msg->msg,
                   "SEQ-ENABLED SEQ-RECEIVE");
}

void seqtrace_set_component(Model *m, int p, const char *key, const Term *value)
{
    Proc *pp = &m->procs[p];
    SeqToken *tok = arena_alloc(m->a, sizeof *tok);
    if (pp->token)
        *tok = *pp->token;
    else {
        *tok = (SeqToken){.lastcnt = pp->seq_lastcnt, .sender = p};
        control_decided(m, "SEQ-TOKEN");
    }
    bool on = term_is_atom(value, "true");
    static const struct { const char *key; Flag stamp; } stamps[] = {
        {"timestamp", FL_TIMESTAMP}, {"monotonic_timestamp", FL_MONOTONIC_TIMESTAMP},
        {"strict_monotonic_timestamp", FL_STRICT_MONOTONIC_TIMESTAMP},
    };
    if (strcmp(key, "label") == 0)
        tok->label = value->u.i;
    else if (strcmp(key, "send") == 0)
        tok->send = on;
    else if (strcmp(key, "receive") == 0)
        tok->receive = on;
    else if (strcmp(key, "print") == 0)
        tok->print = on;
    for (size_t i = 0; i < sizeof stamps / sizeof stamps[0]; i++)
        if (strcmp(key, stamps[i].key) == 0)
            tok->stamps = on ? tok->stamps | FLAG_BIT(stamps[i].stamp) : tok->stamps & ~FLAG_BIT(stamps[i].stamp);
    pp->token = tok;
    m->seq_tokens = true;
}

Term *seqtrace_token_form(Model *m, int p, bool *stated)
{
    const SeqToken *tok = m->procs[p].token;
    *stated = !tok || !tok->stamps;
    if (!tok || tok->stamps)
        return NULL;
    /* erts's token tuple: the flag bits SEQ_TRACE_SEND 1, SEQ_TRACE_RECEIVE 2, SEQ_TRACE_PRINT 4
     * (erl_process.h), the label, the serial, the last sender, the Previous counter */
    Term *el[5] = {term_int(m->a, (tok->send ? 1 : 0) | (tok->receive ? 2 : 0) | (tok->print ? 4 : 0)),
                   term_int(m->a, tok->label), term_int(m->a, tok->serial), model_pid(m, tok->sender),
                   term_int(m->a, tok->lastcnt)};
    return term_tuple(m->a, 5, el);
}

bool seqtrace_step(Model *m, int p, const Step *st)
{
    Proc *pp = &m->procs[p];
    if (st->kind == ST_SEQ_TOKEN) {
        seqtrace_set_component(m, p, st->fn, st->term);
    } else if (st->kind == ST_SEQ_RESET) {
        pp->token = NULL; /* SEQ-TOKEN: the counters of the process stay */
        control_decided(m, "SEQ-TOKEN");
    } else if (pp->token && (!st->args || st->args->u.i == pp->token->label)) {
        /* seq_print: SEQ-PRINT, a transfer without a receiver; print/2 only under its label
         * (SEQ-PRINT-LABEL), else nothing, not even the serial */
        const char *rules = st->args ? "SEQ-ENABLED SEQ-PRINT SEQ-PRINT-LABEL" : "SEQ-ENABLED SEQ-PRINT";
        SeqToken *tok = seq_bump(m, p, st->args ? "SEQ-ENABLED SEQ-SERIAL SEQ-PRINT SEQ-PRINT-LABEL"
                                                : "SEQ-ENABLED SEQ-SERIAL SEQ-PRINT");
        if (node_seq_tracer(m, p))
            seq_output(m, p, tok, "print", tok->print, true, term_nil(m->a), st->term, rules);
    } else if (pp->token) {
        control_decided(m, "SEQ-PRINT-LABEL");
    }
    return true;
}

bool seqtrace_report_printable(const Model *m, int p)
{
    const SeqToken *tok = m->procs[p].token;
    return !tok || !m->seq_tracer || (!tok->send && !tok->receive);
}

void seqtrace_tracer_report(Model *m, int p, const char *receiver)
{
    if (!m->procs[p].token)
        return;
    /* enif_send (erl_nif.c) with a message environment: seq_trace_update_serial, then
     * seq_trace_output(token, msg, SEQ_TRACE_SEND, ...): the tracer is asked twice, as for a
     * send (SEQ-ENABLED-REPEAT); the send flag is off (seqtrace_report_printable) */
    SeqToken *tok = seq_bump(m, p, "SEQ-ENABLED SEQ-SERIAL SEQ-TRACER-REPORT");
    if (m->seq_tracer)
        seq_output(m, p, tok, "send", false, true, NULL, NULL, "SEQ-ENABLED SEQ-TRACER-REPORT");
    /* C-410: the report carries the token (enif_send queues it with the sender's token whatever
     * the tracer answered), so the harness process that takes it does a receive transfer
     * (beam_jit_remove_message: seq_trace_output(..., SEQ_TRACE_RECEIVE, ...)), which asks the
     * seq tracer before it looks at the flags (erl_trace.c seq_trace_output_generic); the
     * 'receive' flag is off (seqtrace_report_printable). That process passes the token on to
     * nobody: the next message it takes without one (the runner's request for its records)
     * clears it (SEQ-RECEIVE) before it answers. */
    if (receiver && m->seq_tracer)
        enabled_seq_trace_named(m, receiver, "SEQ-ENABLED SEQ-TRACER-REPORT-RECEIPT");
}

bool seqtrace_allows(const Model *m, int p, StepKind kind)
{
    /* spawn, links, exits and port steps of a token holder carry the token in ways model v1
     * leaves out: the step table's TOKEN */
#define TOKEN_ROW(kind, plan, keyword, by, settles, token, handler) [kind] = token,
    static const bool passing[STEP_KINDS] = {TCS_STEPS(TOKEN_ROW)};
#undef TOKEN_ROW
    return !m->procs[p].token || !passing[kind];
}

/* Whether session s's tracer is a tracer process: OTP's erl_tracer behind it sends with no
 * message environment, so its messages carry no token (C-65, SEQ-TRACER-REPORT), and tracing a
 * token holder adds nothing to the sequential trace. */
static bool sends_without_token(const Model *m, int s)
{
    return m->sessions[s].tracer->kind == TRACER_PROCESS && m->sessions[s].state_term->kind == TK_PID;
}

bool seqtrace_holders_untraced(const Model *m)
{
    if (!m->seq_tokens)
        return true;
    for (int p = 0; p < m->nprocs; p++)
        for (int s = 0; s < m->nsessions && m->procs[p].token && m->procs[p].alive; s++)
            if (m->procs[p].trace[s].attached && m->procs[p].trace[s].flags && !sends_without_token(m, s))
                return false;
    return true;
}
