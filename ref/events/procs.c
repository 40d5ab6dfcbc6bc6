/* procs.c - spawn, link, register and exit (CONFORMANCE.md section 2, EV-SPAWN, EV-LINK,
 * EV-REGISTER and EV-EXIT rules). */
#include <string.h>

#include "calls.h"
#include "control.h"
#include "inherit.h"
#include "largeheap.h"
#include "libcalls.h"
#include "messages.h"
#include "msgtrace.h"
#include "order.h"
#include "ports.h"
#include "procs.h"
#include "release.h"
#include "races.h"
#include "running.h"
#include "sched.h"
#include "seqtrace.h"
#include "signals.h"
#include "tracepoint.h"
#include "windows.h"

/* The flags under which a child running an entry point (not a scenario process) would show
 * what model v1 does not know of it: its messages, scheduling and collections (its call of the
 * entry point is modelled: PROCS-SPAWN-ENTRY-CALL). */
#define ENTRY_UNMODELLED                                                                         \
    (FLAG_BIT(FL_SEND) | FLAG_BIT(FL_RECEIVE) | FLAG_BIT(FL_RUNNING) | FLAG_BIT(FL_EXITING) |   \
     FLAG_BIT(FL_RUNNING_PROCS) | FLAG_BIT(FL_GARBAGE_COLLECTION))

/* PROCS-MAX-HEAP-KILL: a child running {lists,seq,[From,To]} spawned with max_heap_size Max.
 * Its list of L elements is 2L words of live data when done: with L >= Max some collection
 * finds more live data than Max and the child is killed; with 64L + 10000 =< Max every heap
 * it can have fits and it exits normal. Between the two the heap growth policy decides, which
 * no document states: refused. */
static bool spawn_max_heap(Model *m, int q, const Step *st, long long len)
{
    if (len >= st->max_heap_size)
        return largeheap_list(m, q, len, st->max_heap_size, true) &&
               procs_terminate(m, q, term_atom(m->a, "killed"), "PROCS-MAX-HEAP-KILL", NULL);
    if (64 * len + 10000 <= st->max_heap_size)
        return largeheap_list(m, q, len, st->max_heap_size, false) &&
               procs_terminate(m, q, term_atom(m->a, "normal"), NULL, NULL);
    return model_unsupported(m, st->line, st->term_col,
                             "a list that may or may not outgrow max_heap_size (fewer elements than "
                             "the limit, and more than 1/64 of it) is");
}

/* How many sessions trace process q. */
static int sessions_on(const Model *m, int q)
{
    int n = 0;
    for (int s = 0; s < m->nsessions; s++)
        n += model_attached(&m->procs[q].trace[s]);
    return n;
}

/* Whether anything sees a spawned child's call of its entry function fn (lists:seq/2, or
 * erlang:apply/2 for a fun): a pattern on fn (a meta one or a counter in any process; the child
 * enters it through its export entry, erts's erl_create_process), or the child traced for calls,
 * whose local tail call (of seq_loop/3, of the fun) a '_':'_'/'_' pattern would see (refused where
 * the call is run). */
static bool entry_call_seen(const Model *m, int q, int fn)
{
    for (int s = 0; s < m->nsessions; s++)
        if (order_pattern_in_use(&m->sessions[s].pats[fn]) ||
            (m->procs[q].trace[s].flags & FLAG_BIT(FL_CALL) && m->all_modules_pattern))
            return true;
    return false;
}

/* PROCS-SPAWN-FUN: spawn(Fun) is spawn(erlang, apply, [Fun, []]) (erlang.erl), the child's
 * entry point. Refused where more than the child's call of erlang:apply/2 would be traced: the
 * parent's erlang:spawn/1 and the fun's code under a '_':'_'/'_' pattern, and a large_heap monitor,
 * which the fun's body may reach (PROCS-SPAWN-ENTRY bounds lists:seq/2's heap, not a fun's). */
