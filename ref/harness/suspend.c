/* suspend.c - erlang:suspend_process/1,2 and resume_process/1, by the harness or by a process of
 * the scenario (CONFORMANCE.md, "Scheduling", SUSPEND-* and RUN-SUSPENDED). A process blocked in a
 * receive is suspended without being scheduled; a message that reaches it is received when it
 * handles its signals (the harness's settle asks it its message_queue_len after every step,
 * C-491), and it runs again, to take the message, only once no suspender holds it: each suspender
 * resumes its own suspends, and a suspender's exit lifts all of them (SUSPEND-SUSPENDER-EXIT). */
#include "busyloop.h"
#include "control.h"
#include "messages.h"
#include "races.h"
#include "release.h"
#include "suspend.h"
#include "timers.h"

/* The suspender the harness is in a Proc's suspenders (a process is its index). */
enum { SUSPENDER_HARNESS = -1 };

/* How many of q's suspends who holds. */
static int holds(const Proc *q, int who)
{
    int n = 0;
    for (int i = 0; i < q->nsuspenders; i++)
        n += q->suspenders[i] == who;
    return n;
}

/* who suspends q once more (SUSPEND-PROCESS, SUSPEND-NESTED). */
static void hold(Model *m, int q, int who)
{
    Proc *qp = &m->procs[q];
    qp->suspenders = arena_grow(m->a, qp->suspenders, (size_t)qp->nsuspenders, &qp->suspenders_cap,
                                sizeof *qp->suspenders);
    qp->suspenders[qp->nsuspenders++] = who;
}

/* One of who's suspends of q lifted (who holds one). */
static void release(Proc *q, int who)
{
    for (int i = 0; i < q->nsuspenders; i++)
        if (q->suspenders[i] == who) {
            q->suspenders[i] = q->suspenders[--q->nsuspenders];
            return;
        }
}

/* q, a suspend of it just lifted: if no suspender holds it any more, it runs again, and, blocked
 * with a message that came while it was suspended, is woken to take it (RUN-SUSPENDED). */
static void lifted(Model *m, int q)
{
    const Proc *qp = &m->procs[q];
    if (qp->alive && !qp->nsuspenders && qp->blocked && qp->mlen > 0)
        messages_wake_blocked(m, q);
}

/* "erlang:suspend_process(<a>)" or "erlang:resume_process(<a>)" into call. */
static void bif_call(Model *m, Buf *call, const char *bif, int p)
{
    buf_printf(call, "erlang:%s(", bif);
    term_print(call, model_pid(m, p), PRINT_CANON);
    buf_puts(call, ")");
}

/* The ctl line of the BIF on p: "-> true", or badarg (rules say why). */
static void bif_line(Model *m, const char *bif, int p, bool done, const char *rules)
{
    Buf call;
    buf_init(&call);
    bif_call(m, &call, bif, p);
    control_line(m, buf_str(&call), done ? "-> true" : "raises error:badarg", rules);
    buf_free(&call);
}

/* The option list of `suspend A Opts`: true when it is a proper list of unless_suspending only
 * (*unless says whether it holds one); false, with *valid false, when it is no proper list of
 * documented options (badarg, SUSPEND-OPTS-BADARG); false, with *valid true, when it holds
 * asynchronous, whose suspension lands at a time the harness cannot observe (C-550). */
static bool suspend_opts(const Term *opts, bool *unless, bool *valid)
{
    *unless = false;
    *valid = false;
    for (; opts->kind == TK_CONS; opts = opts->u.cons.tail) {
        const Term *o = opts->u.cons.head;
        if (term_is_atom(o, "unless_suspending"))
            *unless = true;
        else if (term_is_atom(o, "asynchronous") ||
                 (o->kind == TK_TUPLE && o->u.tuple.n == 2 && term_is_atom(o->u.tuple.el[0], "asynchronous")))
            return (*valid = true, false);
        else
            return false;
    }
    *valid = opts->kind == TK_NIL;
    return *valid;
}

