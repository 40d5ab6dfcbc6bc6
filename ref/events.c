/* events.c - what each step produces (CONFORMANCE.md section 2, "Events"). */
#include <stdio.h>
#include <string.h>

#include "dispatch.h"
#include "model.h"

/* ---- tracepoints ------------------------------------------------------------------------ */

void events_trace(Model *m, int proc, const Event *ev, const char *extra_rules)
{
    Category c;
    tag_category(ev->tag, &c);
    const Proc *p = &m->procs[proc];
    Buf body, rules;
    buf_init(&body);
    buf_init(&rules);
    buf_printf(&rules, "FALLBACK-CATEGORY FALLBACK-TRACE %s %s", extra_rules, ev->rules);
    Term *opts = opts_build(m->a, p->flags, p->ts_cleared, ev->extra, ev->ms_result, &rules);
    buf_printf(&body, "%s(", dispatch_trace(m->sc->callbacks, c));
    term_print_atom(&body, ev->tag);
    buf_printf(&body, ", <tracer>, <%s>, ", p->name);
    term_print(&body, ev->term, PRINT_CANON);
    buf_puts(&body, ", ");
    term_print(&body, opts, PRINT_CANON);
    buf_puts(&body, ")");
    if (m->sc->tracer == TRACER_ERL_MSG)
        buf_puts(&rules, " EV-EXAMPLE-TRACER");
    stream_line(m->out, stream_class(ev->tag), buf_str(&body), buf_str(&rules));
    if (m->sc->tracer == TRACER_ERL_MSG && strcmp(ev->tag, "send") == 0 && ev->extra) {
        /* EV-EXAMPLE-TRACER: trace/5 sends {trace, Tracee, Recipient} to its state */
        buf_free(&body);
        buf_printf(&body, "msg(<tracer>, {trace,<%s>,", p->name);
        term_print(&body, ev->extra, PRINT_CANON);
        buf_puts(&body, "})");
        stream_line(m->out, 'N', buf_str(&body), "EV-EXAMPLE-TRACER");
    }
    buf_free(&body);
    buf_free(&rules);
}

void events_tracepoint(Model *m, int proc, const Event *ev)
{
    if (!enabled_live(m, proc, ev->tag))
        return;
    if (enabled_consult(m, proc, ev->tag, ev->rules))
        events_trace(m, proc, ev, "ENABLED-TRACE");
}

static void simple_event(Model *m, int proc, const char *tag, const Term *term, const Term *extra,
                         const char *rules)
{
    Event ev = {tag, term, extra, NULL, rules};
    events_tracepoint(m, proc, &ev);
}

/* ---- harness calls ---------------------------------------------------------------------- */

static void ctl_line(Model *m, const Buf *call, const char *result, const char *rules)
{
    Buf body;
    buf_init(&body);
    buf_printf(&body, "ctl %s %s", buf_str(call), result);
    stream_line(m->out, 'N', buf_str(&body), rules);
    buf_free(&body);
}

static bool step_trace(Model *m, const Step *st)
{
    int p = model_proc(m, st->actor);
    Proc *pr = &m->procs[p];
    Buf call;
    buf_init(&call);
    buf_printf(&call, "erlang:trace(<%s>,%s,[", st->actor, st->on ? "true" : "false");
    FlagSet set = 0;
    for (int i = 0; i < st->nflags; i++) {
        if (i)
            buf_puts(&call, ",");
        term_print_atom(&call, flag_name(st->flags[i]));
        set |= FLAG_BIT(st->flags[i]);
    }
    buf_puts(&call, "])");
    if (!pr->alive || (set & FLAG_BIT(FL_CPU_TIMESTAMP))) {
        /* dead tracee; cpu_timestamp is only allowed with Procs == all (seen live) */
        ctl_line(m, &call, "raises error:badarg", "CTL-TRACE");
        buf_free(&call);
        return true;
    }
    FlagSet ts = FLAG_BIT(FL_TIMESTAMP) | FLAG_BIT(FL_MONOTONIC_TIMESTAMP) |
                 FLAG_BIT(FL_STRICT_MONOTONIC_TIMESTAMP);
    if (st->on) {
        Answer ans = enabled_probe(m, p); /* STATUS-PROBE, during the call */
        pr->flags |= set;
        pr->ts_cleared &= ~set;
        pr->attached = ans != ANS_REMOVE; /* STATUS-REMOVE; the call still returns 1 */
    } else {
        pr->flags &= ~set;
        pr->ts_cleared |= set & ts; /* TS-REMEMBERED */
    }
    ctl_line(m, &call, "-> 1", "CTL-TRACE");
    buf_free(&call);
    return true;
}

static int target_index(const char *fn)
{
    static const char *const fns[TARGET_FNS] = {"id", "twice", "tail"};
    for (int i = 0; i < TARGET_FNS; i++)
        if (strcmp(fns[i], fn) == 0)
            return i;
    return -1;
}