static Term *spawn_fun_entry(Model *m, const Step *st)
{
    if (m->all_modules_pattern) {
        model_unsupported(m, st->line, st->term_col, "a spawn at a fun after a '_':'_'/'_' pattern (it reaches "
                          "erlang:spawn/1 and the fun's code in the harness's tcs_canon) is");
        return NULL;
    }
    for (int s = 1; s < m->nsessions; s++) /* the sessions' system/3 monitors, as largeheap_list */
        if (m->sessions[s].life == LIFE_ALIVE && m->sessions[s].sysmon.large_heap >= 0) {
            model_unsupported(m, st->line, st->term_col, "a spawn at a fun under a large_heap monitor is");
            return NULL;
        }
    Term *args[2] = {st->term, term_nil(m->a)};
    return term_tuple3(m->a, term_atom(m->a, "erlang"), term_atom(m->a, "apply"), term_list(m->a, 2, args));
}

/* PROCS-SPAWN-ENTRY-CALL: the child q's call of its entry point {M,F,Args}, through apply/3 as
 * erts makes it, with nothing to return to. */
static bool entry_call(Model *m, int q, const Step *st, const Term *mfa)
{
    Step call = *st;
    call.module = mfa->u.tuple.el[0]->u.name;
    call.fn = mfa->u.tuple.el[1]->u.name;
    call.args = mfa->u.tuple.el[2];
    call.path = CALL_APPLY;
    control_decided(m, "PROCS-SPAWN-ENTRY-CALL");
    return calls_step_from(m, q, &call, term_atom(m->a, "undefined"));
}

/* The child at {erlang,apply,[Fun,[]]} calls erlang:apply/2, which returns the fun's body, and
 * exits normal. */
static bool spawn_fun_call(Model *m, int q, const Step *st, const Term *mfa)
{
    control_decided(m, "PROCS-SPAWN-FUN");
    if (entry_call_seen(m, q, FN_APPLY2) && !entry_call(m, q, st, mfa))
        return false;
    return procs_terminate(m, q, term_atom(m->a, "normal"), NULL, NULL);
}

/* `P spawn R peer`, `P spawn_link R peer` (DIST-SPAWN, C-621): R is created by the peer node's
 * runtime (spawn_request/5 under spawn/4 and spawn_link/4), so P's node traces no spawn; P's link
 * when it links, then its receipt of the request's answer {spawn_reply, Ref, ok, R}, which P takes
 * before the call returns. */
static bool spawn_on_peer(Model *m, int p, const Step *st)
{
    int r = model_add_proc(m, st->other);
    m->procs[r].remote = true; /* DIST-PEER: alive, untraced, idle */
    if (st->kind == ST_SPAWN_LINK) {
        procs_set_link(m, p, r, true);
        tracepoint_event(m, p, "link", model_pid(m, r), NULL, "EV-LINK DIST-SPAWN");
    }
    Term *el[4] = {term_atom(m->a, "spawn_reply"), term_placeholder(m->a, "_Ref"), term_atom(m->a, "ok"),
                   model_pid(m, r)};
    return msgtrace_event(m, st, p, "receive", term_tuple(m->a, 4, el), model_pid(m, r), "EV-RECEIVE DIST-SPAWN");
}

