/* sessions.c - trace sessions (OTP 27+, module trace): creating and destroying them, their
 * handles, the calls of module trace on a session, and the order in which several sessions
 * see one event (CONFORMANCE.md section 2, "Trace sessions"). */
#include <string.h>

#include "model.h"

/* --- order ------------------------------------------------------------------------------ */

/* Sorts sessions idx[0..n) by key[session], latest (largest) first or earliest first
 * (insertion sort: n <= MAX_SESSIONS). */
static void sort_sessions(int *idx, const unsigned *key, int n, bool latest_first)
{
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && (latest_first ? key[idx[j]] > key[idx[j - 1]] : key[idx[j]] < key[idx[j - 1]]); j--) {
            int t = idx[j];
            idx[j] = idx[j - 1];
            idx[j - 1] = t;
        }
}

static bool attached(const TraceState *ts) { return ts->attached && ts->flags != 0; }

int sessions_by_attach(const Model *m, int proc, int out[MAX_SESSIONS])
{
    unsigned key[MAX_SESSIONS] = {0};
    int n = 0;
    for (int s = 0; s < m->nsessions; s++) {
        const TraceState *ts = &m->procs[proc].trace[s];
        key[s] = ts->since;
        if (attached(ts))
            out[n++] = s;
    }
    sort_sessions(out, key, n, true);
    return n;
}

int sessions_by_pattern(const Model *m, int fi, bool global, int out[MAX_SESSIONS])
{
    unsigned key[MAX_SESSIONS] = {0};
    int n = 0;
    for (int pass = global ? 0 : 1; pass < 2; pass++) { /* global breakpoints, then local */
        int first = n;
        for (int s = 0; s < m->nsessions; s++) {
            const Pattern *pat = &m->sessions[s].pats[fi];
            key[s] = pat->since;
            if (pat->set && pat->local == (pass == 1))
                out[n++] = s;
        }
        sort_sessions(out + first, key, n - first, true);
    }
    return n;
}

void sessions_attach(Model *m, int s, int proc)
{
    TraceState *ts = &m->procs[proc].trace[s];
    if (!attached(ts))
        ts->since = ++m->clock;
    ts->attached = true;
}

void sessions_set_pattern(Model *m, Pattern *pat, const Term *ms, bool local)
{
    if (term_is_atom(ms, "false")) {
        pat->set = false;
        return;
    }
    if (!pat->set || pat->local != local)
        pat->since = ++m->clock;
    pat->set = true;
    pat->local = local;
    pat->ms = ms;
}

/* --- what tracers see -------------------------------------------------------------------- */

const char *sessions_rules(Model *m, int s, int nsessions, const char *ev_rules, const char *order_rule)
{
    if (m->nsessions == 1)
        return ev_rules;
    Buf b;
    buf_init(&b);
    buf_printf(&b, "%s %s", ev_rules, s == LEGACY_SESSION ? "SESSION-LEGACY" : "SESSION-ISOLATION");
    if (nsessions > 1)
        buf_printf(&b, " %s", order_rule);
    const char *r = arena_strndup(m->a, buf_str(&b), b.len);
    buf_free(&b);
    return r;
}

bool sessions_event_pattern(Model *m, int s, const Event *ev, const Term **ms_result)
{
    const Session *ses = &m->sessions[s];
    bool send = strcmp(ev->tag, "send") == 0 || strcmp(ev->tag, "send_to_non_existing_process") == 0;
    const Term *ms = send ? ses->send_ms : strcmp(ev->tag, "receive") == 0 ? ses->recv_ms : NULL;
    if (!ms)
        return true;
    if (term_is_atom(ms, "false"))
        return false;
    Term *args;
    if (send) { /* [Receiver, Msg] */
        Term *el[2] = {(Term *)ev->extra, (Term *)ev->term};
        args = term_list(m->a, 2, el);
    } else { /* [Node, Sender, Msg] */
        Term *el[3] = {term_atom(m->a, "nonode@nohost"),
                       ev->sender ? (Term *)ev->sender : term_atom(m->a, "undefined"), (Term *)ev->term};
        args = term_list(m->a, 3, el);
    }
    MsOutcome o = ms_run(m->a, ms, args);
    if (!o.matched || o.suppress)
        return false;
    *ms_result = o.result;
    return true;
}

