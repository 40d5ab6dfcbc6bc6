/* together.c - steps of several processes at once (BLOCK-TOGETHER*): the chains of a together
 * block in the stream, and the refusals that keep every chain's lines independent of how the
 * chains interleave. The runtime orders the events of one process, and the signals from one
 * process to another (erlang.org/doc/system/ref_man_processes.html, "Signal Delivery": "if an
 * entity sends multiple signals to the same destination entity, the order is preserved"); nothing
 * else. */
#include <string.h>

#include "sched.h"
#include "together.h"

/* A pattern step of the block: its process, its target's text, its call's text. */
typedef struct TogetherPattern {
    int proc;
    const char *target, *call;
    struct TogetherPattern *next; /* the step before it */
} TogetherPattern;

/* The bit of Together.flags that says the session's tracer is attached. */
#define ATTACHED_BIT (1u << 31)

/* One annotation line of the block: "A WORD wN REST" (REST may be empty). */
static void together_line(Model *m, const char *word, const char *rest, const char *rules)
{
    Buf body;
    buf_init(&body);
    buf_printf(&body, "%s w%u%s%s", word, m->together->id, *rest ? " " : "", rest);
    stream_line(m->out, 'A', buf_str(&body), rules);
    buf_free(&body);
}

/* The annotation line of process p: "A WORD wN [K ]<P>" (K: 0 for none). */
static void together_proc_line(Model *m, const char *word, unsigned k, int p, const char *rules)
{
    Buf rest;
    buf_init(&rest);
    if (k)
        buf_printf(&rest, "%u ", k);
    model_print_id(&rest, m, p);
    together_line(m, word, buf_str(&rest), rules);
    buf_free(&rest);
}

/* Process p's trace state in session s as Together.flags keeps it. */
static unsigned flags_word(const Model *m, int p, int s)
{
    const TraceState *ts = &m->procs[p].trace[s];
    return ts->flags | (ts->attached ? ATTACHED_BIT : 0u);
}

bool together_begin(Model *m, const Step *st)
{
    if (m->seq_tokens)
        return model_unsupported(m, st->line, st->col, "a together block once a seq_trace token was given is");
    if (m->tracer_unloaded)
        return model_unsupported(m, st->line, st->col, "a together block while the tracer module is unloaded is");
    Together *t = arena_alloc(m->a, sizeof *t);
    int n = m->nprocs;
    *t = (Together){.id = ++m->nwindows, .chain = -1, .first_sync = m->nsyncs + 1, .windows = m->nwindows,
                    .closes = m->nwindow_closes, .nprocs = n};
    t->held = (Stream){.explain = m->out->explain};
    buf_init(&t->held.text);
    t->sender = arena_alloc(m->a, (size_t)n * sizeof *t->sender);
    t->received = arena_alloc(m->a, (size_t)n * sizeof *t->received);
    t->pair = arena_alloc(m->a, (size_t)n * (size_t)n * sizeof *t->pair);
    for (int p = 0; p < n; p++) {
        t->sender[p] = -1;
        t->received[p] = false;
        for (int q = 0; q < n; q++)
            t->pair[p * n + q] = -1;
    }
    m->together = t;
    together_line(m, step_keyword(ST_TOGETHER), "BLOCK-TOGETHER", "BLOCK-TOGETHER"); /* as the case opens it */
    return true;
}

/* Why model v1 refuses p's step st in the block (col: where), or NULL. */
static const char *step_refusal(Model *m, int p, const Step *st, int *col)
{
    Together *t = m->together;
    const char *what = NULL;
    int q = st->other ? model_proc(m, st->other) : -1;
    *col = st->actor_col;
    if (m->procs[p].remote)
        what = "a step of a process on the peer node in a together block is";
    else if (sched_traced(m, p))
        what = "a step in a together block of a process traced for running (where it is scheduled out depends on "
               "the other processes) is";
    if (what || q < 0)
        return what;
    *col = st->other_col;
    if (m->procs[q].is_port || m->procs[q].remote)
        what = "a step in a together block on a port or a process of the peer node is";
    if (what || (st->kind != ST_LINK && st->kind != ST_UNLINK))
        return what;
    int *by = &t->pair[(p < q ? p : q) * t->nprocs + (p < q ? q : p)];
    if (*by >= 0 && *by != p)
        what = "two processes of a together block linking or unlinking the same two processes (which comes first "
               "is a race) are";
    else
        *by = p;
    return what;
}

bool together_step_begin(Model *m, const Step *st)
{
    Together *t = m->together;
    int p = model_proc(m, st->actor), col;
    const char *refused = p < t->nprocs ? step_refusal(m, p, st, &col) : NULL;
    if (refused)
        return model_unsupported(m, st->line, col, refused);
    if (!t->flags) { /* as the poke that starts the block left them (run.c settles after `together`) */
        int ns = m->nsessions;
        t->flags = arena_alloc(m->a, (size_t)t->nprocs * (size_t)ns * sizeof *t->flags);
        for (int q = 0; q < t->nprocs; q++)
            for (int s = 0; s < ns; s++)
                t->flags[q * ns + s] = flags_word(m, q, s);
    }
    if (p != t->chain)
        together_proc_line(m, "chain", 0, p, "BLOCK-TOGETHER");
    t->chain = p;
    return true;
}