/* "erlang:suspend_process(<a>,Opts)" and its answer. */
static void opts_line(Model *m, int p, const Term *opts, const char *answer, const char *rules)
{
    Buf call;
    buf_init(&call);
    buf_puts(&call, "erlang:suspend_process(");
    term_print(&call, model_pid(m, p), PRINT_CANON);
    buf_puts(&call, ",");
    term_print(&call, opts, PRINT_CANON);
    buf_puts(&call, ")");
    control_line(m, buf_str(&call), answer, rules);
    buf_free(&call);
}

bool suspend_step(Model *m, const Step *st)
{
    int p = model_proc(m, st->actor);
    Proc *pr = &m->procs[p];
    bool unless = false, valid = true;
    if (st->term && !suspend_opts(st->term, &unless, &valid)) {
        if (valid)
            return model_unsupported(m, st->line, st->term_col,
                                     "an asynchronous suspend (its suspension lands at a time the harness cannot "
                                     "observe: C-550) is");
        opts_line(m, p, st->term, "raises error:badarg", "SUSPEND-OPTS-BADARG");
        return true;
    }
    if (!pr->alive) { /* SUSPEND-DEAD */
        if (st->term)
            opts_line(m, p, st->term, "raises error:badarg", "SUSPEND-DEAD");
        else
            bif_line(m, "suspend_process", p, false, "SUSPEND-DEAD");
        return true;
    }
    if (unless && holds(pr, SUSPENDER_HARNESS)) { /* SUSPEND-UNLESS-SUSPENDING: the harness suspends it already */
        opts_line(m, p, st->term, "-> false", "SUSPEND-UNLESS-SUSPENDING");
        return true;
    }
    /* a process at its gate runs the gate's dirty NIF: OTP 25 and 27 raise internal_error in the
     * suspender once it leaves it, 29 keeps the suspender waiting (C-491, OTP-19799) */
    if (!pr->blocked || pr->suspended)
        return model_unsupported(m, st->line, st->actor_col,
                                 "a suspend of a process not blocked in a receive (one at the harness's gate runs "
                                 "a dirty NIF, which OTP 25 to 29 do not suspend: C-491) is");
    hold(m, p, SUSPENDER_HARNESS); /* SUSPEND-PROCESS: suspended where it waits, not scheduled (RUN-SUSPENDED) */
    timers_receiver_suspended(m, p);
    if (st->term)
        opts_line(m, p, st->term, "-> true",
                  unless ? "SUSPEND-UNLESS-SUSPENDING SUSPEND-PROCESS RUN-SUSPENDED" : "SUSPEND-PROCESS RUN-SUSPENDED");
    else
        bif_line(m, "suspend_process", p, true, "SUSPEND-PROCESS RUN-SUSPENDED");
    return true;
}

bool suspend_resume(Model *m, const Step *st)
{
    int p = model_proc(m, st->actor);
    Proc *pr = &m->procs[p];
    if (!pr->alive || !holds(pr, SUSPENDER_HARNESS)) { /* SUSPEND-DEAD, SUSPEND-RESUME-NOT-SUSPENDED */
        bif_line(m, "resume_process", p, false, pr->alive ? "SUSPEND-RESUME-NOT-SUSPENDED" : "SUSPEND-DEAD");
        return true;
    }
    release(pr, SUSPENDER_HARNESS); /* SUSPEND-NESTED: it runs again once no suspend is left */
    bif_line(m, "resume_process", p, true, pr->nsuspenders ? "SUSPEND-RESUME SUSPEND-NESTED" : "SUSPEND-RESUME");
    lifted(m, p);
    return true;
}

/* "<p> erlang:BIF(<q>)", process p's call, into call. */
static void by_process_call(Model *m, Buf *call, int p, const char *bif, int q)
{
    buf_printf(call, "<%s> ", m->procs[p].name);
    bif_call(m, call, bif, q);
}

/* The ctl line of process p's call erlang:BIF(<q>) and its answer. */
static void by_process_line(Model *m, int p, const char *bif, int q, const char *answer, const char *rules)
{
    Buf call;
    buf_init(&call);
    by_process_call(m, &call, p, bif, q);
    control_line(m, buf_str(&call), answer, rules);
    buf_free(&call);
}

