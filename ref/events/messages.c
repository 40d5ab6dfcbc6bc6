/* messages.c - send and receive (CONFORMANCE.md section 2, EV-SEND and EV-RECEIVE rules). */
#include <stdlib.h>
#include <string.h>

#include "control.h"
#include "enabled.h"
#include "longmsgq.h"
#include "messages.h"
#include "msgtrace.h"
#include "races.h"
#include "release.h"
#include "running.h"
#include "sched.h"
#include "seqtrace.h"
#include "together.h"
#include "windows.h"

/* What stands for the peer node's name, which the harness draws at random (tcs_peer:start_peer/0). */
#define PEER_NODE_NAME "tcs_peer@127.0.0.1"

/* msg (a copy of it, which the mailbox owns: it outlives the step's memory) at the end of q's
 * mailbox. */
static void mbox_push(Model *m, int q, const Term *msg, const SeqToken *token)
{
    Proc *p = &m->procs[q];
    if (p->mcap && p->mhead + p->mlen == p->mcap && p->mlen <= p->mcap / 2) { /* taken messages make room */
        memmove(p->mbox, p->mbox + p->mhead, p->mlen * sizeof(Message));
        p->mhead = 0;
    }
    if (p->mhead + p->mlen == p->mcap) {
        size_t cap = p->mcap ? p->mcap * 2 : 16;
        Message *nb = arena_alloc(m->a, cap * sizeof(Message));
        if (p->mlen)
            memcpy(nb, p->mbox + p->mhead, p->mlen * sizeof(Message));
        p->mbox = nb;
        p->mcap = cap;
        p->mhead = 0;
    }
    p->mbox[p->mhead + p->mlen++] = (Message){term_clone(msg), token, 0};
    longmsgq_grew(m, q);
}

/* The oldest message of p's non-empty mailbox, removed (to messages_received). */
static Message messages_take(Model *m, int p)
{
    Proc *pr = &m->procs[p];
    pr->mlen--;
    Message got = pr->mbox[pr->mhead++];
    longmsgq_shrank(m, p);
    return got;
}

/* A message p took from its mailbox handled: its token passed on, its copy freed. */
static void messages_received(Model *m, int p, Message got)
{
    seqtrace_receive(m, p, &got);
    free(got.msg);
}

Term *messages_take_value(Model *m, int p)
{
    Message got = messages_take(m, p);
    Term *value = together_received(m, p, got.sync) ? term_clone_in(m->a, got.msg) : NULL;
    messages_received(m, p, got);
    return value;
}

void messages_wake_blocked(Model *m, int p)
{
    running_wake(m, p);
    messages_received(m, p, messages_take(m, p));
}

void messages_drop(Model *m, int p)
{
    Proc *pr = &m->procs[p];
    for (size_t i = 0; i < pr->mlen; i++)
        free(pr->mbox[pr->mhead + i].msg);
    pr->mhead = pr->mlen = 0;
}

bool messages_deliver(Model *m, int p, Term *msg, const Term *sender, const SeqToken *token,
                      const char *rules)
{
    bool wakes = m->procs[p].blocked && !m->procs[p].nsuspenders; /* RUN-SUSPENDED: it stays until resumed */
    if (wakes) /* RUN-WAKE: scheduled in before it handles the message */
        running_wake(m, p);
    if (m->procs[p].link_woken) { /* RUN-WAKE-LINK-DOWN: already in, its receive completes */
        m->procs[p].link_woken = false;
        races_close(m, RACE_WAKE_LINK_DOWN, m->procs[p].link_woken_wait);
        m->procs[p].link_woken_wait = 0;
        wakes = true;
    }
    return messages_deliver_woken(m, p, msg, sender, token, rules, wakes);
}

bool messages_deliver_woken(Model *m, int p, Term *msg, const Term *sender, const SeqToken *token,
                            const char *rules, bool woken)
{
    /* each tracepoint goes through the session's 'receive' pattern (msgtrace.c) */
    bool ok = msgtrace_event(m, m->step, p, "receive", msg, sender, rules);
    mbox_push(m, p, msg, token);
    ok = ok && together_delivered(m, p, woken);
    if (woken) { /* the blocked receive completes */
        messages_received(m, p, messages_take(m, p));
    }
    return ok;
}

