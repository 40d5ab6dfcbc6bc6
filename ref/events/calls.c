/* calls.c - calls of the fixture modules as the trace patterns of each session see them
 * (CONFORMANCE.md section 2, "Call tracing"): call, return_to, return_from, exception_from,
 * and the meta tracer.
 *
 * The model keeps the stack of the calling process the way 001 ("Call, return, and
 * exception tracing") describes BEAM's: a continuation per non-tail call, and the trace
 * frames a breakpoint pushes for {return_trace}/{exception_trace} and for return_to. A
 * function's return runs the trace frames down to the continuation; an exception drops them,
 * reporting exception_from for {exception_trace} frames and one return_to where it is caught. */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "bigint.h"
#include "calls.h"
#include "codeload.h"
#include "control.h"
#include "counters.h"
#include "enabled.h"
#include "libcalls.h"
#include "longsched.h"
#include "messages.h"
#include "phash2.h"
#include "release.h"
#include "running.h"
#include "msflags.h"
#include "order.h"
#include "seqtrace.h"
#include "tracepoint.h"

typedef enum { FR_CONT, FR_RETURN_TO, FR_RETURN } FrameKind;

/* One entry of the modelled stack. */
typedef struct {
    FrameKind kind;
    const Term *mfa;  /* FR_CONT: the function execution resumes in; FR_RETURN: the traced one */
    bool catches;     /* FR_CONT: the call sits in a try that catches errors */
    int line;         /* FR_CONT: the call's line in the fixture's source; 0: the harness's code */
    int session;      /* FR_RETURN_TO, FR_RETURN */
    const char *session_rules; /* FR_RETURN: the session rules of its call (SESSION-ORDER-CALL) */
    bool meta;        /* FR_RETURN: pushed for the meta tracer */
    const Term *meta_state; /* FR_RETURN, meta: that meta tracer's state (NULL: <meta>) */
    bool exception;   /* FR_RETURN: {exception_trace} (else {return_trace}) */
    bool chain;       /* FR_RETURN_TO: a tail call relied on it instead of pushing its own */
} Frame;

/* One `call` step being evaluated by process p. */
typedef struct {
    Model *m;
    int p;
    Frame *frames;    /* in the arena, grown by doubling: each call pushes up to three trace
                       * frames per session (return_to, return_trace, meta return_trace) */
    int nframes;
    size_t frames_cap;
    const Step *st;   /* the step: where an error points */
} Run;

/* What a call gives: a value, or an exception error:Reason on its way to a catch. */
typedef struct {
    bool raised;
    bool failed;          /* the model cannot go on: err is set, nothing else counts */
    Term *value;          /* the value, or the exception's reason */
    bool *return_to;      /* while raised: the sessions whose return_to frames it has passed,
                           * indexed by session (in the arena), or NULL: none yet */
} Result;

static Term *fn_mfa(Model *m, int fn, Term *args_or_arity)
{
    const FixtureFnInfo *f = fixture_fn_info(fn);
    return term_tuple3(m->a, term_atom(m->a, fixture_module_name(f->module)), term_atom(m->a, f->name),
                       args_or_arity ? args_or_arity : term_int(m->a, f->arity));
}

static void push(Run *r, Frame f)
{
    r->frames = arena_grow(r->m->a, r->frames, (size_t)r->nframes, &r->frames_cap, sizeof *r->frames);
    r->frames[r->nframes++] = f;
}

/* Where the running code returns to: the nearest continuation (MS-CALLER; 001: "we can only
 * say where we're going to return to"). */
static const Frame *continuation_frame(const Run *r, int from)
{
    int i = from;
    while (r->frames[i].kind != FR_CONT)
        i--;
    return &r->frames[i];
}

/* The function the running code returns to. */
static const Term *continuation(const Run *r, int from)
{
    return continuation_frame(r, from)->mfa;
}

/* The return_to frame of session s among the trace frames above the nearest continuation,
 * or NULL: a tail call adds none when there is one (CALL-RETURN-TO-TAIL). */
static Frame *chain_return_to(Run *r, int s)
{
    for (int i = r->nframes - 1; r->frames[i].kind != FR_CONT; i--)
        if (r->frames[i].kind == FR_RETURN_TO && r->frames[i].session == s)
            return &r->frames[i];
    return NULL;
}

/* ---- the tracepoints of a call ----------------------------------------------------------- */

/* The meta tracer: the session's tracer module with its meta state (decl holds the copy of
 * the module's declaration): <meta> in the legacy session (or the state a {meta, recorder,
 * State} option gave, TRACER-OPTION), the session's own tracer (and state) in a trace session
 * (SESSION-META). OTP 25 calls enabled/3 and trace/5 for it even when the module has
 * enabled_call/3 (CALL-META-ENABLED, C-9). */
