/* running.c - scheduling of processes (CONFORMANCE.md section 2, "Scheduling").
 * A process of the scenario is scheduled out when it blocks in a receive and back in when a
 * message (or an exit signal) reaches it; the scheduling the harness itself causes is
 * informative (RUN-HARNESS), so these are the only in/out lines the model predicts. */
#include "running.h"
#include "sched.h"
#include "tracepoint.h"
#include "races.h"
#include "windows.h"

/* RUN-WAKE-SESSION-END (C-820): the window for p's wait at mfa, where the wake of a session's end
 * may still reach it; false when the model refuses it (a tracer answering remove to p's out or in). */
static bool session_end_window(Model *m, int p, const Term *mfa)
{
    Proc *pr = &m->procs[p];
    if (!pr->session_end_due || pr->session_end_wait)
        return true;
    return windows_wait(m, p, mfa, RACE_WAKE_SESSION_END, &pr->session_end_wait);
}

/* The end of p's wait: the wake, had it not come yet, would find p elsewhere (RUN-WAKE-SESSION-END). */
static void session_end_waited(Model *m, int p)
{
    Proc *pr = &m->procs[p];
    races_close(m, RACE_WAKE_SESSION_END, pr->session_end_wait);
    pr->session_end_wait = 0;
    pr->session_end_due = false;
}

bool running_session_ended(Model *m)
{
    for (int p = 0; p < m->nprocs; p++) {
        Proc *pr = &m->procs[p];
        if (!pr->alive || pr->is_port || pr->remote)
            continue;
        pr->session_end_due = true;
        if (pr->blocked && !session_end_window(m, p, sched_block_mfa(m)))
            return false;
    }
    return true;
}

void running_end(Model *m)
{
    for (int p = 0; p < m->nprocs; p++)
        session_end_waited(m, p);
}

bool running_block(Model *m, int p)
{
    m->procs[p].blocked = true;
    if (!session_end_window(m, p, sched_block_mfa(m)))
        return false;
    tracepoint_event(m, p, "out", sched_block_mfa(m), NULL, "RUN-FLAGS RUN-BLOCK RUN-HARNESS");
    /* RUN-BLOCKED-SIGNALS: from now on until it is woken (a refusal comes again from
     * windows_after_step, which syncs the actor) */
    (void)windows_sync(m, p);
    return true;
}

void running_wake(Model *m, int p)
{
    m->procs[p].blocked = false;
    (void)windows_sync(m, p); /* RUN-BLOCKED-SIGNALS: the wake-up closes the window, never refuses */
    tracepoint_event(m, p, "in", sched_block_mfa(m), NULL, "RUN-FLAGS RUN-WAKE");
    session_end_waited(m, p);
}

bool running_timed_wait(Model *m, int p)
{
    /* RUN-TIMEOUT: the receive in tcs_puppet:act/1 sets its timer and schedules the process out
     * (beam's wait_timeout; current is NULL there, so the tracepoint names the function of the
     * instruction); the timer makes it active again, and it is scheduled back in at the same
     * place to run the timeout instruction: exactly one pair, no signal reaches it meanwhile
     * (the runner waits for the step's end and sends it nothing) */
    Term *mfa = term_tuple3(m->a, term_atom(m->a, "tcs_puppet"), term_atom(m->a, "act"), term_int(m->a, 1));
    if (!session_end_window(m, p, mfa))
        return false;
    tracepoint_event(m, p, "out", mfa, NULL, "RUN-FLAGS RUN-TIMEOUT");
    tracepoint_event(m, p, "in", mfa, NULL, "RUN-FLAGS RUN-TIMEOUT");
    session_end_waited(m, p);
    return true;
}

void running_dirty_nif(Model *m, int p, const Term *mfa)
{
    /* RUN-DIRTY-NIF: the call of a dirty NIF reschedules the process to a dirty scheduler
     * (erl_nif.c schedule_dirty_nif: out where the NIF is, in there on the dirty one, whose
     * scheduler_id is 0); the dirty scheduler then schedules it out at
     * {erts_internal,dirty_nif_finalizer,1}, and a normal one in there to return: that pair is
     * the same as the gate's own dirty NIF makes, informative (RUN-HARNESS), so not written */
    tracepoint_event(m, p, "out", mfa, NULL, "RUN-FLAGS RUN-DIRTY-NIF");
    m->on_dirty_scheduler = true;
    tracepoint_event(m, p, "in", mfa, NULL, "RUN-FLAGS RUN-DIRTY-NIF");
    m->on_dirty_scheduler = false;
}

void running_yield(Model *m, int p, const Term *mfa)
{
    /* RUN-YIELD: erlang:yield/0 is an instruction, not a BIF call (the JIT's ops.tab:
     * "call_ext u==0 u$func:erlang:yield/0 => i_yield"): it schedules the process out where it
     * is, runnable, and a scheduler takes it in again there, whether or not another process ran
     * between. It waits for nothing, so no signal is awaited there (RUN-WAKE-SESSION-END has no
     * wait to wake) */
    tracepoint_event(m, p, "out", mfa, NULL, "RUN-FLAGS RUN-YIELD");
    tracepoint_event(m, p, "in", mfa, NULL, "RUN-FLAGS RUN-YIELD");
}

void running_killed(Model *m, int p)
{
    /* RUN-KILLED: the exit signal reaches the process in the gate's dirty NIF; it is
     * scheduled in to exit, in a function that cannot be determined (seen live on OTP 25) */
    tracepoint_event(m, p, "in_exiting", term_int(m->a, 0), NULL, "RUN-FLAGS RUN-KILLED");
}

void running_exited(Model *m, int p)
{
    /* RUN-EXITED: the last function cannot be determined: 0 (seen live on OTP 25, C-62) */
    tracepoint_event(m, p, "out_exited", term_int(m->a, 0), NULL, "RUN-FLAGS RUN-EXITED");
}