bool procs_spawn(Model *m, int p, const Step *st)
{
    if (st->on_peer)
        return spawn_on_peer(m, p, st);
    bool linked = st->kind == ST_SPAWN_LINK;
    bool fun = st->term && st->term->kind == TK_FUN;
    Term *mfa = fun ? spawn_fun_entry(m, st) : st->term;
    if (fun && !mfa)
        return false;
    int q = model_add_proc(m, st->other);
    Term *a[1] = {term_atom(m->a, st->other)};
    /* PROCS-SPAWN-ENTRY: the entry point as written, else the scenario process's */
    if (!mfa)
        mfa = term_tuple3(m->a, term_atom(m->a, "tcs_puppet"), term_atom(m->a, "run"), term_list(m->a, 1, a));
    inherit_spawn(m, p, q, linked); /* the child is created with its flags */
    for (int s = 0; s < m->nsessions; s++)
        if (model_attached(&m->procs[p].trace[s]) && model_attached(&m->procs[q].trace[s])) {
            control_decided(m, "INHERIT-SPAWN-TRACER"); /* the parent's tracer, with its state */
            break;
        }
    if (sessions_on(m, q) > 1) /* the order its sessions are asked in */
        control_decided(m, "SESSION-ORDER-NEW");
    for (int s = 0; st->term && s < m->nsessions; s++) {
        if (m->procs[q].trace[s].flags & ENTRY_UNMODELLED)
            return model_unsupported(m, st->line, st->term_col,
                                     "an entry point traced for messages, scheduling or garbage collection is");
    }
    /* PROCS-SPAWN-OPTS: spawn_opt/4's options are in neither event, which carry the entry point
     * alone (erl_trace.c, trace_proc_spawn: "{trace, ParentPid, spawn, ChildPid, {Mod, Func,
     * Args}}"); a fullsweep_after bounds its minor collections (gc_step) */
    for (const Term *o = st->spawn_opts; o && o->kind == TK_CONS; o = o->u.cons.tail) {
        const Term *key = o->u.cons.head->u.tuple.el[0];
        m->procs[q].fullsweep_after |= term_is_atom(key, "fullsweep_after");
        if (term_is_atom(key, "min_heap_size")) /* its heap after a collection (SYSMON-LEGACY-LARGE-HEAP) */
            m->procs[q].min_heap_size = o->u.cons.head->u.tuple.el[1]->u.i;
    }
    const char *spawn_rules = fun ? "EV-SPAWN PROCS-SPAWN-ENTRY PROCS-SPAWN-FUN"
                              : st->term ? "EV-SPAWN PROCS-SPAWN-ENTRY"
                              : st->spawn_opts ? "EV-SPAWN PROCS-SPAWN-OPTS" : "EV-SPAWN";
    tracepoint_event(m, p, "spawn", model_pid(m, q), mfa, spawn_rules);
    if (linked) { /* PROCS-SPAWN-LINK: the parent's link, then the child's side */
        procs_set_link(m, p, q, true);
        tracepoint_event(m, p, "link", model_pid(m, q), NULL, "EV-LINK PROCS-SPAWN-LINK");
    }
    /* PROCS-SPAWNED: the child's own first event, term = its parent */
    tracepoint_event(m, q, "spawned", model_pid(m, p), mfa,
                     fun ? "PROCS-SPAWNED PROCS-SPAWN-ENTRY PROCS-SPAWN-FUN"
                     : st->term ? "PROCS-SPAWNED PROCS-SPAWN-ENTRY"
                     : st->spawn_opts ? "PROCS-SPAWNED PROCS-SPAWN-OPTS" : "PROCS-SPAWNED");
    if (linked)
        tracepoint_event(m, q, "getting_linked", model_pid(m, p), NULL, "EV-LINK PROCS-SPAWN-LINK");
    /* RUN-SPAWNED: a child created with running is scheduled in, at last, at its initial
     * function {tcs_puppet,run,1} (erl_create_process sets its current function to it) */
    if (sched_traced(m, q))
        tracepoint_event(m, q, "in", term_tuple3(m->a, term_atom(m->a, "tcs_puppet"), term_atom(m->a, "run"),
                                                 term_int(m->a, 1)), NULL, "RUN-FLAGS RUN-SPAWNED");
    if (!st->term)
        return true;
    if (fun)
        return spawn_fun_call(m, q, st, mfa);
    const Term *args = st->term->u.tuple.el[2]; /* [From, To] */
    long long len = args->u.cons.tail->u.cons.head->u.i - args->u.cons.head->u.i + 1;
    control_decided(m, "PROCS-SPAWN-ENTRY");
    bool called = entry_call_seen(m, q, FN_SEQ);
    if (called && (st->max_heap_size || len > LIBCALLS_SEQ_MAX))
        return model_unsupported(m, st->line, st->term_col, "an entry point whose call is traced, with max_heap_size "
                                 "or of a list longer than 1000 elements, is");
    if (called && !entry_call(m, q, st, st->term)) /* the child's call of lists:seq/2 */
        return false;
    if (st->max_heap_size) { /* PROCS-MAX-HEAP-KILL: killed by its list, or the list fits */
        control_decided(m, "PROCS-MAX-HEAP-KILL");
        return spawn_max_heap(m, q, st, len);
    }
    /* PROCS-SPAWN-ENTRY: the entry point returns: the child exits normal */
    return largeheap_list(m, q, len, 0, false) && procs_terminate(m, q, term_atom(m->a, "normal"), NULL, NULL);
}

static int link_pos(const Proc *p, int q)
{
    for (int i = 0; i < p->nlinks; i++)
        if (p->links[i] == q)
            return i;
    return -1;
}

static void link_remove(Proc *p, int q)
{
    int i = link_pos(p, q);
    if (i < 0)
        return;
    memmove(p->links + i, p->links + i + 1, (size_t)(p->nlinks - i - 1) * sizeof(int));
    p->nlinks--;
}