void sessions_trace_message(Model *m, int s, int proc, const Event *ev, const char *extra_rules)
{
    Term *el[6];
    size_t n = 0;
    el[n++] = term_atom(m->a, "trace");
    el[n++] = model_pid(m, proc);
    el[n++] = term_atom(m->a, ev->tag);
    el[n++] = (Term *)ev->term;
    if (ev->extra)
        el[n++] = (Term *)ev->extra;
    if (ev->ms_result) /* a {message,X} result is one more element */
        el[n++] = (Term *)ev->ms_result;
    Buf body, rules;
    buf_init(&body);
    buf_init(&rules);
    buf_printf(&body, "msg(<%s>, ", m->sessions[s].state);
    term_print(&body, term_tuple(m->a, n, el), PRINT_CANON);
    buf_puts(&body, ")");
    buf_printf(&rules, "SESSION-PROCESS-TRACER %s %s", extra_rules, ev->rules);
    stream_line(m->out, 'N', buf_str(&body), buf_str(&rules));
    buf_free(&body);
    buf_free(&rules);
}

/* --- handles ------------------------------------------------------------------------------ */

/* The session a step's handle names (0 for weak(legacy)). */
static int step_session(const Step *st) { return st->session == SESSION_LEGACY ? LEGACY_SESSION : st->session + 1; }

/* The handle as printed: {_Ref,{sa,_Id}}, its weak part {sa,_Id}, or {legacy,default}. */
static Term *handle_term(Model *m, int s, bool weak)
{
    if (s == LEGACY_SESSION)
        return term_tuple3(m->a, term_atom(m->a, "legacy"), term_atom(m->a, "default"), NULL);
    Term *w = term_tuple3(m->a, term_atom(m->a, m->sessions[s].state), term_placeholder(m->a, "_Id"), NULL);
    return weak ? w : term_tuple3(m->a, term_placeholder(m->a, "_Ref"), w, NULL);
}

/* The Tracer of session_create/3 and of trace:info(_, Pid, tracer). */
static Term *tracer_term(Model *m, int s)
{
    const Session *ses = &m->sessions[s];
    Term *state = term_pid(m->a, ses->state);
    if (ses->tracer->kind == TRACER_PROCESS)
        return state;
    const char *mod = ses->tracer->kind == TRACER_RECORDER ? "recorder" : "erl_msg_tracer";
    return term_tuple3(m->a, term_atom(m->a, mod), state, NULL);
}

/* A call of module trace: "trace:FN(" then the handle; the caller adds the other arguments. */
static void call_head(Model *m, Buf *call, const char *fn, const Step *st)
{
    buf_printf(call, "trace:%s(", fn);
    term_print(call, handle_term(m, step_session(st), st->weak), PRINT_CANON);
}

static void put_arg(Buf *call, const Term *t)
{
    buf_puts(call, ",");
    term_print(call, t, PRINT_CANON);
}

static void ctl_term(Model *m, Buf *call, const Term *result, const char *rules)
{
    Buf r;
    buf_init(&r);
    buf_puts(&r, "-> ");
    term_print(&r, result, PRINT_CANON);
    control_line(m, buf_str(call), buf_str(&r), rules);
    buf_free(&r);
}

/* Why a handle cannot be used, as a rule ID; NULL if it can. */
static const char *handle_refused(const Model *m, const Step *st)
{
    if (st->session == SESSION_LEGACY)
        return "SESSION-LEGACY-WEAK";
    if (m->sessions[step_session(st)].life != LIFE_ALIVE)
        return "SESSION-DEAD-HANDLE";
    return NULL;
}

/* The rule of a call that a handle allows, with SESSION-WEAK when it is a weak one. */
static const char *with_weak(const Step *st, const char *rule, const char *weak_rule)
{
    return st->weak ? weak_rule : rule;
}

/* Everything session s set is gone: flags, tracers, patterns (SESSION-DESTROY). */
static void destroy(Model *m, int s)
{
    Session *ses = &m->sessions[s];
    ses->life = LIFE_DESTROYED;
    memset(ses->pats, 0, sizeof ses->pats);
    ses->send_ms = ses->recv_ms = NULL;
    for (int p = 0; p < m->nprocs; p++)
        memset(&m->procs[p].trace[s], 0, sizeof(TraceState));
}

/* --- the steps ------------------------------------------------------------------------------ */

