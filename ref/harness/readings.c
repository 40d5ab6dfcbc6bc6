/* readings.c - the relations between two call_time or call_memory readings a case names
 * (CALL-COUNTERS-RELATION): the live values are the machine's, compared by shape only
 * (PROTOCOLS.md section 6), but how two of them of one counter compare is the counter's
 * arithmetic: the time and the words of a counter only grow while it counts, and a call that
 * allocates adds words. */
#include <string.h>

#include "control.h"
#include "readings.h"

bool readings_take(Model *m, const Step *st, int s, int fn, const Pattern *pat)
{
    if (!st->reading)
        return true;
    CounterKind k = strcmp(st->item, "call_time") == 0 ? COUNTER_TIME : COUNTER_MEMORY;
    const Counter *c = pat ? &pat->counters[k] : NULL;
    Reading r = {st->reading, s, fn, k, c && c->state != COUNTER_OFF, c ? c->epoch : 0, 0, c ? c->grew : 0};
    for (const ProcCalls *pc = c ? c->procs : NULL; pc; pc = pc->next)
        r.calls += pc->calls;
    m->readings = arena_grow(m->a, m->readings, (size_t)m->nreadings, &m->readings_cap, sizeof *m->readings);
    m->readings[m->nreadings++] = r;
    return true;
}

static const Reading *reading(const Model *m, const char *name)
{
    for (int i = 0; i < m->nreadings; i++)
        if (strcmp(m->readings[i].name, name) == 0)
            return &m->readings[i];
    return NULL; /* the parser makes sure the name was taken before; a step the model refused stops it */
}

/* How x's measure compares to y's, the same counter in one epoch: 0 equal, 1 greater, -1 less;
 * 2 (-2) greater (less) or equal, when the one that counted more calls may have added nothing
 * (a call can take under a microsecond; of an allocation the model is sure for lists:seq/2). */
static int order(const Reading *x, const Reading *y)
{
    if (x->calls == y->calls)
        return 0; /* no call between: nothing was added (a counter adds only in a call) */
    const Reading *more = x->calls > y->calls ? x : y, *less = more == x ? y : x;
    int up = more->kind == COUNTER_MEMORY && more->grew > less->grew ? 1 : 2;
    return more == x ? up : -up;
}

bool readings_relation(Model *m, const Step *st)
{
    const Reading *x = reading(m, st->actor), *y = reading(m, st->other);
    const char *what = NULL;
    if (!x->list || !y->list)
        what = "a relation of a reading that is no call_time or call_memory list is";
    else if (x->session != y->session || x->fn != y->fn || x->fn < 0 || x->kind != y->kind)
        what = "a relation between readings of two counters is";
    else if (x->epoch != y->epoch)
        what = "a relation between readings on either side of a restart of the counter is";
    int o = what ? 0 : order(x, y);
    const char *op = st->item;
    bool holds = false, known = true;
    if (!what) {
        /* o: 0 equal, 1 greater, -1 less, 2 greater or equal, -2 less or equal */
        if (strcmp(op, ">=") == 0)
            holds = o >= 0, known = o != -2;
        else if (strcmp(op, "=<") == 0)
            holds = o <= 0, known = o != 2;
        else if (strcmp(op, ">") == 0)
            holds = o == 1, known = o != 2;
        else if (strcmp(op, "<") == 0)
            holds = o == -1, known = o != -2;
        else /* =:= */
            holds = o == 0, known = o != 2 && o != -2;
        if (!known)
            what = "a relation that a call taking no measurable time or allocating nothing would decide is";
    }
    if (what)
        return model_unsupported(m, st->line, st->col, what);
    Buf call;
    buf_init(&call);
    buf_printf(&call, "tcs_readings:relation(%s,'%s',%s)", st->actor, op, st->other);
    control_line(m, buf_str(&call), holds ? "-> true" : "-> false", "CALL-COUNTERS-RELATION");
    buf_free(&call);
    return true;
}