void procs_set_link(Model *m, int p, int q, bool linked)
{
    if (linked) {
        model_add_link(m, &m->procs[p], q);
        model_add_link(m, &m->procs[q], p);
    } else {
        link_remove(&m->procs[p], q);
        link_remove(&m->procs[q], p);
    }
}

bool procs_link(Model *m, int p, const Step *st, bool link)
{
    int q = model_proc(m, st->other);
    Proc *pp = &m->procs[p], *qp = &m->procs[q];
    bool linked = link_pos(pp, q) >= 0;
    if (qp->is_port) {
        if (!qp->alive)
            return model_unsupported(m, st->line, st->other_col, link ? "linking a closed port is" : "unlinking a closed port is");
        if (link == linked)
            return model_unsupported(m, st->line, st->col, link ? "linking an already linked port is"
                                                                : "unlinking a port that is not linked is");
        procs_set_link(m, p, q, link);
        return ports_link(m, p, q, link);
    }
    if (pp->remote || qp->remote) /* DIST-LINK: the events of the side on this node, as a local link's */
        control_decided(m, "DIST-LINK");
    /* the caller's event comes first, whatever the other side is */
    tracepoint_event(m, p, link ? "link" : "unlink", model_pid(m, q), NULL,
                     link == linked || !qp->alive ? "EV-LINK PROCS-LINK-ONE-SIDED" : "EV-LINK");
    if (link && !qp->alive && pp->trap_exit) {
        /* PROCS-LINK-DEAD-TRAP: the link is made and the dead process's noproc exit signal
         * (link_opt, bif.c) undoes it: SIGNAL-TRAP-LINK with reason noproc; C-155: OTP 25
         * and 27 deliver the message without making the link */
        if (!release_deviates(m, DEV_LINK_DEAD_TRAP_NO_LINK)) {
            tracepoint_event(m, p, "getting_unlinked", model_pid(m, q), NULL, "EV-LINK PROCS-LINK-DEAD-TRAP");
            return signals_trapped(m, p, model_pid(m, q), term_atom(m->a, "noproc"),
                                   "EV-RECEIVE PROCS-LINK-DEAD-TRAP");
        }
        /* MSGPAT-RECEIVE-SYSTEM-SENDER: the runtime queues that message itself, from system */
        return signals_trapped_as(m, p, model_pid(m, q), term_atom(m->a, "system"), term_atom(m->a, "noproc"),
                                  "EV-RECEIVE PROCS-LINK-DEAD-TRAP MSGPAT-RECEIVE-SYSTEM-SENDER");
    }
    if (link && !qp->alive) { /* PROCS-LINK-DEAD: link/1 raises noproc */
        control_step_raised(m, p, term_tuple3(m->a, term_atom(m->a, "link"), model_pid(m, q), NULL), "error",
                            term_atom(m->a, "noproc"), "PROCS-LINK-DEAD");
        return true;
    }
    if (link == linked) /* already linked, or not linked: nothing reaches the other side */
        return true;
    procs_set_link(m, p, q, link);
    /* DIST-LINK-NO-INHERIT: trace flags stay on their node; a process of the peer node neither
     * gets set_on_link's flags nor has any to give */
    if (link && !pp->remote && !qp->remote) {
        /* the flags reach the other side as a signal before the link (INHERIT-LINK); a blocked
         * process is scheduled to handle them (RUN-BLOCKED-INHERIT) */
        BlockSchedule before = windows_block_schedule(m, q);
        int had = sessions_on(m, q);
        inherit_link(m, p, q);
        if (sessions_on(m, q) > had + 1) /* several sessions at once: in the linker's order */
            control_decided(m, "INHERIT-LINK-ORDER");
        if (!windows_signal_flags(m, q, before))
            return false;
    }
    tracepoint_event(m, q, link ? "getting_linked" : "getting_unlinked", model_pid(m, p), NULL, "EV-LINK");
    return true;
}

/* The process or port holding the registered name, or -1. */
static int registered(const Model *m, const char *name)
{
    for (int i = 0; i < m->nprocs; i++)
        if (m->procs[i].regname && strcmp(m->procs[i].regname, name) == 0)
            return i;
    return -1;
}