static Tracer meta_tracer(const Model *m, int s, TracerDecl *decl, const Term *meta_state)
{
    *decl = *m->sessions[s].tracer;
    decl->callbacks = 0;
    /* a tracer process: {meta, <tracer>} for `meta`; {meta, <meta>} names the harness's second
     * state process, which no step ends (CALL-META-PROCESS) */
    if (s != LEGACY_SESSION || (decl->kind == TRACER_PROCESS && !meta_state))
        return (Tracer){decl, m->sessions[s].state_term, m->sessions[s].state_dead};
    return (Tracer){decl, meta_state ? meta_state : term_pid(m->a, "meta"), false};
}

/* Where the reports of session s's recorder go, by the name the stream gives it, or NULL: the
 * harness loads each recorder variant (one module per callback set) once, the legacy tracer's
 * with its collector in load_info, where every report goes and whose own lines it leaves out;
 * a session's other variant reports to the state process of its tracer state, <s> (tcs_recorder.c
 * report, tcs_sessions.erl load_tracers). A dead state process takes nothing. */
static const char *report_receiver(const Model *m, int s)
{
    const Session *ses = &m->sessions[s];
    const TracerDecl *legacy = m->sessions[LEGACY_SESSION].tracer;
    if (s == LEGACY_SESSION || ses->state_dead || ses->tracer->kind != TRACER_RECORDER)
        return NULL;
    if (legacy->kind == TRACER_RECORDER && legacy->callbacks == ses->tracer->callbacks)
        return NULL;
    return ses->state;
}

/* A meta tracer's trace line for process p (its flags fixed to [call, timestamp], CALL-META),
 * then what the recorder's report of it does: called in p's context, it carries p's seq_trace
 * token (SEQ-TRACER-REPORT, C-65) to the process it goes to (SEQ-TRACER-REPORT-RECEIPT,
 * C-410); OTP's erl_tracer, the tracer process's module, sends without a message environment,
 * so without the token. */
static void meta_emit(Model *m, int s, Tracer t, int p, const Event *ev, const char *why)
{
    tracepoint_emit_as(m, t, FLAG_BIT(FL_CALL) | FLAG_BIT(FL_TIMESTAMP), 0, p, ev, why);
    if (t.decl->kind == TRACER_RECORDER)
        seqtrace_tracer_report(m, p, report_receiver(m, s));
}

/* Runs the match spec of a pattern of session s on the call; false with err set if the model
 * cannot. */
static bool run_ms(Run *r, int s, const Term *ms, Term *args, MsOutcome *o)
{
    MsFlagsCtx ctx;
    const Frame *back = continuation_frame(r, r->nframes - 1);
    MsCall call = {args, model_pid(r->m, r->p), back->mfa, r->m->procs[r->p].token != NULL,
                   msflags_hooks(&ctx, r->m, s, r->p), &r->m->tcw, release_has(r->m, DEV_MS_MAP_KEY_TWICE),
                   back->line, NULL};
    *o = ms_run(r->m->a, ms, &call);
    if (o->unsupported)
        return model_unsupported(r->m, r->st->line, r->st->col, o->unsupported);
    if (o->keys_collided)
        release_deviates(r->m, DEV_MS_MAP_KEY_TWICE);
    return true;
}

/* {silent,Bool} sets or clears the process's silent flag (MS-SILENT); in a process the session
 * does not trace it leaves nothing a tracer attached later gets (MS-SILENT-UNTRACED), only what
 * OTP 25 keeps of it (C-150). */
static void apply_silent(Run *r, int s, const MsOutcome *o)
{
    Proc *proc = &r->m->procs[r->p];
    if (!model_attached(&proc->trace[s])) {
        if (o->silent >= 0)
            control_decided(r->m, "MS-SILENT-UNTRACED");
        if (s == LEGACY_SESSION && o->silent >= 0)
            proc->untraced_silent = o->silent == 1;
        return;
    }
    FlagSet *flags = &proc->trace[s].flags;
    if (o->silent == 1)
        *flags |= FLAG_BIT(FL_SILENT);
    else if (o->silent == 0)
        *flags &= ~FLAG_BIT(FL_SILENT);
}

/* The call event's rules: the pattern kind and what the match spec did. */
static const char *call_rules(Run *r, const char *base, const MsOutcome *o)
{
    Buf b;
    buf_init(&b);
    buf_puts(&b, base);
    if (o->rules[0])
        buf_printf(&b, " %s", o->rules);
    if (o->message)
        buf_puts(&b, " EV-MS-MESSAGE");
    if (o->silent >= 0)
        buf_puts(&b, " MS-SILENT");
    const char *s = arena_strndup(r->m->a, buf_str(&b), b.len);
    buf_free(&b);
    return s;
}

/* The process tracer of session s, one of nsessions with a breakpoint on fn, at a call of fn:
 * enabled, match spec, call event, frames; false with err set if the model cannot run it. */