bool together_step_end(Model *m, const Step *st)
{
    const Together *t = m->together;
    if (m->nwindows != t->windows || m->nwindow_closes != t->closes)
        return model_unsupported(m, st->line, st->col,
                                 "a step that opens or closes an allowance window or an either-or in a together "
                                 "block is");
    for (int p = 0; p < t->nprocs; p++)
        for (int s = 0; s < m->nsessions; s++)
            if (flags_word(m, p, s) != t->flags[p * m->nsessions + s])
                return model_unsupported(m, st->line, st->col,
                                         "a step that changes trace flags in a together block (when the other "
                                         "processes' steps see the change is a race) is");
    return true;
}

/* The open block when the step being run is one of its steps, else NULL. */
static Together *block_of_step(const Model *m)
{
    return m->together && m->step && m->step->together ? m->together : NULL;
}

/* A refusal of messages to p from two processes of the block, which p takes in it. */
static bool two_senders(Model *m)
{
    return model_unsupported(m, m->step->line, m->step->col,
                             "messages from two processes of a together block to a process that takes messages in "
                             "it (which it takes first is a race) are");
}

bool together_delivered(Model *m, int q, bool taken)
{
    Together *t = block_of_step(m);
    if (!t || q >= t->nprocs)
        return true;
    int from = model_proc(m, m->step->actor);
    if (t->sender[q] == -1)
        t->sender[q] = from;
    else if (t->sender[q] != from)
        t->sender[q] = -2;
    t->received[q] |= taken;
    if (t->sender[q] == -2 && t->received[q])
        return two_senders(m);
    Proc *pr = &m->procs[q];
    unsigned k = ++m->nsyncs;
    pr->mbox[pr->mhead + pr->mlen - 1].sync = k;
    together_proc_line(m, "sync", k, q, "BLOCK-TOGETHER-JOIN");
    return true;
}

bool together_received(Model *m, int p, unsigned sync)
{
    Together *t = block_of_step(m);
    if (!t || p >= t->nprocs)
        return true;
    t->received[p] = true;
    if (t->sender[p] == -2)
        return two_senders(m);
    if (sync >= t->first_sync)
        together_proc_line(m, "join", sync, p, "BLOCK-TOGETHER-JOIN");
    return true;
}

bool together_pattern(Model *m, int p, const char *target, const char *call)
{
    Together *t = block_of_step(m);
    if (!t)
        return true;
    for (int q = 0; q < m->nprocs; q++)
        for (int s = 0; s < m->nsessions; s++)
            if (m->procs[q].trace[s].flags & FLAG_BIT(FL_CALL))
                return model_unsupported(m, m->step->line, m->step->col,
                                         "a pattern step in a together block while a process is traced for call "
                                         "(which of its calls the pattern changes under it is a race) is");
    TogetherPattern *tp = arena_alloc(m->a, sizeof *tp);
    *tp = (TogetherPattern){p, arena_strndup(m->a, target, strlen(target)), arena_strndup(m->a, call, strlen(call)),
                            t->patterns};
    t->patterns = tp;
    return true;
}

/* True iff some step after `last` (newer, in the list before it) is of process p on target. */
static bool pattern_set_later(const TogetherPattern *newest, const TogetherPattern *last)
{
    for (const TogetherPattern *tp = newest; tp != last; tp = tp->next)
        if (tp->proc == last->proc && strcmp(tp->target, last->target) == 0)
            return true;
    return false;
}

/* The call of the step written last on target. */
static const char *pattern_written_last(const TogetherPattern *newest, const char *target)
{
    for (const TogetherPattern *tp = newest;; tp = tp->next)
        if (strcmp(tp->target, target) == 0)
            return tp->call;
}

bool together_end(Model *m, const Step *st)
{
    Together *t = m->together;
    bool ok = true;
    for (const TogetherPattern *tp = t->patterns; ok && tp; tp = tp->next)
        if (!pattern_set_later(t->patterns, tp) && strcmp(tp->call, pattern_written_last(t->patterns, tp->target)) != 0)
            ok = model_unsupported(m, st->line, st->col,
                                   "pattern steps of two processes of a together block on one function that end "
                                   "differently (which is set last is a race, and it stays) are");
    if (ok) {
        together_line(m, "apart", "", "BLOCK-TOGETHER");
        stream_puts(m->out, buf_str(&t->held.text));
    }
    together_abandon(m);
    return ok;
}

void together_abandon(Model *m)
{
    if (!m->together)
        return;
    stream_free(&m->together->held);
    m->together = NULL;
}
