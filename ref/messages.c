/* messages.c - send and receive (CONFORMANCE.md section 2, EV-SEND and EV-RECEIVE rules). */
#include <string.h>

#include "model.h"

static void mbox_push(Model *m, Proc *p, Term *msg)
{
    if (p->mhead + p->mlen == p->mcap) {
        size_t cap = p->mcap ? p->mcap * 2 : 16;
        Term **nb = arena_alloc(m->a, cap * sizeof(Term *));
        if (p->mlen)
            memcpy(nb, p->mbox + p->mhead, p->mlen * sizeof(Term *));
        p->mbox = nb;
        p->mcap = cap;
        p->mhead = 0;
    }
    p->mbox[p->mhead + p->mlen++] = msg;
}

bool messages_send(Model *m, int p, const Step *st)
{
    int q = model_proc(m, st->other);
    /* each tracepoint goes through the session's send or 'receive' pattern (msgpatterns.c) */
    if (!m->procs[q].alive)
        return msgpat_event(m, st, p, "send_to_non_existing_process", st->term, model_pid(m, q), "EV-SEND-NONEXIST");
    bool ok = msgpat_event(m, st, p, "send", st->term, model_pid(m, q), "EV-SEND") &&
              msgpat_event(m, st, q, "receive", st->term, model_pid(m, p), "EV-RECEIVE");
    mbox_push(m, &m->procs[q], st->term);
    return ok;
}

bool messages_recv(Model *m, int p, const Step *st)
{
    Proc *pr = &m->procs[p];
    if (pr->mlen > 0) { /* the 'receive' event happened at delivery */
        pr->mhead++;
        pr->mlen--;
        return true;
    }
    if (!st->has_timeout)
        return model_unsupported(m, st->line, st->col, "recv on an empty mailbox (it would block forever) is");
    return msgpat_event(m, st, p, "receive", term_atom(m->a, "timeout"), NULL, "EV-RECEIVE-TIMEOUT");
}