bool procs_register(Model *m, int p, const Step *st, bool reg)
{
    const char *name = st->term->u.name;
    int owner = registered(m, name);
    /* PORTS-REGISTER: `P register N X` names port X */
    int named = reg && st->other ? model_proc(m, st->other) : p;
    Proc *np = &m->procs[named];
    if (reg && !np->alive)
        return model_unsupported(m, st->line, st->other_col, "registering a closed port is");
    if (reg && !np->regname && owner < 0) {
        np->regname = name;
        tracepoint_event(m, named, "register", st->term, NULL, np->is_port ? "EV-REGISTER PORTS-REGISTER" : "EV-REGISTER");
    } else if (!reg && owner >= 0) { /* the event is the owner's, whoever unregisters */
        m->procs[owner].regname = NULL;
        tracepoint_event(m, owner, "unregister", st->term, NULL,
                         m->procs[owner].is_port ? "EV-REGISTER PORTS-REGISTER"
                         : owner == p           ? "EV-REGISTER"
                                                : "EV-REGISTER PROCS-UNREGISTER-OTHER");
    } else if (named != p) {
        return model_unsupported(m, st->line, st->term_col, "naming a port with a name taken, or a port that has one, is");
    } else { /* PROCS-REGISTER-BADARG: a name taken, a second name, or no such name */
        Term *action = term_tuple3(m->a, term_atom(m->a, reg ? "register" : "unregister"), st->term, NULL);
        control_step_raised(m, p, action, "error", term_atom(m->a, "badarg"), "PROCS-REGISTER-BADARG");
    }
    return true;
}

/* True iff killed_by (the rules of what kills a process) is an exit signal of another process
 * or port (exit/2, a link), which reaches a process waiting in the gate's dirty NIF. */
static bool by_exit_signal(const char *killed_by)
{
    return killed_by && strncmp(killed_by, "EV-EXIT ", 8) == 0;
}

/* Process p exits with reason: exit, then unregister; its links undone. killed_by: NULL when p
 * exits by itself, else the rules of the exit signal that kills it. Returns the processes and
 * ports it was linked to (*n of them). */
static int *process_exits(Model *m, int p, const Term *reason, const char *killed_by, int *n)
{
    Proc *pp = &m->procs[p];
    unsigned dirty_out[2] = {0, 0};
    if (pp->blocked) { /* RUN-WAKE: a process killed in a receive is scheduled in to exit */
        running_wake(m, p);
    } else if (killed_by) {
        /* RUN-KILLED-DIRTY-OUT: a signal handled while it is still in the gate's dirty NIF; the NIF
         * may return at any time until the exit is done (C-800), so the window closes at out_exited */
        if (by_exit_signal(killed_by)) { /* RUN-KILLED-DIRTY-MIGRATE: a normal scheduler finds it still
                                          * dirty, before or after the dirty one's out_exiting */
            unsigned migrate[2];
            windows_exit(m, p, RACE_KILLED_DIRTY_MIGRATE, migrate);
            windows_exit(m, p, RACE_KILLED_DIRTY_OUT, dirty_out);
            races_close(m, RACE_KILLED_DIRTY_MIGRATE, migrate[1]);
            races_close(m, RACE_KILLED_DIRTY_MIGRATE, migrate[0]);
        }
        if (strstr(killed_by, "EV-EXIT-LINKED")) /* the harness's wake-up races the signal */
            windows_exit(m, p, RACE_KILLED_LINKED, NULL);
        else /* RUN-KILLED: killed while it runs (in the gate): scheduled in exiting */
            running_killed(m, p);
    }
    tracepoint_event(m, p, "exit", reason, NULL, killed_by ? killed_by : "EV-EXIT");
    /* RUN-KILLED-EXIT-YIELD: scheduled out and back in while it exits, before or after its unregister */
    unsigned yield[2] = {0, 0};
    if (by_exit_signal(killed_by))
        windows_exit(m, p, RACE_KILLED_EXIT_YIELD, yield);
    if (pp->regname) {
        tracepoint_event(m, p, "unregister", term_atom(m->a, pp->regname), NULL, "EV-REGISTER EV-EXIT-UNREGISTER");
        pp->regname = NULL;
    }
    races_close(m, RACE_KILLED_EXIT_YIELD, yield[0]);
    races_close(m, RACE_KILLED_DIRTY_OUT, dirty_out[0]);
    running_exited(m, p);
    pp->alive = false;
    if (m->legacy_monitor && strcmp(m->legacy_monitor, pp->name) == 0)
        m->legacy_monitor = NULL; /* SYSMON-LEGACY-SET: cleared when its process ends */
    messages_drop(m, p);
    int *links = model_take_links(pp, n);
    for (int i = 0; i < *n; i++)
        link_remove(&m->procs[links[i]], p);
    return links;
}