/* The ctl line of p's suspend of q, busy in a loop of a dirty NIF: true (SUSPEND-DIRTY); on a
 * release with OTP-19799 either that or internal_error, raised once the NIF returns, q suspended
 * either way (C-611). */
static void dirty_suspend_line(Model *m, int p, int q)
{
    const char *rules = "SUSPEND-BY-PROCESS SUSPEND-DIRTY";
    if (!release_deviates(m, DEV_SUSPEND_DIRTY_RAISES)) {
        by_process_line(m, p, "suspend_process", q, "-> true", rules);
        return;
    }
    Buf call;
    buf_init(&call);
    by_process_call(m, &call, p, "suspend_process", q);
    races_either_answer(m, RACE_SUSPEND_DIRTY, buf_str(&call), "-> true", "raises error:internal_error", rules);
    buf_free(&call);
}

/* True iff some session has a trace flag on p. */
static bool traced_by_any(const Model *m, int p)
{
    for (int s = 0; s < m->nsessions; s++)
        if (m->procs[p].trace[s].attached && m->procs[p].trace[s].flags)
            return true;
    return false;
}

/* True iff q monitors some process (a 'DOWN' may reach it). */
static bool monitors_any(const Model *m, int q)
{
    for (int r = 0; r < m->nprocs; r++)
        for (int i = 0; i < m->procs[r].nwatchers; i++)
            if (m->procs[r].watchers[i] == q)
                return true;
    return false;
}

bool suspend_by_process(Model *m, int p, const Step *st)
{
    int q = model_proc(m, st->other);
    const Proc *qp = &m->procs[q];
    if (q == p || !qp->alive) { /* SUSPEND-SELF, SUSPEND-DEAD */
        by_process_line(m, p, "suspend_process", q, "raises error:badarg", q == p ? "SUSPEND-SELF" : "SUSPEND-DEAD");
        return true;
    }
    bool dirty = busyloop_dirty(m, q); /* SUSPEND-DIRTY: in its loop's dirty NIF or between two */
    if ((!qp->blocked || qp->suspended) && !dirty)
        return model_unsupported(m, st->line, st->other_col,
                                 "a suspend of a process not blocked in a receive (one at the harness's gate runs "
                                 "a dirty NIF, which OTP 25 to 29 do not suspend: C-491) is");
    /* its suspender's exit (or resume) and exit signals or 'DOWN' messages of others reach it from
     * different processes, in no order the documents give */
    if (qp->nlinks > 0 || monitors_any(m, q))
        return model_unsupported(m, st->line, st->other_col,
                                 "a suspend by a process of a process with links or monitors (its resume and their "
                                 "signals reach it in no stated order) is");
    /* the suspender of a process in a dirty NIF waits for its answer: it was scheduled out and in
     * and took a {Ref, true} message, both traced (fuzz seed 2026112952, scenario 85, on 27 and
     * 29), which no document describes */
    if (dirty && traced_by_any(m, p))
        return model_unsupported(m, st->line, st->actor_col,
                                 "a suspend by a traced process of a process looping through a dirty NIF (it waits "
                                 "for the answer) is");
    hold(m, q, p); /* SUSPEND-BY-PROCESS: suspended where it waits, as by the harness */
    if (dirty)
        dirty_suspend_line(m, p, q);
    else
        by_process_line(m, p, "suspend_process", q, "-> true", "SUSPEND-BY-PROCESS SUSPEND-PROCESS RUN-SUSPENDED");
    return true;
}