static bool process_tracepoint(Run *r, int s, int nsessions, int fn, Term *args, const Pattern *pat)
{
    Model *m = r->m;
    TraceState *ts = &m->procs[r->p].trace[s];
    if (!enabled_live(m, s, r->p, "call"))
        return true;
    const char *session = tracepoint_rules(m, s, nsessions, "", "SESSION-ORDER-CALL");
    Buf b;
    buf_init(&b);
    buf_printf(&b, "%s%s", pat->local ? "EV-CALL CALL-FLAG-AND-PATTERN EV-CALL-GLOBAL-LOCAL"
                                      : "EV-CALL CALL-FLAG-AND-PATTERN", session);
    const char *kind = arena_strndup(m->a, buf_str(&b), b.len);
    buf_free(&b);
    /* the enabled check comes before the match spec runs (erts_call_trace) */
    if (!tracepoint_accept(m, s, r->p, "call", kind))
        return true;
    MsOutcome o;
    if (!run_ms(r, s, pat->ms, args, &o))
        return false;
    apply_silent(r, s, &o);
    bool return_to = ts->flags & FLAG_BIT(FL_RETURN_TO);
    if (ts->flags & FLAG_BIT(FL_SILENT)) { /* CALL-SILENT: no event, and no trace frames */
        control_decided(m, "CALL-SILENT");
        return true;
    }
    bool message = o.matched && !ms_message_false(&o); /* MS-CLAUSE-ORDER: no clause matched */
    if (return_to && !message) /* no call event sent: no return_to either */
        control_decided(m, "CALL-RETURN-TO-MESSAGE");
    if (return_to && message && !pat->local) /* a global pattern gives no return_to */
        control_decided(m, "CALL-RETURN-TO-LOCAL-ONLY");
    if (!o.matched)
        return true;
    if (message) {
        Term *what = ts->flags & FLAG_BIT(FL_ARITY) ? NULL : args;
        Event ev = {"call", fn_mfa(m, fn, what), NULL, ms_message_result(&o), call_rules(r, kind, &o)};
        tracepoint_emit(m, s, r->p, &ev, "ENABLED-TRACE");
    }
    /* CALL-RETURN-TO: a local pattern whose call event was sent, with flag return_to */
    if (message && pat->local && return_to) {
        Frame *chain = chain_return_to(r, s);
        if (chain)
            chain->chain = true;
        else
            push(r, (Frame){.kind = FR_RETURN_TO, .session = s});
    }
    if (o.return_trace || o.exception_trace)
        push(r, (Frame){.kind = FR_RETURN, .mfa = fn_mfa(m, fn, NULL), .session = s,
                        .session_rules = session, .exception = o.exception_trace});
    return true;
}

/* The meta tracer of session s at a call of fn: it sees every process and ignores the
 * process's trace flags; its flags are fixed to [call, timestamp] (CALL-META); false with err
 * set if the model cannot run it. */
static bool meta_tracepoint(Run *r, int s, int fn, Term *args, Pattern *pat)
{
    Model *m = r->m;
    TracerDecl decl;
    Tracer t = meta_tracer(m, s, &decl, pat->meta_state);
    if (decl.kind == TRACER_PROCESS && t.state_dead) { /* STATUS-DEAD-PROCESS: the breakpoint stays */
        pat->meta_nil = true;
        return true;
    }
    if (decl.kind == TRACER_RECORDER && !seqtrace_report_printable(m, r->p))
        return model_unsupported(m, r->st->line, r->st->col,
                                 "a meta-traced call by a process whose seq_trace token has the send or "
                                 "'receive' flag (the recorder's report, or its receipt, would be traced, "
                                 "C-65) is");
    /* CALL-META-REMOVE: remove ends meta tracing of the function; discard counts as trace */
    if (enabled_probe_as(m, t, r->p, "CALL-META-REMOVE") == ANS_REMOVE) {
        pat->meta = false;
        return true;
    }
    /* an answer remove to enabled(call) is a discard: the meta tracer stays */
    if (enabled_ask(m, t, r->p, "call", "CALL-META CALL-META-ENABLED", "ENABLED-DISCARD") != ANS_TRACE)
        return true;
    MsOutcome o;
    if (!run_ms(r, s, pat->meta_ms, args, &o))
        return false;
    apply_silent(r, s, &o);
    if (!o.matched)
        return true;
    if (!ms_message_false(&o)) {
        Event ev = {"call", fn_mfa(m, fn, args), NULL, ms_message_result(&o), call_rules(r, s == LEGACY_SESSION ? "CALL-META CALL-META-ORDER" : "CALL-META CALL-META-ORDER SESSION-META", &o)};
        meta_emit(m, s, t, r->p, &ev, "ENABLED-TRACE");
    }
    if (o.return_trace || o.exception_trace)
        push(r, (Frame){.kind = FR_RETURN, .mfa = fn_mfa(m, fn, NULL), .session = s, .meta = true,
                        .meta_state = pat->meta_state, .exception = o.exception_trace});
    return true;
}

/* The breakpoints of fn: the counters of every session (CALL-COUNTERS-ANY-CALL), then session
 * by session in SESSION-ORDER-CALL order each session's process tracer (a global pattern only
 * for calls through the export entry), then its meta tracer (CALL-META-ORDER); false with err
 * set if the model cannot run one. */
