/* timers.c - a BIF timer the harness aims at a process blocked in a receive, and its cancel
 * (CONFORMANCE.md, "Scheduling", TIMER-* and C-660). Model v1 knows no time: a timer must not
 * fire before its cancel, so the case's steps between them are few and quick (suspend, resume
 * and status of its receiver) and the timer long; after a cancel that OTP 29 misses (its
 * receiver was suspended while it was armed: C-660), the timer fires with the time it had left,
 * so the next step must be a timed wait longer than the timer, by an untraced process. */
#include "control.h"
#include "messages.h"
#include "release.h"
#include "timers.h"

/* The shortest timer the model takes: the steps up to its cancel must not outlast it on a loaded
 * machine. */
enum { TIMERS_MIN_MS = 1000 };
/* How much longer than the timer the wait after a cancel must be (the steps before the wait
 * and the timer's delivery must fit in it). */
enum { TIMERS_WAIT_MARGIN_MS = 1000 };

/* The message the harness's timer brings when it fires: {timeout, TimerRef, tcs_timer}. */
static Term *timeout_message(Model *m)
{
    return term_tuple3(m->a, term_atom(m->a, "timeout"), term_ref(m->a), term_atom(m->a, "tcs_timer"));
}

bool timers_start(Model *m, const Step *st)
{
    int p = model_proc(m, st->actor);
    Proc *pr = &m->procs[p];
    if (!pr->alive || !pr->blocked || pr->nsuspenders || pr->timer != TIMER_NONE)
        return model_unsupported(m, st->line, st->actor_col,
                                 "a timer to a process not blocked in a receive, suspended, dead or with a timer "
                                 "(its message would be taken, or come in no stated order) is");
    if (st->timeout < TIMERS_MIN_MS)
        return model_unsupported(m, st->line, st->col,
                                 "a timer under 1000 ms (it could fire before its cancel on a loaded machine) is");
    pr->timer = TIMER_ARMED;
    pr->timer_ms = st->timeout;
    pr->timer_line = st->line;
    pr->timer_col = st->col;
    Buf call;
    buf_init(&call);
    buf_printf(&call, "erlang:start_timer(%lld,", st->timeout);
    term_print(&call, model_pid(m, p), PRINT_CANON);
    buf_puts(&call, ",tcs_timer)");
    control_line(m, buf_str(&call), "-> _Ref", "TIMER-START");
    buf_free(&call);
    return true;
}

bool timers_cancel(Model *m, const Step *st)
{
    int p = model_proc(m, st->actor);
    Proc *pr = &m->procs[p];
    if (pr->timer != TIMER_ARMED && pr->timer != TIMER_PAUSED)
        return model_unsupported(m, st->line, st->actor_col, "a cancel_timer of a process with no timer armed is");
    if (pr->nsuspenders)
        return model_unsupported(m, st->line, st->actor_col,
                                 "a cancel of a timer whose receiver is suspended (OTP 29 pauses the timer: "
                                 "C-660) is");
    bool paused = pr->timer == TIMER_PAUSED;
    bool missed = paused && release_deviates(m, DEV_PAUSED_TIMER_UNREACHABLE);
    pr->timer = missed ? TIMER_LATE : paused ? TIMER_WAITED : TIMER_NONE;
    control_line(m, "erlang:cancel_timer(_Ref)", missed ? "-> false" : "-> _Ms", "TIMER-CANCEL");
    return true;
}

void timers_receiver_suspended(Model *m, int p)
{
    Proc *pr = &m->procs[p];
    if (pr->timer == TIMER_ARMED)
        pr->timer = TIMER_PAUSED; /* OTP 29 pauses it (erlang:suspend_process/2's documentation) */
}

/* True iff q is traced by some session. */
static bool traced(const Model *m, int q)
{
    for (int s = 0; s < m->nsessions; s++)
        if (model_attached(&m->procs[q].trace[s]))
            return true;
    return false;
}

/* The step allowed while p's timer is armed: a suspend, resume or status of p, or its cancel. */
static bool armed_allows(const Model *m, int p, const Step *st)
{
    bool of_p = st->actor && model_proc(m, st->actor) == p;
    return of_p && ((st->kind == ST_SUSPEND && !st->term) || st->kind == ST_RESUME || st->kind == ST_STATUS ||
                    st->kind == ST_CANCEL_TIMER);
}

/* The step allowed after a cancel of p's paused timer: a wait of an untraced process q other than p,
 * on an empty mailbox, longer than the timer by the margin. */
static bool wait_allows(const Model *m, int p, const Step *st)
{
    if (st->kind != ST_RECV || !st->has_timeout || st->term || !st->actor)
        return false;
    int q = model_proc(m, st->actor);
    const Proc *qp = &m->procs[q];
    return q != p && qp->alive && qp->mlen == 0 && !traced(m, q) &&
           st->timeout >= m->procs[p].timer_ms + TIMERS_WAIT_MARGIN_MS;
}

bool timers_before_step(Model *m, const Step *st)
{
    for (int p = 0; p < m->nprocs; p++) {
        Proc *pr = &m->procs[p];
        if ((pr->timer == TIMER_ARMED || pr->timer == TIMER_PAUSED) && !armed_allows(m, p, st))
            return model_unsupported(m, st->line, st->col,
                                     "a step other than suspend, resume, status or cancel_timer of its receiver while "
                                     "a timer is armed (model v1 knows no time: the timer must not fire) is");
        if (pr->timer != TIMER_WAITED && pr->timer != TIMER_LATE)
            continue;
        if (!wait_allows(m, p, st))
            return model_unsupported(m, st->line, st->col,
                                     "after a cancel of a timer whose receiver was suspended, a step other than a recv "
                                     "after (at least the timer's milliseconds and 1000 more) by an untraced process "
                                     "with an empty mailbox (OTP 29 fires the timer then: C-660) is");
        bool late = pr->timer == TIMER_LATE;
        pr->timer = TIMER_NONE;
        if (late && !messages_deliver(m, p, timeout_message(m), NULL, NULL, "EV-RECEIVE TIMER-CANCEL"))
            return false;
    }
    return true;
}

bool timers_end(Model *m)
{
    for (int p = 0; p < m->nprocs; p++)
        if (m->procs[p].timer != TIMER_NONE)
            return model_unsupported(m, m->procs[p].timer_line, m->procs[p].timer_col,
                                     "a case that ends with a timer armed, or before the wait after its cancel, is");
    return true;
}