bool messages_send(Model *m, int p, const Step *st)
{
    int q = model_proc(m, st->other);
    /* each tracepoint goes through the session's send or 'receive' pattern (msgtrace.c) */
    if (!m->procs[q].alive && m->procs[q].remote) { /* DIST-SEND-DEAD: this node cannot know */
        if (!msgtrace_event(m, st, p, "send", st->term, model_pid(m, q), "EV-SEND DIST-SEND DIST-SEND-DEAD"))
            return false;
        /* the token goes with it as with any message to the other node (fuzz seed 4242, scenario 1648) */
        if (m->procs[p].token)
            control_decided(m, "DIST-SEQ-SEND");
        seqtrace_send(m, p, q, st->term);
        return true;
    }
    if (!m->procs[q].alive)
        return msgtrace_event(m, st, p, "send_to_non_existing_process", st->term, model_pid(m, q), "EV-SEND-NONEXIST");
    if (!msgtrace_event(m, st, p, "send", st->term, model_pid(m, q), "EV-SEND"))
        return false;
    if (m->procs[q].remote && m->procs[p].token) /* DIST-SEQ-SEND: traced here, by its sender */
        control_decided(m, "DIST-SEQ-SEND");
    const SeqToken *token = seqtrace_send(m, p, q, st->term);
    /* DIST-RECEIVE: a message from the peer node reaches a 'receive' pattern as [Node, undefined,
     * Msg], Node the sender's node (erl_trace.c trace_receive: "node name or other atom"); that
     * name is random, and this atom, no other node's, stands for it (fuzz seed 20261129, group 1) */
    const Term *sender = m->procs[p].remote ? term_atom(m->a, PEER_NODE_NAME) : model_pid(m, p);
    return messages_deliver(m, q, st->term, sender, token, m->procs[p].remote ? "EV-RECEIVE DIST-RECEIVE" : "EV-RECEIVE");
}

bool messages_send_name(Model *m, int p, const Step *st)
{
    int q = -1;
    for (int i = 0; i < m->nprocs && q < 0; i++)
        if (m->procs[i].regname && strcmp(m->procs[i].regname, st->fn) == 0)
            q = i;
    if (q >= 0 && m->procs[q].is_port)
        return model_unsupported(m, st->line, st->col, "a send to a port by its name is");
    Term *name = term_atom(m->a, st->fn);
    /* SEND-NAME: the send event names the receiver as the sender wrote it, also when no
     * process has the name; then the send raises badarg */
    if (!msgtrace_event(m, st, p, "send", st->term, name, "EV-SEND SEND-NAME"))
        return false;
    if (q < 0) {
        Term *el[3] = {term_atom(m->a, "send"), name, st->term};
        control_step_raised(m, p, term_tuple(m->a, 3, el), "error", term_atom(m->a, "badarg"), "SEND-NAME");
        return true;
    }
    const SeqToken *token = seqtrace_send(m, p, q, st->term);
    return messages_deliver(m, q, st->term, model_pid(m, p), token, "EV-RECEIVE SEND-NAME");
}

/* `P recv match T`: the oldest message equal to T leaves p's mailbox, the others stay in
 * order (RECV-SELECTIVE); its 'receive' event happened at delivery. */
static bool recv_selective(Model *m, int p, const Step *st)
{
    Proc *pr = &m->procs[p];
    for (size_t i = 0; i < pr->mlen; i++) {
        Message got = pr->mbox[pr->mhead + i];
        if (term_compare(got.msg, st->term) != 0)
            continue;
        memmove(pr->mbox + pr->mhead + i, pr->mbox + pr->mhead + i + 1, (pr->mlen - i - 1) * sizeof *pr->mbox);
        pr->mlen--;
        longmsgq_shrank(m, p);
        control_decided(m, "RECV-SELECTIVE");
        bool ok = together_received(m, p, got.sync);
        messages_received(m, p, got);
        return ok;
    }
    return model_unsupported(m, st->line, st->term_col, "a selective receive that waits for its message is");
}

bool messages_recv(Model *m, int p, const Step *st)
{
    Proc *pr = &m->procs[p];
    if (st->term)
        return recv_selective(m, p, st);
    if (pr->mlen > 0) { /* the 'receive' event happened at delivery */
        Message got = messages_take(m, p);
        bool ok = together_received(m, p, got.sync);
        messages_received(m, p, got);
        return ok;
    }
    if (st->together) /* its chain would wait for another's send: which lines come first is a race */
        return model_unsupported(m, st->line, st->col,
                                 "a receive in a together block before the send it takes (write the send first) is");
    if (!st->has_timeout) /* RUN-BLOCK: waits until a later step sends it a message */
        return running_block(m, p);
    if (st->timeout > 0 && !running_timed_wait(m, p)) /* RUN-TIMEOUT: out, and in when the timer fires */
        return false;
    return msgtrace_event(m, st, p, "receive", term_atom(m->scratch, "timeout"), NULL, "EV-RECEIVE-TIMEOUT");
}