static bool breakpoint(Run *r, int fn, Term *args, bool global)
{
    /* OTP 27 calls a BIF called directly (a remote call compiled in tcs_direct, not apply/3)
     * without its export entry unless the entry is marked is_bif_traced, a mark any session's
     * pattern step sets or clears for all (C-446, OTP-19840) */
    if (fn == FN_PHASH2 && r->st->path == CALL_DIRECT && !r->m->bif_marked && release_deviates(r->m, DEV_BIF_MARK_CLEARED))
        return true;
    for (int s = 0; s < r->m->nsessions; s++) /* silent: the counters call no tracer */
        counters_call(r->m, s, r->p, &r->m->sessions[s].pats[fn]);
    int *order;
    int n = order_by_pattern(r->m, fn, global, &order);
    if (fn == FN_PHASH2 && n > 1) /* each session's pattern on the BIF on its own */
        control_decided(r->m, "LIB-TARGET-BIF-SESSIONS");
    for (int i = 0; i < n; i++) {
        int s = order[i];
        Pattern *pat = &r->m->sessions[s].pats[fn];
        if (pat->set && (global || pat->local) && /* EV-CALL-GLOBAL-LOCAL */
            !process_tracepoint(r, s, n, fn, args, pat))
            return false;
        if (pat->meta && pat->meta_orphan && !r->m->tracer_unloaded) /* its module loaded again since */
            return model_unsupported(r->m, r->m->step->line, r->m->step->col,
                                     "a meta pattern set before its tracer module was unloaded and loaded again is");
        if (pat->meta && !pat->meta_orphan && !meta_tracepoint(r, s, fn, args, pat)) /* TRACER-UNLOADED */
            return false;
    }
    return true;
}

/* ---- returning and unwinding --------------------------------------------------------------- */

/* A trace frame's event. A match spec may have changed the process's flags since the frame
 * was pushed (MS-TRACE-FLAGS): a process tracer that has gone sends nothing, and return_from
 * and exception_from also need the call flag still set (erl_trace.c, erts_trace_return). */
static void emit_frame(Run *r, const Frame *f, const char *tag, const Term *term, const Term *extra,
                       const char *rules, const char *why)
{
    Event ev = {tag, term, extra, NULL, rules};
    const TraceState *ts = &r->m->procs[r->p].trace[f->session];
    if (!f->meta && (!model_attached(ts) || (strcmp(tag, "return_to") != 0 && !(ts->flags & FLAG_BIT(FL_CALL)))))
        return;
    if (f->meta) {
        TracerDecl decl;
        meta_emit(r->m, f->session, meta_tracer(r->m, f->session, &decl, f->meta_state), r->p, &ev, why);
    } else {
        bool silent = r->m->procs[r->p].trace[f->session].flags & FLAG_BIT(FL_SILENT);
        Buf b;
        buf_init(&b);
        buf_printf(&b, "%s%s%s", rules, silent ? " CALL-SILENT-LATE" : "",
                   f->session_rules ? f->session_rules : "");
        ev.rules = buf_str(&b);
        tracepoint_emit(r->m, f->session, r->p, &ev, why);
        buf_free(&b);
    }
}

/* return_to {M,F,A} of a return_to frame's session. */
static void emit_return_to(Run *r, const Frame *f, const Term *mfa, const char *rules)
{
    emit_frame(r, f, "return_to", mfa, NULL, rules, "CALL-RETURN-NO-ENABLED");
}

/* The callee's result reaches the continuation on top of the trace frames: runs them (a
 * value) or drops them (an exception), and pops the continuation; a failed result goes on
 * up as it is. */