bool suspend_resume_by_process(Model *m, int p, const Step *st)
{
    int q = model_proc(m, st->other);
    Proc *qp = &m->procs[q];
    if (q == p || !qp->alive || !holds(qp, p)) { /* SUSPEND-SELF, SUSPEND-DEAD, SUSPEND-RESUME-NOT-SUSPENDED */
        by_process_line(m, p, "resume_process", q, "raises error:badarg",
                        q == p ? "SUSPEND-SELF" : !qp->alive ? "SUSPEND-DEAD" : "SUSPEND-RESUME-NOT-SUSPENDED");
        return true;
    }
    release(qp, p); /* SUSPEND-BY-PROCESS: its own suspends only; the others still hold q */
    by_process_line(m, p, "resume_process", q, "-> true",
                    qp->nsuspenders ? "SUSPEND-BY-PROCESS SUSPEND-RESUME SUSPEND-NESTED"
                                    : "SUSPEND-BY-PROCESS SUSPEND-RESUME");
    lifted(m, q);
    return true;
}

void suspend_lift_exited(Model *m)
{
    for (int q = 0; q < m->nprocs; q++) {
        Proc *qp = &m->procs[q];
        bool lift = false;
        for (int i = 0; qp->alive && i < qp->nsuspenders;) {
            int who = qp->suspenders[i];
            if (who != SUSPENDER_HARNESS && !m->procs[who].alive) { /* SUSPEND-SUSPENDER-EXIT */
                release(qp, who);
                lift = true;
            } else {
                i++;
            }
        }
        if (lift) {
            control_decided(m, "SUSPEND-SUSPENDER-EXIT");
            lifted(m, q);
        }
    }
}

bool suspend_status(Model *m, const Step *st)
{
    int p = model_proc(m, st->actor);
    const Proc *pr = &m->procs[p];
    /* a process at its gate runs a dirty NIF: its status is running, not where it waits (C-491) */
    bool dirty = busyloop_dirty(m, p) && pr->nsuspenders; /* SUSPEND-DIRTY: suspended in its loop */
    if (pr->alive && (!pr->blocked || pr->suspended) && !dirty)
        return model_unsupported(m, st->line, st->actor_col,
                                 "a status of a process not blocked in a receive (at the harness's gate it runs a "
                                 "dirty NIF: C-491) is");
    Buf call;
    buf_init(&call);
    buf_puts(&call, "erlang:process_info(");
    term_print(&call, model_pid(m, p), PRINT_CANON);
    buf_puts(&call, ",status)");
    const char *answer = !pr->alive         ? "-> undefined"
                         : pr->nsuspenders ? "-> {status,suspended}"
                                           : "-> {status,waiting}";
    control_line(m, buf_str(&call), answer,
                 !pr->alive         ? "SUSPEND-STATUS SUSPEND-DEAD"
                 : dirty            ? "SUSPEND-STATUS SUSPEND-DIRTY"
                 : pr->nsuspenders ? "SUSPEND-STATUS SUSPEND-PROCESS"
                                    : "SUSPEND-STATUS RUN-BLOCK");
    buf_free(&call);
    return true;
}

/* True iff some process is suspended (by the harness or by a process). */
static bool any_suspended(const Model *m)
{
    for (int p = 0; p < m->nprocs; p++)
        if (m->procs[p].alive && m->procs[p].nsuspenders)
            return true;
    return false;
}

const char *suspend_refuses(const Model *m, const Step *st)
{
    const char *what = NULL;
    bool signal = st->kind == ST_LINK || st->kind == ST_UNLINK || st->kind == ST_MONITOR;
    if (st->kind == ST_IDLE && m->procs[model_proc(m, st->actor)].nsuspenders)
        what = "an idle of a suspended busy process (its loop cannot end while it is suspended) is";
    else if (signal && m->procs[model_proc(m, st->other)].nsuspenders)
        what = "a signal other than a message to a suspended process is";
    else if ((st->kind == ST_TRACE || st->kind == ST_SESSION || st->kind == ST_INFO || st->kind == ST_TRACER_EXIT ||
              st->kind == ST_TRACER_UNLOAD || st->kind == ST_TRACER_RELOAD || st->kind == ST_TRACER_RELOAD_BUSY ||
              st->kind == ST_SEQ_TRACER) &&
             any_suspended(m))
        what = "a trace, session, info or tracer step while a process is suspended is";
    return what;
}