static bool step_pattern(Model *m, const Step *st)
{
    int fi = st->arity == 1 ? target_index(st->fn) : -1;
    if (fi >= 0 && !st->ms_invalid) {
        Pattern *pat = &m->pats[fi];
        pat->set = !term_is_atom(st->term, "false");
        pat->local = st->local;
        pat->ms = st->term;
    }
    Buf call;
    buf_init(&call);
    buf_puts(&call, "erlang:trace_pattern({tcs_target,");
    term_print_atom(&call, st->fn);
    buf_printf(&call, ",%lld},", st->arity);
    term_print(&call, st->term, PRINT_CANON);
    buf_printf(&call, ",[%s])", st->local ? "local" : "global");
    ctl_line(m, &call, st->ms_invalid ? "raises error:badarg" : fi >= 0 ? "-> 1" : "-> 0",
             "CTL-PATTERN EV-CALL-GLOBAL-LOCAL");
    buf_free(&call);
    return true;
}

/* ---- process steps ---------------------------------------------------------------------- */

static Term *pid(Model *m, int p) { return term_pid(m->a, m->procs[p].name); }

static void mbox_push(Model *m, Proc *p, Term *msg)
{
    if (p->mhead + p->mlen == p->mcap) {
        size_t cap = p->mcap ? p->mcap * 2 : 16;
        Term **nb = arena_alloc(m->a, cap * sizeof(Term *));
        if (p->mlen)
            memcpy(nb, p->mbox + p->mhead, p->mlen * sizeof(Term *));
        p->mbox = nb;
        p->mcap = cap;
        p->mhead = 0;
    }
    p->mbox[p->mhead + p->mlen++] = msg;
}

static bool step_send(Model *m, int p, const Step *st)
{
    int q = model_proc(m, st->other);
    if (m->procs[q].alive) {
        simple_event(m, p, "send", st->term, pid(m, q), "EV-SEND");
        simple_event(m, q, "receive", st->term, NULL, "EV-RECEIVE");
        mbox_push(m, &m->procs[q], st->term);
    } else {
        simple_event(m, p, "send_to_non_existing_process", st->term, pid(m, q), "EV-SEND-NONEXIST");
    }
    return true;
}

static bool step_recv(Model *m, int p, const Step *st)
{
    Proc *pr = &m->procs[p];
    if (pr->mlen > 0) { /* the 'receive' event happened at delivery */
        pr->mhead++;
        pr->mlen--;
        return true;
    }
    if (!st->has_timeout)
        return model_unsupported(m, st->line, st->col, "recv on an empty mailbox (it would block forever) is");
    simple_event(m, p, "receive", term_atom(m->a, "timeout"), NULL, "EV-RECEIVE-TIMEOUT");
    return true;
}

/* Calls tcs_target:fn(arg) in process p, tracing as the patterns say; returns the value. */
static Term *call_fn(Model *m, int p, const char *fn, Term *arg, bool global)
{
    int fi = target_index(fn);
    const Pattern *pat = &m->pats[fi];
    Term *args = term_list(m->a, 1, &arg);
    bool ret_trace = false;
    /* EV-CALL-GLOBAL-LOCAL: a global pattern sees only calls through the export entry */
    if (pat->set && (global || pat->local) && enabled_live(m, p, "call")) {
        const char *rules = global ? "EV-CALL" : "EV-CALL EV-CALL-GLOBAL-LOCAL";
        /* the enabled check comes before the match spec runs (erts_call_trace) */
        if (enabled_consult(m, p, "call", rules)) {
            MsOutcome o = ms_run(m->a, pat->ms, args);
            if (o.matched && !o.suppress) {
                bool arity = m->procs[p].flags & FLAG_BIT(FL_ARITY);
                Term *mfa = term_tuple3(m->a, term_atom(m->a, "tcs_target"), term_atom(m->a, fn),
                                        arity ? term_int(m->a, 1) : args);
                char r[96];
                snprintf(r, sizeof r, "%s%s", rules, o.has_message ? " EV-MS-MESSAGE" : "");
                Event ev = {"call", mfa, NULL, o.result, r};
                events_trace(m, p, &ev, "ENABLED-TRACE");
            }
            ret_trace = o.matched && o.return_trace;
        }
    }
    Term *result;
    if (strcmp(fn, "twice") == 0) {
        Term *x = call_fn(m, p, "id", arg, false);
        Term *y = call_fn(m, p, "id", arg, false);
        result = term_tuple3(m->a, x, y, NULL);
    } else if (strcmp(fn, "tail") == 0) {
        result = call_fn(m, p, "id", arg, false);
    } else {
        result = arg;
    }
    if (ret_trace && enabled_live(m, p, "return_from")) {
        /* ENABLED-RETURN-FROM (C-1): no enabled call before return_from */
        Term *mfa = term_tuple3(m->a, term_atom(m->a, "tcs_target"), term_atom(m->a, fn), term_int(m->a, 1));
        Event ev = {"return_from", mfa, result, NULL, "EV-RETURN-FROM"};
        events_trace(m, p, &ev, "ENABLED-RETURN-FROM");
    }
    return result;
}

