/* peer.c - a second node and a process on it (CONFORMANCE.md "Distribution", DIST-*). The
 * process R lives on a node the case's tracers do not trace: what the case sees of it is what
 * it does to the local processes (a message from R is a 'receive' event of its recipient) and
 * what they do to it (a message to R is a send event whose recipient is R's pid, DIST-SEND). */
#include <stddef.h>
#include <string.h>

#include "control.h"
#include "peer.h"
#include "procs.h"
#include "sched.h"

bool peer_start(Model *m, const Step *st)
{
    int r = model_add_proc(m, st->actor);
    m->procs[r].remote = true; /* DIST-PEER: alive, untraced, idle */
    return true;
}

bool peer_seq_tracer(Model *m, const Step *st)
{
    if (!peer_start(m, st))
        return false;
    /* DIST-SEQ-TRACER: T calls seq_trace:set_system_tracer(self()) on its node, whose seq tracer
     * was none (false): the seq_trace messages of that node's processes are T's from then on */
    m->peer_seq_tracer = st->actor;
    Buf call;
    buf_init(&call);
    buf_printf(&call, "<%s> seq_trace:set_system_tracer(<%s>)", st->actor, st->actor);
    control_line(m, buf_str(&call), "-> false", "DIST-SEQ-TRACER SEQ-TRACER-PROCESS");
    buf_free(&call);
    return true;
}

/* True iff st sets a meta pattern on a library target (erlang:phash2/1, lists:seq/2), which traces
 * every caller, the harness's processes too. */
static bool library_meta(const Step *st)
{
    if (st->kind != ST_PATTERN || !st->module || (strcmp(st->module, "erlang") && strcmp(st->module, "lists")))
        return false;
    bool meta = st->tracer_opt != NULL;
    for (int i = 0; i < st->nopts && !meta; i++)
        meta = st->opts && st->opts[i] && strcmp(st->opts[i], "meta") == 0;
    return meta;
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

/* Why model v1 refuses a spawn on the peer node by p (DIST-SPAWN), or NULL: p waits for the answer,
 * a message a 'receive' pattern would match with a sender the model does not know, and calls
 * functions of module erlang a pattern on every module would trace. */
static const char *spawn_on_peer_refuses(const Model *m, int p)
{
    if (sched_traced(m, p))
        return "a spawn on the peer node by a process traced for scheduling is";
    for (int s = 0; s < m->nsessions; s++)
        if (m->sessions[s].receive_pat.set)
            return "a spawn on the peer node with a 'receive' message pattern set is";
    if (m->all_modules_pattern)
        return "a spawn on the peer node with a pattern on every module is";
    return NULL;
}

/* True iff name is the peer node's seq tracer, which does no step and gets none. */
static bool peer_tracer(const Model *m, const char *name)
{
    return name && m->peer_seq_tracer && strcmp(name, m->peer_seq_tracer) == 0;
}

/* Why model v1 refuses R's receive (DIST-SEQ-RECEIVE), or NULL: R takes a message that is there,
 * as `recv` does; it cannot wait (its step would not end), select or time out. */
static const char *remote_recv_refuses(const Model *m, const Step *st)
{
    if (st->term || st->has_timeout)
        return "a selective or timed receive by a process of the peer node is";
    if (m->procs[model_proc(m, st->actor)].mlen == 0)
        return "a receive by a process of the peer node on an empty mailbox (it would wait) is";
    return NULL;
}

/* True iff name is a process that holds a seq_trace token. */
static bool holds_token(const Model *m, const char *name)
{
    int p = name ? model_proc(m, name) : -1;
    return p >= 0 && m->procs[p].token;
}

/* True iff name is a process on the peer node that has exited. */
static bool remote_dead(const Model *m, const char *name)
{
    return remote(m, name) && !m->procs[model_proc(m, name)].alive;
}

/* The steps across the two nodes model v1 knows (DIST-LINK, DIST-EXIT): messages both ways;
 * links and unlinks both ways; R's exit, and an exit signal either way. */
static bool across(StepKind kind)
{
    return kind == ST_SEND || kind == ST_LINK || kind == ST_UNLINK || kind == ST_KILL || kind == ST_EXIT;
}

const char *peer_refuses(Model *m, const Step *st)
{
    /* a distributed node runs processes of its own (net_kernel, the connections' handlers),
     * which a process spec would trace, before the peer step (new) or after it, and which call
     * erlang:phash2/1 (fuzz seed 4242, scenario 85: a meta pattern's call events of an unknown
     * process on 25, 27 and 29) */
    bool spec = (st->kind == ST_TRACE && st->spec != SPEC_PID) || st->kind == ST_SESSION || library_meta(st);
    bool starts = st->kind == ST_PEER || st->kind == ST_PEER_SEQ_TRACER || st->on_peer; /* the peer node */
    m->spec_stepped |= spec;
    if ((spec && distributed(m)) || (starts && m->spec_stepped))
        return "a process spec, a session step or a meta pattern on a library target in a case with a peer node is";
    if (st->on_peer && !remote(m, st->actor))
        return spawn_on_peer_refuses(m, model_proc(m, st->actor));
    if (st->kind == ST_PEER || st->kind == ST_PEER_SEQ_TRACER)
        return NULL;
    /* DIST-SEQ-SEND: a token holder's message to the peer node is traced here, by its sender;
     * what the token does there (its receipt, the exit signals that carry it back) is traced
     * by the peer node's own seq tracer (DIST-SEQ-TRACER) */
    if (peer_tracer(m, st->actor) || peer_tracer(m, st->other))
        return "a step by or on the peer node's seq tracer is";
    /* the harness knows a remote exit signal handled once the link is gone from the local side's
     * links, which a suspended process may not show until it is resumed */
    if (st->kind == ST_SUSPEND && procs_linked_across(m, model_proc(m, st->actor)))
        return "suspending a process linked to one on the peer node is";
    if (remote(m, st->actor) && st->kind == ST_RECV)
        return remote_recv_refuses(m, st);
    if (remote(m, st->actor) && !across(st->kind))
        return "a step by or on a process of the peer node other than its send, recv, link, unlink, kill or exit is";
    if (remote(m, st->other) && !across(st->kind))
        return "a step on a process of the peer node other than a send, link, unlink or kill is";
    /* link/1 and exit/2 towards a process that is gone behave otherwise across nodes (no noproc
     * raise: an exit signal comes later), which model v1 does not follow; a token holder's exit
     * takes its token to the processes it is linked to (DIST-SEQ-EXIT), other signals across
     * nodes with a token model v1 leaves out */
    bool touches = st->kind != ST_SEND && st->kind != ST_EXIT && (remote(m, st->actor) || remote(m, st->other));
    if (touches && (holds_token(m, st->actor) || holds_token(m, st->other)))
        return "a link, unlink or exit signal across nodes by or to a seq_trace token holder is";
    if (touches && (remote_dead(m, st->actor) || remote_dead(m, st->other) ||
                    (st->other && !m->procs[model_proc(m, st->other)].alive)))
        return "a link, unlink or exit signal across nodes with a process that has exited is";
    return NULL;
}