static Result unwind(Run *r, Result res)
{
    Model *m = r->m;
    if (res.failed)
        return res;
    bool fresh = false; /* a return_to frame of this pass, right above the continuation (C-472) */
    for (;;) {
        const Frame *f = &r->frames[--r->nframes];
        if (f->kind == FR_RETURN && !res.raised) {
            emit_frame(r, f, "return_from", f->mfa, res.value,
                       f->exception ? "EV-RETURN-FROM MS-EXCEPTION-TRACE" : "EV-RETURN-FROM",
                       f->meta ? "CALL-META ENABLED-RETURN-FROM" : "ENABLED-RETURN-FROM");
        } else if (f->kind == FR_RETURN && f->exception) {
            Term *cv = term_tuple3(m->a, term_atom(m->a, "error"), res.value, NULL);
            emit_frame(r, f, "exception_from", f->mfa, cv, "CALL-EXCEPTION-FROM MS-EXCEPTION-TRACE",
                       f->meta ? "CALL-META CALL-RETURN-NO-ENABLED" : "CALL-RETURN-NO-ENABLED");
        } else if (f->kind == FR_RETURN) { /* {return_trace} says nothing of an exception */
            control_decided(m, "CALL-EXCEPTION-NO-RETURN");
            continue;
        } else if (f->kind == FR_RETURN_TO && res.raised) {
            if (!res.return_to)
                res.return_to = arena_alloc(m->a, (size_t)m->nsessions * sizeof *res.return_to);
            res.return_to[f->session] = true; /* one return_to, where it is caught */
            fresh = true;
        } else if (f->kind == FR_RETURN_TO) {
            emit_return_to(r, f, continuation(r, r->nframes - 1),
                           f->chain ? "CALL-RETURN-TO CALL-RETURN-ORDER CALL-RETURN-TO-TAIL"
                                    : "CALL-RETURN-TO CALL-RETURN-ORDER");
        } else {
            /* before OTP 27 beam_common.c next_catch records only the frame right after a
             * return_to frame and forgets it at the next one: a continuation reached with no
             * return_to frame right above it drops those from deeper down (C-472) */
            if (res.raised && res.return_to && !fresh && release_deviates(m, DEV_RETURN_TO_CLOSEST_CATCH))
                res.return_to = NULL;
            if (res.raised && f->catches) {
                /* beam_common.c next_catch marks the sessions whose return_to frames it passes,
                 * then at the catch walks the tracee's tracer refs (c_p->common.tracee.first_ref,
                 * SESSION-ORDER-PROCESS), not the frames: each marked one's return_to in that order */
                int *order;
                int n = res.return_to ? order_by_attach(m, r->p, &order) : 0;
                for (int i = 0; i < n; i++)
                    if (res.return_to[order[i]])
                        emit_return_to(r, &(Frame){.kind = FR_RETURN_TO, .session = order[i]}, f->mfa,
                                       "CALL-RETURN-TO CALL-RETURN-TO-EXCEPTION SESSION-ORDER-PROCESS");
                res.return_to = NULL;
            }
            return res;
        }
    }
}

/* ---- the fixture functions ----------------------------------------------------------------- */

static Result enter(Run *r, int fn, Term *args, bool global);

static Result value(Term *v) { return (Result){.value = v}; }

/* The argument list [X] of a function of arity 1. */
static Term *one(Model *m, Term *x) { return term_list(m->a, 1, &x); }

/* A non-tail call of callee from caller (local, or through the export entry when global),
 * inside a try when catches. */
static Result call_at(Run *r, int caller, bool catches, int callee, Term *arg, bool global)
{
    push(r, (Frame){.kind = FR_CONT, .mfa = fn_mfa(r->m, caller, NULL), .catches = catches,
                    .line = fixture_call_line(caller, callee, catches, global)});
    return unwind(r, enter(r, callee, one(r->m, arg), global));
}

/* try ... catch error:R -> {caught, R} end around a call's result. */
static Result caught(Model *m, Result x)
{
    return x.raised ? value(term_tuple3(m->a, term_atom(m->a, "caught"), x.value, NULL)) : x;
}

/* The head of the script of top/1 and middle/1, [{Shape, local | extern} | Rest]: true with
 * the shape, whether the next call goes through the export entry (extern) and Rest. */
static bool script_head(const Term *arg, const char **shape, bool *global, Term **rest)
{
    if (arg->kind != TK_CONS)
        return false;
    const Term *h = arg->u.cons.head;
    if (h->kind != TK_TUPLE || h->u.tuple.n != 2 || h->u.tuple.el[0]->kind != TK_ATOM ||
        !(term_is_atom(h->u.tuple.el[1], "local") || term_is_atom(h->u.tuple.el[1], "extern")))
        return false;
    *shape = h->u.tuple.el[0]->u.name;
    *global = term_is_atom(h->u.tuple.el[1], "extern");
    *rest = arg->u.cons.tail;
    return true;
}

/* A call the model does not follow: failed, with err set to what it is. */
static Result refused(Run *r, const char *what)
{
    model_unsupported(r->m, r->st->line, r->st->col, what);
    return (Result){.failed = true};
}

/* An argument no clause of fn matches: the model does not follow function_clause. */
static Result no_clause(Run *r, int fn)
{
    const FixtureFnInfo *f = fixture_fn_info(fn);
    char what[160];
    snprintf(what, sizeof what, "%s:%s/%d with an argument no clause of it matches (see cases/README.md, "
             "\"The traced functions\") is", fixture_module_name(f->module), f->name, f->arity);
    return refused(r, what);
}