static bool create(Model *m, const Step *st)
{
    int s = step_session(st);
    Session *ses = &m->sessions[s];
    Buf call;
    buf_init(&call);
    buf_puts(&call, "trace:session_create(");
    term_print_atom(&call, ses->state);
    put_arg(&call, tracer_term(m, s));
    put_arg(&call, st->opts);
    buf_puts(&call, ")");
    if (st->opts->kind != TK_NIL) {
        control_line(m, buf_str(&call), "raises error:badarg", "SESSION-CREATE-OPTS");
    } else {
        ses->life = LIFE_ALIVE;
        ses->strong = true;
        ses->since = ++m->clock;
        ctl_term(m, &call, handle_term(m, s, false), "SESSION-CREATE");
    }
    buf_free(&call);
    return true;
}

static bool destroy_step(Model *m, const Step *st)
{
    int s = step_session(st);
    Buf call;
    buf_init(&call);
    call_head(m, &call, "session_destroy", st);
    buf_puts(&call, ")");
    /* a weak handle destroys a live session, but a destroyed one refuses it rather than
     * answering false (SESSION-DESTROY-WEAK) */
    const char *refused = st->weak ? handle_refused(m, st) : NULL;
    if (refused) {
        control_line(m, buf_str(&call), "raises error:badarg",
                     st->session == SESSION_LEGACY ? refused : "SESSION-DESTROY-WEAK SESSION-DEAD-HANDLE");
    } else {
        bool was_alive = m->sessions[s].life == LIFE_ALIVE;
        if (was_alive)
            destroy(m, s);
        control_line(m, buf_str(&call), was_alive ? "-> true" : "-> false",
                     with_weak(st, "SESSION-DESTROY", "SESSION-DESTROY SESSION-WEAK"));
    }
    buf_free(&call);
    return true;
}

static bool drop(Model *m, const Step *st)
{
    int s = step_session(st);
    Session *ses = &m->sessions[s];
    ses->strong = false; /* the holder forgets its handle; garbage collection ends the session */
    if (ses->life == LIFE_ALIVE)
        destroy(m, s);
    control_line(m, "erlang:garbage_collect()", "-> true", "SESSION-GC");
    return true;
}

static bool process_step(Model *m, const Step *st)
{
    int s = step_session(st);
    int p = model_proc(m, st->actor);
    Buf call;
    buf_init(&call);
    call_head(m, &call, "process", st);
    buf_printf(&call, ",<%s>,%s", st->actor, st->on ? "true" : "false");
    put_arg(&call, st->opts);
    buf_puts(&call, ")");
    FlagSet set = 0;
    for (int i = 0; i < st->nflags; i++)
        set |= FLAG_BIT(st->flags[i]);
    bool refused_option = false;
    for (const Term *o = st->opts; o->kind == TK_CONS; o = o->u.cons.tail)
        refused_option |= o->u.cons.head->kind == TK_TUPLE;
    const char *refused = handle_refused(m, st);
    if (!refused && refused_option)
        refused = "SESSION-REFUSED-OPTS";
    if (!refused && (!m->procs[p].alive || (set & FLAG_BIT(FL_CPU_TIMESTAMP))))
        refused = "SESSION-PROCESS";
    if (refused) {
        control_line(m, buf_str(&call), "raises error:badarg", refused);
        buf_free(&call);
        return true;
    }
    const Session *ses = &m->sessions[s];
    FlagSet unmodelled = FLAG_BIT(FL_TIMESTAMP) | FLAG_BIT(FL_MONOTONIC_TIMESTAMP) |
                         FLAG_BIT(FL_STRICT_MONOTONIC_TIMESTAMP) | FLAG_BIT(FL_SCHEDULER_ID);
    if (ses->tracer->kind == TRACER_PROCESS && st->on && (set & unmodelled)) {
        buf_free(&call);
        return model_unsupported(m, st->line, st->col,
                                 "time stamps and scheduler ids in a process tracer's messages are");
    }
    TraceState *ts = &m->procs[p].trace[s];
    if (st->on) {
        Answer ans = ses->tracer->kind == TRACER_PROCESS ? ANS_TRACE : enabled_probe(m, s, p);
        ts->flags |= set;
        ts->ts_cleared &= ~set;
        if (ans != ANS_REMOVE) /* STATUS-REMOVE */
            sessions_attach(m, s, p);
    } else {
        FlagSet stamps = FLAG_BIT(FL_TIMESTAMP) | FLAG_BIT(FL_MONOTONIC_TIMESTAMP) |
                         FLAG_BIT(FL_STRICT_MONOTONIC_TIMESTAMP);
        ts->flags &= ~set;
        ts->ts_cleared |= set & stamps; /* TS-REMEMBERED */
        if (ts->flags == 0)
            ts->attached = false; /* no flags left: the tracer goes (SESSION-ORDER-PROCESS) */
    }
    control_line(m, buf_str(&call), "-> 1", with_weak(st, "SESSION-PROCESS", "SESSION-PROCESS SESSION-WEAK"));
    buf_free(&call);
    return true;
}

