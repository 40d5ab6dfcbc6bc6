/* suspend.c - the harness suspends and resumes a process (CONFORMANCE.md, "Scheduling",
 * SUSPEND-* and RUN-SUSPENDED). A process blocked in a receive is suspended without being
 * scheduled; a message that reaches it is received when it handles its signals (the harness's
 * settle asks it its message_queue_len after every step, C-491), and it runs again, to take
 * the message, only once the last suspend is lifted. */
#include "control.h"
#include "messages.h"
#include "suspend.h"

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
    if (unless && pr->suspends) { /* SUSPEND-UNLESS-SUSPENDING: the harness suspends it already */
        opts_line(m, p, st->term, "-> false", "SUSPEND-UNLESS-SUSPENDING");
        return true;
    }
    /* a process at its gate runs the gate's dirty NIF: OTP 25 and 27 raise internal_error in the
     * suspender once it leaves it, 29 keeps the suspender waiting (C-491, OTP-19799) */
    if (!pr->blocked || pr->suspended)
        return model_unsupported(m, st->line, st->actor_col,
                                 "a suspend of a process not blocked in a receive (one at the harness's gate runs "
                                 "a dirty NIF, which OTP 25 to 29 do not suspend: C-491) is");
    pr->suspends++; /* SUSPEND-PROCESS: suspended where it waits, not scheduled (RUN-SUSPENDED) */
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
    if (!pr->alive || pr->suspends == 0) { /* SUSPEND-DEAD, SUSPEND-RESUME-NOT-SUSPENDED */
        bif_line(m, "resume_process", p, false, pr->alive ? "SUSPEND-RESUME-NOT-SUSPENDED" : "SUSPEND-DEAD");
        return true;
    }
    pr->suspends--; /* SUSPEND-NESTED: it runs again at the last resume */
    bif_line(m, "resume_process", p, true, pr->suspends ? "SUSPEND-RESUME SUSPEND-NESTED" : "SUSPEND-RESUME");
    if (!pr->suspends && pr->blocked && pr->mlen > 0) /* RUN-SUSPENDED: the message it got meanwhile */
        messages_wake_blocked(m, p);
    return true;
}

bool suspend_status(Model *m, const Step *st)
{
    int p = model_proc(m, st->actor);
    const Proc *pr = &m->procs[p];
    /* a process at its gate runs a dirty NIF: its status is running, not where it waits (C-491) */
    if (pr->alive && (!pr->blocked || pr->suspended))
        return model_unsupported(m, st->line, st->actor_col,
                                 "a status of a process not blocked in a receive (at the harness's gate it runs a "
                                 "dirty NIF: C-491) is");
    Buf call;
    buf_init(&call);
    buf_puts(&call, "erlang:process_info(");
    term_print(&call, model_pid(m, p), PRINT_CANON);
    buf_puts(&call, ",status)");
    const char *answer = !pr->alive     ? "-> undefined"
                         : pr->suspends ? "-> {status,suspended}"
                                        : "-> {status,waiting}";
    control_line(m, buf_str(&call), answer,
                 !pr->alive ? "SUSPEND-STATUS SUSPEND-DEAD" : pr->suspends ? "SUSPEND-STATUS SUSPEND-PROCESS"
                                                                           : "SUSPEND-STATUS RUN-BLOCK");
    buf_free(&call);
    return true;
}

/* True iff the harness holds some process suspended. */
static bool any_suspended(const Model *m)
{
    for (int p = 0; p < m->nprocs; p++)
        if (m->procs[p].alive && m->procs[p].suspends)
            return true;
    return false;
}

const char *suspend_refuses(const Model *m, const Step *st)
{
    const char *what = NULL;
    bool signal = st->kind == ST_LINK || st->kind == ST_UNLINK || st->kind == ST_MONITOR;
    if (signal && m->procs[model_proc(m, st->other)].suspends)
        what = "a signal other than a message to a process the harness holds suspended is";
    else if ((st->kind == ST_TRACE || st->kind == ST_SESSION || st->kind == ST_INFO || st->kind == ST_TRACER_EXIT ||
              st->kind == ST_TRACER_UNLOAD || st->kind == ST_TRACER_RELOAD || st->kind == ST_TRACER_RELOAD_BUSY ||
              st->kind == ST_SEQ_TRACER) &&
             any_suspended(m))
        what = "a trace, session, info or tracer step while the harness holds a process suspended is";
    return what;
}