/* top/1, middle/1 and bottom/1: the chain of trace_session_SUITE's return_to/1. */
static Result enter_chain(Run *r, int fn, Term *arg)
{
    const char *shape;
    bool global;
    Term *rest;
    if (fn == FN_BOTTOM) { /* [return | Rest] -> Rest; [exception] -> erlang:error(exception) */
        if (arg->kind == TK_CONS && term_is_atom(arg->u.cons.head, "return"))
            return value(arg->u.cons.tail);
        if (arg->kind == TK_CONS && term_is_atom(arg->u.cons.head, "exception") &&
            arg->u.cons.tail->kind == TK_NIL)
            return (Result){.raised = true, .value = arg->u.cons.head};
        return no_clause(r, fn);
    }
    if (!script_head(arg, &shape, &global, &rest))
        return no_clause(r, fn);
    bool catches = strcmp(shape, "catch") == 0;
    if (fn == FN_TOP) /* try middle(Rest) catch error:R -> {caught, R} end */
        return catches ? caught(r->m, call_at(r, FN_TOP, true, FN_MIDDLE, rest, global)) : no_clause(r, fn);
    if (strcmp(shape, "tail") == 0) /* bottom(Rest), a tail call */
        return enter(r, FN_BOTTOM, one(r->m, rest), global);
    if (catches) /* try bottom(Rest) catch error:R -> {caught, R} end */
        return caught(r->m, call_at(r, FN_MIDDLE, true, FN_BOTTOM, rest, global));
    if (strcmp(shape, "body") != 0)
        return no_clause(r, fn);
    Result x = call_at(r, FN_MIDDLE, false, FN_BOTTOM, rest, global); /* {bottom(Rest)} */
    return x.raised || x.failed ? x : value(term_tuple(r->m->a, 1, &x.value));
}

/* What the model runs of tcs_shapes: loop/1 as deep (the live stack and the stream grow with
 * it), bs_sum_a/2 and bs_sum_b/2 of a binary as long (the stream grows as its square),
 * alloc_tuples/2 as many calls and tuples as large (a case's node allocates 8 (Size + 1) N bytes). */
enum { LOOP_MAX_DEPTH = 1 << 20, BS_SUM_MAX_BYTES = 1024, ALLOC_TUPLES_MAX_CALLS = 1 << 20, ALLOC_TUPLES_MAX_SIZE = 4096 };

/* loop(0) -> 0; loop(N) -> loop(N - 1) + 1: N local non-tail calls, each returning its own N;
 * unrolled, since a recursion of the model's own as deep would overflow its stack. */
static Result enter_loop(Run *r, Term *arg)
{
    Model *m = r->m;
    if (arg->kind != TK_INT || arg->u.i < 0 || arg->u.i > LOOP_MAX_DEPTH)
        return refused(r, "tcs_shapes:loop/1 of anything but an integer from 0 to 1048576 (a negative one "
                       "recurses for ever) is");
    control_decided(m, "CALL-DEEP-RECURSION");
    const Term *caller = fn_mfa(m, FN_LOOP, NULL);
    int line = fixture_call_line(FN_LOOP, FN_LOOP, false, false);
    for (long long k = arg->u.i - 1; k >= 0; k--) {
        push(r, (Frame){.kind = FR_CONT, .mfa = caller, .line = line});
        if (!breakpoint(r, FN_LOOP, one(m, term_int(m->a, k)), false))
            return (Result){.failed = true};
    }
    Result x = value(term_int(m->a, 0));
    for (long long k = 1; k <= arg->u.i; k++) {
        unwind(r, x); /* loop(k - 1)'s value reaches loop(k), which adds 1 */
        x = value(term_int(m->a, k));
    }
    return x;
}

/* alloc_tuples(0, _) -> ok; alloc_tuples(N, Size) -> make_tuple(Size, []), alloc_tuples(N - 1,
 * Size): N local tail calls after the first, unrolled. */
static Result enter_alloc_tuples(Run *r, Term *args)
{
    Model *m = r->m;
    const Term *n = args->u.cons.head, *size = args->u.cons.tail->u.cons.head;
    if (n->kind != TK_INT || n->u.i < 0 || n->u.i > ALLOC_TUPLES_MAX_CALLS || size->kind != TK_INT ||
        size->u.i < 0 || size->u.i > ALLOC_TUPLES_MAX_SIZE)
        return refused(r, "tcs_shapes:alloc_tuples/2 of anything but N from 0 to 1048576 and Size from 0 to "
                       "4096 (a negative N recurses for ever) is");
    control_decided(m, "CALL-MEMORY-TUPLES");
    for (long long k = n->u.i - 1; k >= 0; k--) {
        Term *a[2] = {term_int(m->a, k), args->u.cons.tail->u.cons.head};
        if (!breakpoint(r, FN_ALLOC_TUPLES, term_list(m->a, 2, a), false))
            return (Result){.failed = true};
    }
    return value(term_atom(m->a, "ok"));
}

/* bs_sum_a(<<H,T/binary>>, Acc) -> bs_sum_a(T, H + Acc); bs_sum_a(<<>>, Acc) -> Acc; bs_sum_b
 * the same with its arguments the other way round; bs_sum_c four bits at a time, of <<>> only:
 * each a local tail call on the rest, unrolled. */