/* global or local from a trace:function/4 flag list; false (badarg) for anything else the
 * model knows; *unmodelled for the call_* and meta kinds. */
static bool pattern_kind(const Term *flags, bool *local, bool *refused_option, bool *unmodelled)
{
    int global = 0, loc = 0;
    *refused_option = *unmodelled = false;
    for (const Term *f = flags; f->kind == TK_CONS; f = f->u.cons.tail) {
        const Term *x = f->u.cons.head;
        if (x->kind == TK_TUPLE)
            *refused_option = true;
        else if (term_is_atom(x, "global"))
            global++;
        else if (term_is_atom(x, "local"))
            loc++;
        else if (term_is_atom(x, "meta") || term_is_atom(x, "call_count") || term_is_atom(x, "call_time") ||
                 term_is_atom(x, "call_memory"))
            *unmodelled = true;
        else
            return false;
    }
    *local = loc > 0;
    return !*refused_option && global + loc <= 1;
}

static bool function_step(Model *m, const Step *st)
{
    int s = step_session(st);
    Buf call;
    buf_init(&call);
    call_head(m, &call, "function", st);
    buf_puts(&call, ",{tcs_target,");
    term_print_atom(&call, st->fn);
    buf_printf(&call, ",%lld}", st->arity);
    put_arg(&call, st->term);
    put_arg(&call, st->opts);
    buf_puts(&call, ")");
    bool local = false, refused_option, unmodelled;
    bool valid = pattern_kind(st->opts, &local, &refused_option, &unmodelled);
    const char *refused = handle_refused(m, st);
    if (!refused && refused_option)
        refused = "SESSION-REFUSED-OPTS";
    if (!refused && unmodelled) {
        buf_free(&call);
        return model_unsupported(m, st->line, st->col, "meta, call_count, call_time and call_memory patterns are");
    }
    if (!refused && (!valid || st->ms_invalid))
        refused = "SESSION-FUNCTION CTL-PATTERN";
    if (refused) {
        control_line(m, buf_str(&call), "raises error:badarg", refused);
        buf_free(&call);
        return true;
    }
    int fi = st->arity == 1 ? calls_target_index(st->fn) : -1;
    if (fi >= 0)
        sessions_set_pattern(m, &m->sessions[s].pats[fi], st->term, local);
    control_line(m, buf_str(&call), fi >= 0 ? "-> 1" : "-> 0",
                 with_weak(st, "SESSION-FUNCTION CTL-PATTERN", "SESSION-FUNCTION CTL-PATTERN SESSION-WEAK"));
    buf_free(&call);
    return true;
}

/* trace:send/3 or trace:recv/3. */
static bool message_pattern_step(Model *m, const Step *st)
{
    bool send = st->sop == SO_SEND;
    const char *rule = send ? "SESSION-SEND-PATTERN" : "SESSION-RECV-PATTERN";
    Buf call;
    buf_init(&call);
    call_head(m, &call, send ? "send" : "recv", st);
    put_arg(&call, st->term);
    buf_puts(&call, ",[])");
    const char *refused = handle_refused(m, st);
    if (!refused && st->ms_invalid)
        refused = rule;
    if (refused) {
        control_line(m, buf_str(&call), "raises error:badarg", refused);
    } else {
        Session *ses = &m->sessions[step_session(st)];
        /* true and [] (the same: 003, send/3) leave no match spec */
        const Term *ms = term_is_atom(st->term, "true") || st->term->kind == TK_NIL ? NULL : st->term;
        *(send ? &ses->send_ms : &ses->recv_ms) = ms;
        control_line(m, buf_str(&call), "-> 1", rule);
    }
    buf_free(&call);
    return true;
}

/* {Item, Value} */
static Term *item(Model *m, const char *name, Term *value)
{
    return term_tuple3(m->a, term_atom(m->a, name), value, NULL);
}