/* A process or port of an exit cascade, and how far the signals to its former links got. */
typedef struct {
    int who;
    int *links;
    int n, next;
    bool downed; /* its monitors have fired (SIGNAL-DOWN), after its links (SIGNAL-LINK-BEFORE-DOWN) */
    const Term *reason; /* the reason its exit signals carry */
    bool port_kill;     /* a port closing with kill: its exit signals say killed (PORTS-CLOSED-KILL) */
} Dying;

/* A port closing with reason kill sends killed to its links (PORTS-CLOSED-KILL: io.c,
 * erts_deliver_port_exit, "modified_reason = (reason == am_kill) ? am_killed : reason;" for
 * the links and monitors, while its closed event keeps the reason); anything else sends its
 * own reason. */
static const Term *signal_reason(Model *m, int who, const Term *reason)
{
    if (m->procs[who].is_port && term_is_atom(reason, "kill"))
        return term_atom(m->a, "killed");
    return reason;
}

/* Whether one of the dying one's links is a port. */
static bool links_port(const Model *m, const Dying *d)
{
    for (int i = 0; i < d->n; i++)
        if (m->procs[d->links[i]].is_port)
            return true;
    return false;
}

/* who dies (a process, or a port closing with port_rules): its own lines, then it joins the end
 * of the cascade's queue (in the arena, grown by doubling). */
static Dying *dying_push(Model *m, Dying *queue, size_t *len, size_t *cap, int who, const Term *reason,
                         const char *killed_by, const char *port_rules)
{
    if (!m->procs[who].is_port && by_exit_signal(killed_by) &&
        (!windows_exit_ok(m, who, RACE_KILLED_DIRTY_OUT) || !windows_exit_ok(m, who, RACE_KILLED_DIRTY_MIGRATE) ||
         !windows_exit_ok(m, who, RACE_KILLED_EXIT_YIELD)))
        return NULL;
    queue = arena_grow(m->a, queue, *len, cap, sizeof *queue);
    Dying *d = &queue[(*len)++];
    d->who = who;
    d->next = 0;
    d->downed = m->procs[who].is_port;
    d->reason = signal_reason(m, who, reason);
    d->port_kill = d->reason != reason;
    d->links = m->procs[who].is_port ? ports_closed(m, who, reason, port_rules, &d->n)
                                     : process_exits(m, who, reason, killed_by, &d->n);
    /* a token holder's link exit signals to processes carry its token (SEQ-EXIT-SIGNAL); what
     * its signals to ports and its 'DOWN' messages do with it model v1 leaves out (fuzz group J6) */
    if (!m->procs[who].is_port && m->procs[who].token && (links_port(m, d) || m->procs[who].nwatchers > 0)) {
        model_unsupported(m, m->step->line, m->step->col, "the exit of a process holding a seq_trace token, "
                          "with a linked port or monitors (its exit signals carry the token), is");
        return NULL;
    }
    return queue;
}

/* Whether process w monitors process q (a 'DOWN' from q will reach it). */
static bool watches(const Model *m, int w, int q)
{
    for (int i = 0; i < m->procs[q].nwatchers; i++)
        if (m->procs[q].watchers[i] == w)
            return true;
    return false;
}

bool procs_linked_across(const Model *m, int p)
{
    for (int i = 0; i < m->procs[p].nlinks; i++)
        if (m->procs[m->procs[p].links[i]].remote)
            return true;
    return false;
}

/* Each process linked to one that exits dies too with the same reason, or, when the reason is
 * normal, survives and gets unlinked; one that traps exits gets unlinked and the exit signal as
 * a message (SIGNAL-TRAP-LINK); a linked port gets the exit signal (ports.c). The processes
 * linked to a closed port fare the same (PORTS-CLOSED-LINKS), but for a port closing with kill,
 * whose signals say killed (PORTS-CLOSED-KILL). The cascade is a queue, first
 * dead first: a dying process sends all its exit signals (and its 'DOWN's) while it exits,
 * before any receiver it kills can send its own, so a process or port linked to both gets the
 * first one's signal first (SIGNAL-CASCADE-ORDER, C-211). */