static Result enter_bs_sum(Run *r, int fn, Term *args)
{
    Model *m = r->m;
    int bin_at = fn == FN_BS_SUM_B; /* which argument is the binary */
    for (;;) {
        Term *a[2] = {args->u.cons.head, args->u.cons.tail->u.cons.head};
        const Term *bin = a[bin_at], *acc = a[1 - bin_at];
        if (bin->kind != TK_BIN)
            return no_clause(r, fn);
        if (bin->u.bin.n == 0)
            return value(a[1 - bin_at]);
        if (fn == FN_BS_SUM_C) /* <<H:4,T/bits>>: T is a bitstring */
            return refused(r, "tcs_shapes:bs_sum_c/2 of a binary that is not empty (the rest after 4 bits is "
                           "a bitstring, which no term of the model is) is");
        if (bin->u.bin.n > BS_SUM_MAX_BYTES)
            return refused(r, "tcs_shapes:bs_sum_a/2 or bs_sum_b/2 of a binary longer than 1024 bytes (each "
                           "call's line holds the rest: the stream grows as the square of its length) is");
        Term *sum; /* H + Acc, of any size (C-630) */
        if (bigint_op2(m->a, "+", acc, term_int(m->a, bin->u.bin.bytes[0]), &sum) != INT_OK)
            return refused(r, "tcs_shapes:bs_sum_a/2 or bs_sum_b/2 with an accumulator that is no integer "
                           "(H + Acc raises badarith) or of 2^20 bits is");
        control_decided(m, "CALL-MATCH-CONTEXT-ARG"); /* the rest is a match context: C-540 */
        a[bin_at] = term_bin(m->a, bin->u.bin.n - 1, bin->u.bin.bytes + 1);
        a[1 - bin_at] = sum;
        args = term_list(m->a, 2, a);
        m->match_context_arg = a[bin_at]; /* what a tracer process that matches it reads: C-540 */
        bool ok = breakpoint(r, fn, args, false);
        m->match_context_arg = NULL;
        if (!ok)
            return (Result){.failed = true};
    }
}

/* tcs_nif:sleep(Ms) sleeps Ms milliseconds from 1 to this, and returns at once for any other Ms. */
enum { NIF_SLEEP_MAX_MS = 1000 };

/* Enters fn with its arguments (through the export entry when global) and runs its body as
 * driver/runner/tcs_target.erl, tcs_late.erl and tcs_shapes.erl define it; failed if the model
 * cannot. */
static Result enter(Run *r, int fn, Term *args, bool global)
{
    Model *m = r->m;
    Term *arg = args->kind == TK_CONS ? args->u.cons.head : NULL; /* receive_message/0 has none */
    if (!breakpoint(r, fn, args, global))
        return (Result){.failed = true};
    if (fixture_fn_info(fn)->module == MOD_NIF) /* a NIF is traced as the function it replaces */
        control_decided(m, "CALL-NIF-TARGET");
    if (fixture_fn_is_dirty(fn)) { /* its argument, on a dirty scheduler */
        running_dirty_nif(m, r->p, fn_mfa(m, fn, NULL));
        return value(arg);
    }
    Result x;
    switch (fn) {
    case FN_TWICE: { /* {id(X), id(X)} */
        Term *el[2];
        for (int i = 0; i < 2; i++) {
            x = call_at(r, FN_TWICE, false, FN_ID, arg, false);
            if (x.failed)
                return x;
            el[i] = x.value;
        }
        return value(term_tuple(m->a, 2, el));
    }
    case FN_TAIL: /* id(X), a tail call */
    case FN_INNER:
        return enter(r, FN_ID, one(m, arg), false);
    case FN_DEEP: /* {inner(X)} */
        x = call_at(r, FN_DEEP, false, FN_INNER, arg, false);
        return x.failed ? x : value(term_tuple(m->a, 1, &x.value));
    case FN_CHECK: /* ok for ok, else erlang:error(X) */
    case FN_NIF_CHECK: /* the NIF: ok for ok, else enif_raise_exception(X) */
        return term_is_atom(arg, "ok") ? value(arg) : (Result){.raised = true, .value = arg};
    case FN_RELAY: /* [check(X)] */
        x = call_at(r, FN_RELAY, false, FN_CHECK, arg, false);
        return x.raised || x.failed ? x : value(term_list(m->a, 1, &x.value));
    case FN_CATCHER: /* try relay(X) catch error:R -> {caught, R} end */
        return caught(m, call_at(r, FN_CATCHER, true, FN_RELAY, arg, false));
    case FN_TOP:
    case FN_MIDDLE:
    case FN_BOTTOM:
        return enter_chain(r, fn, arg);
    case FN_LOOP:
        return enter_loop(r, arg);
    case FN_BS_SUM_A:
    case FN_BS_SUM_B:
    case FN_BS_SUM_C:
        return enter_bs_sum(r, fn, args);
    case FN_ALLOC_TUPLES:
        return enter_alloc_tuples(r, args);
    case FN_NIF_SLEEP: /* Ms milliseconds (1 to 1000) on its normal scheduler, uninterrupted */
        if (arg->kind == TK_INT && arg->u.i >= 1 && arg->u.i <= NIF_SLEEP_MAX_MS)
            longsched_ran(m, r->p, arg->u.i);
        return value(arg);
    case FN_RECEIVE_MESSAGE: /* receive Msg -> Msg end, a message already in the mailbox */
        if (m->procs[r->p].mlen == 0)
            return refused(r, "tcs_shapes:receive_message/0 with no message in the mailbox (the call step would "
                           "wait in the traced function) is");
        control_decided(m, "CALL-RECEIVE-IN-TRACED");
        { /* in a together block the message may come while the call waits: its join (BLOCK-TOGETHER-JOIN) */
            Term *got = messages_take_value(m, r->p);
            return got ? value(got) : (Result){.failed = true};
        }
    case FN_YIELDING: /* erlang:yield(), X: scheduled out and in inside the function */
        running_yield(m, r->p, fn_mfa(m, FN_YIELDING, NULL));
        return value(arg);
    case FN_PHASH2: /* a BIF: its value only (LIB-TARGET-BIF) */
        control_decided(m, "LIB-TARGET-BIF LIB-TARGET-EXACT");
        return value(term_int(m->a, phash2_value(arg)));
    case FN_SEQ: { /* its tail call of seq_loop/3 is local: no pattern of the model's sees it */
        control_decided(m, "LIB-TARGET-SEQ LIB-TARGET-EXACT");
        bool raised;
        Term *v = libcalls_seq(m->a, arg, args->u.cons.tail->u.cons.head, &raised);
        return (Result){.raised = raised, .value = v};
    }
    case FN_APPLY2: /* a spawned fun's entry point: it tail-calls the fun, code of the harness's
                     * tcs_canon that no pattern of the model's reaches, which returns its body */
        control_decided(m, "LIB-TARGET-APPLY LIB-TARGET-EXACT");
        return value(term_clone_in(m->a, arg->u.fun_body));
    default: /* tcs_target:id/1, tcs_late:id/1 and the NIF tcs_nif:id/1 */
        return value(arg);
    }
}