/* trace:info(S, Pid, Item): flags in the order OTP lists them, the tracer, else badarg. */
static Term *info_process(Model *m, int s, const Term *what, const char *it)
{
    int p = what->kind == TK_PID ? model_proc(m, what->u.name) : -1;
    if (p >= 0 && !m->procs[p].alive)
        return term_atom(m->a, "undefined");
    const TraceState *ts = p >= 0 ? &m->procs[p].trace[s] : NULL;
    bool on = ts && attached(ts);
    if (strcmp(it, "tracer") == 0)
        return item(m, "tracer", on ? tracer_term(m, s) : term_nil(m->a));
    if (strcmp(it, "flags") != 0)
        return NULL;
    static const Flag order[] = {FL_SCHEDULER_ID, FL_ARITY, FL_PROCS, FL_CALL, FL_RECEIVE, FL_SEND,
                                 FL_MONOTONIC_TIMESTAMP, FL_STRICT_MONOTONIC_TIMESTAMP, FL_TIMESTAMP};
    Term *el[FL_COUNT];
    size_t n = 0;
    for (size_t i = 0; on && i < sizeof order / sizeof order[0]; i++)
        if (ts->flags & FLAG_BIT(order[i]))
            el[n++] = term_atom(m->a, flag_name(order[i]));
    return item(m, "flags", term_list(m->a, n, el));
}

/* trace:info(S, {tcs_target,F,A}, Item). */
static Term *info_function(Model *m, int s, const Term *what, const char *it)
{
    static const char *const items[] = {"traced", "match_spec", "meta", "meta_match_spec",
                                        "call_memory", "call_time", "call_count"};
    const Term *fn = what->u.tuple.el[1], *ar = what->u.tuple.el[2];
    int fi = fn->kind == TK_ATOM && ar->kind == TK_INT && ar->u.i == 1 ? calls_target_index(fn->u.name) : -1;
    bool is_all = strcmp(it, "all") == 0, known_item = is_all;
    for (size_t i = 0; i < sizeof items / sizeof items[0]; i++)
        known_item |= strcmp(it, items[i]) == 0;
    if (!known_item)
        return NULL;
    if (fi < 0)
        return item(m, it, term_atom(m->a, "undefined"));
    const Pattern *pat = &m->sessions[s].pats[fi];
    Term *values[7];
    values[0] = term_atom(m->a, !pat->set ? "false" : pat->local ? "local" : "global");
    values[1] = !pat->set ? term_atom(m->a, "false")
                          : term_is_atom(pat->ms, "true") ? term_nil(m->a) : (Term *)pat->ms;
    for (int i = 2; i < 7; i++)
        values[i] = term_atom(m->a, "false");
    if (is_all) {
        Term *el[7];
        for (int i = 0; i < 7; i++)
            el[i] = item(m, items[i], values[i]);
        return item(m, "all", pat->set ? term_list(m->a, 7, el) : term_atom(m->a, "false"));
    }
    for (int i = 0;; i++)
        if (strcmp(it, items[i]) == 0)
            return item(m, it, values[i]);
}

static bool info_step(Model *m, const Step *st)
{
    int s = step_session(st);
    const Term *what = st->term;
    const char *it = st->opts->u.name;
    Buf call;
    buf_init(&call);
    call_head(m, &call, "info", st);
    put_arg(&call, what);
    put_arg(&call, st->opts);
    buf_puts(&call, ")");
    const char *refused = handle_refused(m, st);
    if (refused) {
        control_line(m, buf_str(&call), "raises error:badarg", refused);
        buf_free(&call);
        return true;
    }
    Term *result;
    if (what->kind == TK_PID || term_is_atom(what, "new")) {
        result = info_process(m, s, what, it);
    } else if (term_is_atom(what, "send") || term_is_atom(what, "receive")) {
        const Term *ms = term_is_atom(what, "send") ? m->sessions[s].send_ms : m->sessions[s].recv_ms;
        result = strcmp(it, "match_spec") == 0 ? item(m, "match_spec", ms ? (Term *)ms : term_atom(m->a, "true")) : NULL;
    } else if (what->kind == TK_TUPLE && what->u.tuple.n == 3 && term_is_atom(what->u.tuple.el[0], "tcs_target")) {
        result = info_function(m, s, what, it);
    } else {
        buf_free(&call);
        return model_unsupported(m, st->line, st->term_col, "this trace:info/3 argument is");
    }
    if (result)
        ctl_term(m, &call, result, with_weak(st, "SESSION-INFO", "SESSION-INFO SESSION-WEAK"));
    else
        control_line(m, buf_str(&call), "raises error:badarg", "SESSION-INFO");
    buf_free(&call);
    return true;
}

/* The weak handles of the sessions, as a list term. */
static Term *weak_list(Model *m, const int *sessions, int n)
{
    Term *el[MAX_SESSIONS];
    for (int i = 0; i < n; i++)
        el[i] = handle_term(m, sessions[i], true);
    return term_list(m->a, (size_t)n, el);
}