bool procs_terminate(Model *m, int p, const Term *reason, const char *killed_by, const char *port_rules)
{
    if (m->procs[p].remote || procs_linked_across(m, p)) /* DIST-EXIT: its signals cross as local ones do */
        control_decided(m, "DIST-EXIT");
    size_t len = 0, cap = 0, head = 0;
    Dying *queue = dying_push(m, NULL, &len, &cap, p, reason, killed_by, port_rules);
    if (!queue)
        return false;
    while (head < len) {
        Dying *d = &queue[head];
        if (d->next == d->n) {
            /* SIGNAL-LINK-BEFORE-DOWN: its monitors fire after its links have acted
             * (erl_process.c, erts_continue_exit_process: ERTS_CONTINUE_EXIT_LINKS, then
             * ERTS_CONTINUE_EXIT_MONITORS; one sender's signals arrive in order), so a watcher
             * killed through the link gets no 'DOWN' */
            if (!d->downed) {
                d->downed = true;
                if (d->n > 0 && m->procs[d->who].nwatchers > 0)
                    control_decided(m, "SIGNAL-LINK-BEFORE-DOWN");
                if (!signals_down(m, d->who, d->reason))
                    return false;
                continue;
            }
            head++;
            continue;
        }
        int who = d->who, q = d->links[d->next++];
        const Term *sent = d->reason;
        bool from_port = m->procs[who].is_port, port_kill = d->port_kill;
        if (!m->procs[q].alive)
            continue;
        const SeqToken *token = from_port || m->procs[q].is_port ? NULL : seqtrace_exit_signal(m, who, q, sent);
        if (!from_port && m->procs[q].is_port) {
            bool closes;
            if (!ports_exit_signal(m, q, who, sent, &closes))
                return false;
            if (closes && !(queue = dying_push(m, queue, &len, &cap, q, sent, NULL,
                                               term_is_atom(sent, "kill") ? "PORTS-EXIT-SIGNAL PORTS-CLOSED-KILL"
                                                                          : "PORTS-EXIT-SIGNAL")))
                return false;
        } else if (m->procs[q].trap_exit) {
            if (!signals_trapped_link(m, q, model_id(m, who), sent, token,
                                      port_kill ? "EV-RECEIVE SIGNAL-TRAP-LINK PORTS-CLOSED-KILL"
                                                : "EV-RECEIVE SIGNAL-TRAP-LINK"))
                return false;
        } else if (term_is_atom(sent, "normal")) {
            /* RUN-WAKE-LINK-DOWN (C-371): a blocked receiver that also monitors the dying
             * process is scheduled in by the link signal, handles it, and its 'DOWN' (sent
             * after the links) usually is there already: in, getting_unlinked, then the
             * 'receive' in that same schedule, or one wait (out, in) before the 'DOWN' comes */
            bool wakes = !from_port && m->procs[q].blocked && !m->procs[q].link_woken && watches(m, q, who);
            if (wakes)
                running_wake(m, q);
            if (token)
                seqtrace_exit_ignored(m, q);
            tracepoint_event(m, q, "getting_unlinked", model_id(m, who), NULL,
                             from_port ? "EV-LINK EV-EXIT-UNLINKED PORTS-CLOSED-LINKS" : "EV-LINK EV-EXIT-UNLINKED");
            if (wakes) {
                m->procs[q].link_woken = true;
                if (!windows_wait(m, q, sched_block_mfa(m), RACE_WAKE_LINK_DOWN, &m->procs[q].link_woken_wait))
                    return false;
            }
        } else {
            if (token && !seqtrace_exit_received(m, q))
                return false;
            if (!windows_exit_ok(m, q, RACE_KILLED_LINKED))
                return false;
            if (!(queue = dying_push(m, queue, &len, &cap, q, sent,
                                     port_kill ? "EV-EXIT EV-EXIT-LINKED PORTS-CLOSED-KILL" : "EV-EXIT EV-EXIT-LINKED",
                                     NULL)))
                return false;
        }
    }
    if (len > 1) /* another died of its exit signals: after it had sent all of them */
        control_decided(m, "SIGNAL-CASCADE-ORDER");
    return true;
}

bool procs_exit(Model *m, int p, const Step *st)
{
    return procs_terminate(m, p, st->term, NULL, NULL);
}
