/* counters.c - the call counters of function patterns (CONFORMANCE.md section 2, "Call
 * counters"): call_count counts every call of a function, call_time and call_memory count the
 * calls of each process the session traces for call; the time and the words no model can
 * predict print as placeholders that the driver checks by shape (PROTOCOLS.md section 6). */
#include <string.h>

#include "control.h"
#include "counters.h"

static const char *const names[COUNTERS] = {"call_count", "call_time", "call_memory"};

CounterKind counters_kind(const char *option)
{
    for (int k = 0; k < COUNTERS; k++)
        if (option && strcmp(option, names[k]) == 0)
            return (CounterKind)k;
    return COUNTERS;
}

bool counters_set(Model *m, Counter *c, const Term *ms, bool breakpoint)
{
    bool pause = term_is_atom(ms, "pause"), restart = term_is_atom(ms, "restart");
    if ((pause || restart) && c->state == COUNTER_OFF) {
        /* beam_bp.c, set_function_break(): pause and restart insert no new breakpoint, but on
         * one the session already has they set the counter's flags with their ACTIVE bit like
         * a start does (CALL-COUNTERS-BREAKPOINT-STARTS, C-401) */
        if (!breakpoint)
            return false;
        *c = (Counter){COUNTER_RUNNING, 0, NULL, ++m->counter_epochs, 0, false};
        return true;
    }
    if (term_is_atom(ms, "false"))
        *c = (Counter){COUNTER_OFF, 0, NULL, 0, 0, false};
    else if (pause)
        c->state = COUNTER_PAUSED;
    else /* true, [], a match spec; restart of a running or paused one */
        *c = (Counter){COUNTER_RUNNING, 0, NULL, ++m->counter_epochs, 0, false};
    return false;
}

/* True iff the call process p makes allocates on the heap for sure: lists:seq(From, To) with
 * To >= From builds a list (LIB-TARGET-SEQ); tcs_shapes:receive_message/0 takes a message that is
 * a tuple, a list, a map or a binary, whose words count to it (CALL-RECEIVE-IN-TRACED);
 * tcs_shapes:alloc_tuples(N, Size) with N and Size of 1 or more makes a tuple in its first call
 * (CALL-MEMORY-TUPLES); of other calls the model does not say. */
static bool call_allocates(const Model *m, int p)
{
    const Step *st = m->step;
    if (!st || st->kind != ST_CALL)
        return false;
    const Proc *pr = &m->procs[p];
    if (strcmp(st->module, "tcs_shapes") == 0 && strcmp(st->fn, "receive_message") == 0 && pr->mlen > 0) {
        TermKind k = pr->mbox[pr->mhead].msg->kind;
        return k == TK_TUPLE || k == TK_CONS || k == TK_MAP || k == TK_BIN;
    }
    const Term *args = st->args;
    if (strcmp(st->module, "tcs_shapes") == 0 && strcmp(st->fn, "alloc_tuples") == 0) {
        const Term *n = args->u.cons.head, *size = args->u.cons.tail->u.cons.head;
        return n->u.i >= 1 && size->u.i >= 1; /* the model runs it only with integers; {} is a literal */
    }
    if (strcmp(st->module, "lists") != 0 || strcmp(st->fn, "seq") != 0)
        return false;
    const Term *from = args->u.cons.head, *to = args->u.cons.tail->u.cons.head;
    return from->kind == TK_INT && to->kind == TK_INT && to->u.i >= from->u.i;
}

void counters_call(Model *m, int s, int p, Pattern *pat)
{
    const TraceState *ts = &m->procs[p].trace[s];
    bool traced_call = model_attached(ts) && (ts->flags & FLAG_BIT(FL_CALL));
    for (int k = 0; k < COUNTERS; k++) {
        Counter *c = &pat->counters[k];
        if (c->state != COUNTER_RUNNING)
            continue;
        /* a counter calls no tracer (CALL-COUNTERS-SILENT), whatever the call (-ANY-CALL), and
         * each session has its own (-SESSIONS) */
        control_decided(m, s == LEGACY_SESSION ? "CALL-COUNTERS-ANY-CALL CALL-COUNTERS-SILENT"
                                               : "CALL-COUNTERS-ANY-CALL CALL-COUNTERS-SILENT CALL-COUNTERS-SESSIONS");
        if (k == COUNTER_COUNT) {
            if (!traced_call)
                control_decided(m, "CALL-COUNTERS-ANY-PROCESS");
            c->calls++;
            continue;
        }
        if (!traced_call) {
            control_decided(m, "CALL-COUNTERS-TRACED-ONLY");
            continue;
        }
        ProcCalls *pc = c->procs;
        while (pc && pc->proc != p)
            pc = pc->next;
        if (!pc) {
            pc = arena_alloc(m->a, sizeof *pc);
            *pc = (ProcCalls){p, 0, c->procs};
            c->procs = pc;
        }
        pc->calls++;
        if (k == COUNTER_MEMORY && call_allocates(m, p))
            c->grew++;
    }
}

/* The printed pid of process p, for the order of a call_time or call_memory list. */
static const char *printed_pid(Model *m, int p)
{
    Buf b;
    buf_init(&b);
    model_print_id(&b, m, p);
    const char *s = arena_strndup(m->a, buf_str(&b), b.len);
    buf_free(&b);
    return s;
}

Term *counters_value(Model *m, const Counter *c, CounterKind k, bool on_load)
{
    if (c->state == COUNTER_OFF)
        return term_atom(m->a, "false");
    if (on_load)
        return term_atom(m->a, "true");
    if (k == COUNTER_COUNT)
        return term_int(m->a, c->calls);
    size_t n = 0;
    for (const ProcCalls *pc = c->procs; pc; pc = pc->next)
        n++;
    Term **el = arena_alloc(m->a, (n ? n : 1) * sizeof *el);
    const char **keys = arena_alloc(m->a, (n ? n : 1) * sizeof *keys);
    size_t i = 0;
    for (const ProcCalls *pc = c->procs; pc; pc = pc->next, i++) {
        Term *fields[] = {model_pid(m, pc->proc), term_int(m->a, pc->calls),
                          term_placeholder(m->a, k == COUNTER_TIME ? "_Seconds" : "_Words"),
                          term_placeholder(m->a, "_Microseconds")};
        Term *entry = term_tuple(m->a, k == COUNTER_TIME ? 4 : 3, fields);
        const char *key = printed_pid(m, pc->proc);
        size_t j = i;
        for (; j > 0 && strcmp(keys[j - 1], key) > 0; j--) {
            keys[j] = keys[j - 1];
            el[j] = el[j - 1];
        }
        keys[j] = key;
        el[j] = entry;
    }
    return term_list(m->a, n, el);
}

const char *counters_uncounted(const Pattern *pat, const char *item)
{
    bool all = strcmp(item, "all") == 0;
    const char *what = NULL;
    for (int k = 0; pat && k < COUNTERS; k++)
        if (pat->counters[k].uncounted && (all || strcmp(item, names[k]) == 0))
            what = "a counter that counted a busy loop's calls (as many as the scheduler let it make) is";
    return what;
}