/* trace:session_info(What). */
static bool session_info_step(Model *m, const Step *st)
{
    const Term *what = st->term;
    Buf call;
    buf_init(&call);
    buf_puts(&call, "trace:session_info(");
    term_print(&call, what, PRINT_CANON);
    buf_puts(&call, ")");
    int list[MAX_SESSIONS], n = 0;
    Term *result = NULL;
    if (what->kind == TK_PID) {
        int p = model_proc(m, what->u.name);
        if (p >= 0 && !m->procs[p].alive) {
            result = term_atom(m->a, "undefined");
        } else if (p >= 0) { /* the sessions attached to it, first attached first */
            int by[MAX_SESSIONS];
            int k = sessions_by_attach(m, p, by);
            for (int i = k - 1; i >= 0; i--)
                list[n++] = by[i];
        }
    } else if (term_is_atom(what, "all") || term_is_atom(what, "send") || term_is_atom(what, "receive")) {
        /* the live sessions in creation order, the legacy one last; for send and 'receive'
         * those whose pattern is not false */
        int order[MAX_SESSIONS];
        unsigned key[MAX_SESSIONS] = {0};
        int k = 0;
        for (int s = 1; s < m->nsessions; s++) {
            key[s] = m->sessions[s].since;
            if (m->sessions[s].life == LIFE_ALIVE)
                order[k++] = s;
        }
        sort_sessions(order, key, k, false);
        order[k++] = LEGACY_SESSION;
        for (int i = 0; i < k; i++) {
            const Session *ses = &m->sessions[order[i]];
            const Term *ms = term_is_atom(what, "send") ? ses->send_ms : term_is_atom(what, "receive") ? ses->recv_ms : NULL;
            if (!ms || !term_is_atom(ms, "false"))
                list[n++] = order[i];
        }
    } else if (term_is_atom(what, "new")) {
        n = 0;
    } else if (what->kind == TK_TUPLE && what->u.tuple.n == 3 && term_is_atom(what->u.tuple.el[0], "tcs_target") &&
               what->u.tuple.el[1]->kind == TK_ATOM && what->u.tuple.el[2]->kind == TK_INT) {
        int fi = what->u.tuple.el[2]->u.i == 1 ? calls_target_index(what->u.tuple.el[1]->u.name) : -1;
        if (fi < 0) {
            result = term_atom(m->a, "undefined");
        } else { /* the sessions with a pattern on it, first set first */
            unsigned key[MAX_SESSIONS] = {0};
            for (int s = 0; s < m->nsessions; s++) {
                key[s] = m->sessions[s].pats[fi].since;
                if (m->sessions[s].pats[fi].set)
                    list[n++] = s;
            }
            sort_sessions(list, key, n, false);
        }
    } else {
        buf_free(&call);
        return model_unsupported(m, st->line, st->term_col, "this trace:session_info/1 argument is");
    }
    ctl_term(m, &call, result ? result : weak_list(m, list, n), "SESSION-INFO-SESSIONS");
    buf_free(&call);
    return true;
}

/* trace:delivered(S, Tracee), then the message it promises.  The session is not looked at
 * (SESSION-DELIVERED, C-23): any handle works, even a destroyed session's or {legacy,default}. */
static bool delivered_step(Model *m, const Step *st)
{
    Buf call;
    buf_init(&call);
    call_head(m, &call, "delivered", st);
    put_arg(&call, st->term);
    buf_puts(&call, ")");
    control_line(m, buf_str(&call), "-> _Ref", "SESSION-DELIVERED");
    Term *el[3] = {term_atom(m->a, "trace_delivered"), st->term, term_placeholder(m->a, "_Ref")};
    buf_free(&call);
    buf_puts(&call, "receive()");
    ctl_term(m, &call, term_tuple(m->a, 3, el), "SESSION-DELIVERED");
    buf_free(&call);
    return true;
}

bool sessions_step(Model *m, const Step *st)
{
    switch (st->sop) {
    case SO_CREATE: return create(m, st);
    case SO_DESTROY: return destroy_step(m, st);
    case SO_DROP: return drop(m, st);
    case SO_PROCESS: return process_step(m, st);
    case SO_FUNCTION: return function_step(m, st);
    case SO_SEND:
    case SO_RECV: return message_pattern_step(m, st);
    case SO_INFO: return info_step(m, st);
    case SO_SESSION_INFO: return session_info_step(m, st);
    default: return delivered_step(m, st);
    }
}