/* A wait shorter than this could end before the sender's step is done on a loaded node (the
 * runner then ends the run as a timeout, TCS LATE; the step takes a few ms, 16 at most seen at a
 * load of 12), and a longer one only costs the run's time. */
enum { MIN_TIMED_WAIT_MS = 200 };

/* Why model v1 refuses `P wait MS while Q sends T` (col: where), or NULL: the send must come
 * while the timer runs, from a process that can send; the scheduling of the wait is left out. */
static const char *timed_wait_refusal(const Model *m, int p, int q, const Step *st, int *col)
{
    const Proc *sender = &m->procs[q];
    const char *what = NULL;
    if (q == p)
        what = "a process sending to itself while it waits is";
    else if (!sender->alive || sender->blocked || sender->suspended || sender->looping)
        what = "a send while a process waits, by a process that cannot act (dead, blocked, suspended or looping), is";
    else if (!seqtrace_allows(m, q, st->kind))
        what = "a send while a process waits, by a process holding a seq_trace token, is";
    *col = what ? st->other_col : st->col;
    if (what)
        return what;
    if (st->timeout < MIN_TIMED_WAIT_MS)
        what = "a timed wait shorter than 200 ms (the send might come after its timer) is";
    else if (sched_traced(m, p))
        what = "a timed wait of a process traced for running (how often the message wakes it) is";
    return what;
}

/* True iff some session traces p's receives: the release C-490 names then moves their events. */
static bool receives_traced(const Model *m, int p)
{
    for (int s = 0; s < m->nsessions; s++)
        if (enabled_live(m, s, p, "receive"))
            return true;
    return false;
}

/* The order of a timed wait's two 'receive' events: the step, its sender, and whether the
 * timeout's comes first. */
typedef struct WaitOrder { const Step *st; int q; bool timeout_first; } WaitOrder;

/* p's 'receive' events of a timed wait (RECV-TIMED-WAIT): of the message the step has its sender
 * send, then of the wait's timeout, or the other way round; the mailbox is not touched. */
static bool wait_events(Model *m, int p, const void *arg)
{
    const WaitOrder *o = arg;
    for (int i = 0; i < 2; i++) {
        bool ok = (i == 0) != o->timeout_first
                      ? msgtrace_event(m, o->st, p, "receive", o->st->term, model_pid(m, o->q),
                                       "EV-RECEIVE RECV-TIMED-WAIT")
                      : msgtrace_event(m, o->st, p, "receive", term_atom(m->scratch, "timeout"), NULL,
                                       "EV-RECEIVE-TIMEOUT RECV-TIMED-WAIT");
        if (!ok)
            return false;
    }
    return true;
}

bool messages_timed_wait(Model *m, int p, const Step *st)
{
    int q = model_proc(m, st->other), col;
    const char *refused = timed_wait_refusal(m, p, q, st, &col);
    if (refused)
        return model_unsupported(m, st->line, col, refused);
    if (!msgtrace_event(m, st, q, "send", st->term, model_pid(m, p), "EV-SEND"))
        return false;
    const SeqToken *token = seqtrace_send(m, q, p, st->term);
    /* RECV-TIMED-WAIT: the message is received when it arrives, though no clause takes it; on
     * OTP 25 its 'receive' event waits for the end of the wait (OTP-19527, C-490) */
    if (receives_traced(m, p) && release_deviates(m, DEV_TIMED_WAIT_RECEIVE_LATE))
        return msgtrace_event(m, st, p, "receive", term_atom(m->scratch, "timeout"), NULL,
                              "EV-RECEIVE-TIMEOUT RECV-TIMED-WAIT") &&
               messages_deliver(m, p, st->term, model_pid(m, q), token, "EV-RECEIVE RECV-TIMED-WAIT");
    /* the message, then the timeout; on a release that receives the message only when p is next
     * scheduled (C-760), the other order too: p may get to run only once its timer has fired */
    const WaitOrder documented = {st, q, false}, timer_first = {st, q, true};
    if (!races_either_order(m, RACE_TIMED_WAIT_SCHEDULED, DEV_TIMED_WAIT_RECEIVE_SCHEDULED, p, wait_events,
                            &documented, &timer_first))
        return false;
    mbox_push(m, p, st->term, token);
    return true;
}