bool calls_step(Model *m, int p, const Step *st)
{
    /* the step's call is made by tcs_puppet:perform/1, inside its try: apply/3 and tcs_direct's
     * remote calls are tail calls; but a BIF is never tail-called, the loader gives its caller
     * a frame (OTP's ops.tab: "call_ext_only Ar=u Bif=u$is_bif => allocate u Ar | call_bif Bif |
     * deallocate_return u"), so a direct call of one returns to tcs_direct:call/3 */
    FixtureModule mod = (FixtureModule)fixture_module(st->module);
    bool bif = st->path == CALL_DIRECT && fixture_fn(mod, st->fn, term_list_length(st->args)) == FN_PHASH2;
    const char *caller_mod = bif ? "tcs_direct" : "tcs_puppet", *caller_fn = bif ? "call" : "perform";
    return calls_step_from(m, p, st, term_tuple3(m->a, term_atom(m->a, caller_mod), term_atom(m->a, caller_fn),
                                                 term_int(m->a, bif ? 3 : 1)));
}

bool calls_step_from(Model *m, int p, const Step *st, const Term *caller)
{
    FixtureModule mod = (FixtureModule)fixture_module(st->module);
    CodeLoad load = {0};
    if (fixture_module_is_library(mod) && m->all_modules_pattern)
        return model_unsupported(m, st->line, st->col, "a call of a library target after a '_':'_'/'_' pattern "
                                 "(it reaches the functions the target calls, which differ per release: "
                                 "LIB-TARGET-EXACT) is");
    if (st->path != CALL_APPLY && m->all_modules_pattern)
        return model_unsupported(m, st->line, st->col, "a direct or fun call after a '_':'_'/'_' pattern (it "
                                 "reaches tcs_direct, the harness's code, and erlang:make_fun/3) is");
    if (!m->loaded[mod] && !codeload_begin(m, p, mod, st, &load)) /* the first call loads the module */
        return false;
    Run *r = arena_alloc(m->a, sizeof *r);
    memset(r, 0, sizeof *r);
    r->m = m;
    r->p = p;
    r->st = st;
    push(r, (Frame){.kind = FR_CONT, .mfa = caller, .catches = true});
    int fn = fixture_fn(mod, st->fn, term_list_length(st->args));
    Result res = unwind(r, enter(r, fn, st->args, true));
    if (res.failed)
        return false;
    codeload_end(m, &load);
    if (res.raised) { /* CALL-EXCEPTION-RAISED: the harness reports the step's exception */
        static const char *const actions[] = {[CALL_APPLY] = "call", [CALL_DIRECT] = "call_direct",
                                              [CALL_FUN] = "call_fun"};
        Term *action[] = {term_atom(m->a, actions[st->path]), term_atom(m->a, st->module),
                          term_atom(m->a, st->fn), st->args};
        control_step_raised(m, p, term_tuple(m->a, 4, action), "error", res.value, "CALL-EXCEPTION-RAISED");
    }
    return true;
}