static bool step_spawn(Model *m, int p, const Step *st)
{
    int q = model_add_proc(m, st->other);
    if (q < 0)
        return model_unsupported(m, st->line, st->other_col, "more processes than MAX_PROCS are");
    Term *a[1] = {term_atom(m->a, st->other)};
    Term *mfa = term_tuple3(m->a, term_atom(m->a, "tcs_puppet"), term_atom(m->a, "run"), term_list(m->a, 1, a));
    simple_event(m, p, "spawn", pid(m, q), mfa, "EV-SPAWN");
    return true;
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

static bool step_link(Model *m, int p, const Step *st, bool link)
{
    int q = model_proc(m, st->other);
    Proc *pp = &m->procs[p], *qp = &m->procs[q];
    if (!qp->alive)
        return model_unsupported(m, st->line, st->other_col, link ? "linking a dead process is" : "unlinking a dead process is");
    bool linked = link_pos(pp, q) >= 0;
    if (link && linked)
        return model_unsupported(m, st->line, st->col, "linking an already linked process is");
    if (!link && !linked)
        return model_unsupported(m, st->line, st->col, "unlinking a process that is not linked is");
    if (link) {
        pp->links[pp->nlinks++] = q;
        qp->links[qp->nlinks++] = p;
        simple_event(m, p, "link", pid(m, q), NULL, "EV-LINK");
        simple_event(m, q, "getting_linked", pid(m, p), NULL, "EV-LINK");
    } else {
        link_remove(pp, q);
        link_remove(qp, p);
        simple_event(m, p, "unlink", pid(m, q), NULL, "EV-LINK");
        simple_event(m, q, "getting_unlinked", pid(m, p), NULL, "EV-LINK");
    }
    return true;
}

static bool step_register(Model *m, int p, const Step *st, bool reg)
{
    Proc *pp = &m->procs[p];
    const char *name = st->term->u.name;
    if (reg) {
        if (pp->regname)
            return model_unsupported(m, st->line, st->term_col, "registering a process that already has a name is");
        for (int i = 0; i < m->nprocs; i++)
            if (m->procs[i].regname && strcmp(m->procs[i].regname, name) == 0)
                return model_unsupported(m, st->line, st->term_col, "registering a name already taken is");
        pp->regname = name;
        simple_event(m, p, "register", st->term, NULL, "EV-REGISTER");
    } else {
        if (!pp->regname || strcmp(pp->regname, name) != 0)
            return model_unsupported(m, st->line, st->term_col, "unregistering a name the process does not own is");
        pp->regname = NULL;
        simple_event(m, p, "unregister", st->term, NULL, "EV-REGISTER");
    }
    return true;
}

/* Process p terminates with reason: exit, then unregister; then each linked
 * process dies too with the same reason (puppets do not trap exits), or, when
 * the reason is normal, survives and gets unlinked from p. */
static void terminate(Model *m, int p, const Term *reason, bool by_link)
{
    Proc *pp = &m->procs[p];
    simple_event(m, p, "exit", reason, NULL, by_link ? "EV-EXIT EV-EXIT-LINKED" : "EV-EXIT");
    if (pp->regname) {
        simple_event(m, p, "unregister", term_atom(m->a, pp->regname), NULL, "EV-REGISTER EV-EXIT-UNREGISTER");
        pp->regname = NULL;
    }
    pp->alive = false;
    pp->mlen = 0;
    int links[MAX_PROCS];
    int n = pp->nlinks;
    memcpy(links, pp->links, (size_t)n * sizeof(int));
    pp->nlinks = 0;
    for (int i = 0; i < n; i++)
        link_remove(&m->procs[links[i]], p);
    for (int i = 0; i < n; i++) {
        if (!m->procs[links[i]].alive)
            continue;
        if (term_is_atom(reason, "normal"))
            simple_event(m, links[i], "getting_unlinked", pid(m, p), NULL, "EV-LINK EV-EXIT-UNLINKED");
        else
            terminate(m, links[i], reason, true);
    }
}

bool events_step(Model *m, const Step *st)
{
    if (st->kind == ST_TRACE)
        return step_trace(m, st);
    if (st->kind == ST_PATTERN)
        return step_pattern(m, st);
    int p = model_proc(m, st->actor);
    if (!m->procs[p].alive)
        return model_unsupported(m, st->line, st->actor_col, "a step by a dead process is");
    switch (st->kind) {
    case ST_SEND: return step_send(m, p, st);
    case ST_RECV: return step_recv(m, p, st);
    case ST_CALL: call_fn(m, p, st->fn, st->args->u.cons.head, true); return true;
    case ST_SPAWN: return step_spawn(m, p, st);
    case ST_LINK: return step_link(m, p, st, true);
    case ST_UNLINK: return step_link(m, p, st, false);
    case ST_REGISTER: return step_register(m, p, st, true);
    case ST_UNREGISTER: return step_register(m, p, st, false);
    case ST_EXIT: terminate(m, p, st->term, false); return true;
    default: return true;
    }
}
