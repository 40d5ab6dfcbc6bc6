/* inherit.c - the trace flags a process gets from another: a new process from its parent
 * (set_on_spawn, set_on_first_spawn, and for spawn_link set_on_link, set_on_first_link),
 * a linked process from its linker, and every new process from the defaults of `new`
 * (CONFORMANCE.md section 2, "Inheritance"). */
#include "inherit.h"
#include "order.h"
#include "release.h"

/* Flags a process gets without a trace_status probe (none is seen at a spawn or a link);
 * newly attached, it is the latest tracee of the session (SESSION-ORDER-PROCESS). */
static void gain(Model *m, TraceState *t, FlagSet flags, const char *origin)
{
    if (!t->attached) {
        t->origin = origin;
        t->since = ++m->clock;
    }
    t->flags |= flags;
    t->attached = true;
}

/* The inheritance of one pair of flags (`every` and its `first` variant) from `from` to `to`
 * in session s: all of from's flags when either is set; after the first, both flags are
 * cleared in both processes, which is how the first variant supersedes the other. */
static void inherit_pair(Model *m, int s, int from, int to, Flag every, Flag first,
                         const char *every_rule, const char *first_rule)
{
    TraceState *f = &m->procs[from].trace[s], *t = &m->procs[to].trace[s];
    FlagSet pair = FLAG_BIT(every) | FLAG_BIT(first);
    if (!f->attached || !(f->flags & pair))
        return;
    bool is_first = f->flags & FLAG_BIT(first);
    if (!model_attached(t)) /* the tracer comes with its state (TRACER-OPTION) */
        t->state = f->state;
    gain(m, t, f->flags & FLAGS_ALL, is_first ? first_rule : every_rule);
    if (is_first) {
        f->flags &= ~pair;
        t->flags &= ~pair;
        f->cleared_by = first_rule;
    }
}

/* Whether parent passes its flags in session s to a child it creates (spawn_link: linked). */
static bool passes_on_spawn(const Model *m, int s, int parent, bool linked)
{
    const TraceState *t = &m->procs[parent].trace[s];
    FlagSet passing = FLAG_BIT(FL_SET_ON_SPAWN) | FLAG_BIT(FL_SET_ON_FIRST_SPAWN);
    if (linked)
        passing |= FLAG_BIT(FL_SET_ON_LINK) | FLAG_BIT(FL_SET_ON_FIRST_LINK);
    return t->attached && (t->flags & passing);
}

void inherit_spawn(Model *m, int parent, int child, bool linked)
{
    /* the parent's sessions, most recently attached first, read before the `first` flags
     * are cleared (clearing them detaches nothing) */
    int *order;
    int n = order_by_attach(m, parent, &order);
    bool *replaced = arena_alloc(m->a, (size_t)m->nsessions * sizeof *replaced);
    for (int s = 0; s < m->nsessions; s++) {
        TraceState *c = &m->procs[child].trace[s];
        bool passes = passes_on_spawn(m, s, parent, linked);
        /* PROCS-SPEC-NEW: the defaults for new processes; C-48: OTP 27 and 29 leave them out
         * of a child that inherits in the session; PROCS-NEW-READ: the spawn reads them */
        model_read_new_defaults(m, s, false);
        replaced[s] = false;
        if (m->sessions[s].new_flags && passes && release_deviates(m, DEV_INHERIT_REPLACES_DEFAULTS)) {
            replaced[s] = true;
        } else if (m->sessions[s].new_flags) {
            gain(m, c, m->sessions[s].new_flags, "PROCS-SPEC-NEW");
            c->state = m->sessions[s].new_state; /* with the defaults' own tracer (PROCS-NEW-TRACER) */
        }
    }
    /* SESSION-ORDER-NEW (C-405): the defaults' sessions in the order of their creation, the
     * legacy session last; a session whose defaults the inherited flags replace (C-48) keeps
     * the place its defaults gave it (live on 27 and 29: the reference is made for the
     * defaults, then its flags are replaced) */
    order_place_defaults(m, m->procs[child].trace, replaced);
    /* C-370: the child inherits session by session in the parent's order (most recently
     * attached first), each newly attached one becoming the child's latest, so the child
     * sees its sessions in the reverse of the parent's order (SESSION-ORDER-PROCESS) */
    for (int i = 0; i < n; i++) {
        int s = order[i];
        TraceState *c = &m->procs[child].trace[s];
        bool passes = passes_on_spawn(m, s, parent, linked);
        unsigned place = c->since;
        inherit_pair(m, s, parent, child, FL_SET_ON_SPAWN, FL_SET_ON_FIRST_SPAWN,
                     "INHERIT-SPAWN", "INHERIT-FIRST-SPAWN");
        if (linked)
            inherit_pair(m, s, parent, child, FL_SET_ON_LINK, FL_SET_ON_FIRST_LINK,
                         "INHERIT-LINK INHERIT-SPAWN-LINK", "INHERIT-FIRST-LINK INHERIT-SPAWN-LINK");
        /* INHERIT-SPAWN-TRACER: the parent's tracer replaces the defaults' (erl_process.c: the
         * parent's flags are added and its tracer put in the child's place, C-315) */
        if (passes)
            c->state = m->procs[parent].trace[s].state;
        if (replaced[s])
            c->since = place;
    }
}

/* Whether linker has set_on_link or set_on_first_link in some session. */
static bool passes_on_link(const Model *m, int linker)
{
    for (int s = 0; s < m->nsessions; s++) {
        const TraceState *t = &m->procs[linker].trace[s];
        if (t->attached && (t->flags & (FLAG_BIT(FL_SET_ON_LINK) | FLAG_BIT(FL_SET_ON_FIRST_LINK))))
            return true;
    }
    return false;
}

void inherit_link(Model *m, int linker, int other)
{
    /* C-41: OTP 25 passes nothing at link/1, and set_on_first_link stays set in the linker */
    if (passes_on_link(m, linker) && release_deviates(m, DEV_LINK_PASSES_NO_FLAGS))
        return;
    /* INHERIT-LINK-ORDER (C-370, C-380): the linker sends one trace-change signal per session
     * ahead of the link (erl_proc_sig_queue.c sig_enqueue_trace), each put before the ones
     * already sent, and the other process attaches them in that (reversed) order, each as its
     * latest: the other process sees its new sessions in the linker's order
     * (SESSION-ORDER-PROCESS); so the model attaches them earliest first */
    int *order;
    int n = order_by_attach(m, linker, &order);
    for (int i = n - 1; i >= 0; i--)
        inherit_pair(m, order[i], linker, other, FL_SET_ON_LINK, FL_SET_ON_FIRST_LINK,
                     "INHERIT-LINK", "INHERIT-FIRST-LINK");
}
