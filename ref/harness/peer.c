/* peer.c - a second node and a process on it (CONFORMANCE.md "Distribution", DIST-*). The
 * process R lives on a node the case's tracers do not trace: what the case sees of it is what
 * it does to the local processes (a message from R is a 'receive' event of its recipient) and
 * what they do to it (a message to R is a send event whose recipient is R's pid, DIST-SEND). */
#include <stddef.h>

#include "peer.h"

bool peer_start(Model *m, const Step *st)
{
    int r = model_add_proc(m, st->actor);
    m->procs[r].remote = true; /* DIST-PEER: alive, untraced, idle */
    return true;
}

/* True iff name is a process on the peer node. */
static bool remote(const Model *m, const char *name)
{
    int p = name ? model_proc(m, name) : -1;
    return p >= 0 && m->procs[p].remote;
}

/* True iff the model has a process on a peer node: its node is distributed. */
static bool distributed(const Model *m)
{
    for (int p = 0; p < m->nprocs; p++)
        if (m->procs[p].remote)
            return true;
    return false;
}

const char *peer_refuses(Model *m, const Step *st)
{
    /* a distributed node runs processes of its own (net_kernel, the connections' handlers),
     * which a process spec would trace, before the peer step (new) or after it */
    bool spec = (st->kind == ST_TRACE && st->spec != SPEC_PID) || st->kind == ST_SESSION;
    m->spec_stepped |= spec;
    if ((spec && distributed(m)) || (st->kind == ST_PEER && m->spec_stepped))
        return "a process spec or a session step in a case with a peer node is";
    if (st->kind == ST_PEER)
        return NULL;
    if (remote(m, st->actor) && st->kind != ST_SEND)
        return "a step by or on a process of the peer node other than its send is";
    if (remote(m, st->other) && st->kind != ST_SEND)
        return "a step on a process of the peer node other than a send to it is";
    return NULL;
}
