/* msflags.c - the trace flag functions of a match spec on the model's processes
 * (CONFORMANCE.md section 2, "Match specifications", MS-TRACE-FLAGS).
 *
 * erts runs them in the match spec itself (erl_db_util.c, db_prog_match: matchEnableTrace,
 * matchEnableTrace2, matchDisableTrace, matchDisableTrace2, matchTrace2, matchTrace3): the
 * target (the caller, or a process found by pid or registered name: get_proc) takes over the
 * caller's tracer, and its flags become (Flags & ~Disable) | Enable; with no flags left the
 * tracer goes (set_tracee_flags). trace/2,3 first asks the tracer whether it is still
 * enabled (set_match_trace: erts_is_tracer_enabled, the trace_status probe) and answers
 * whether anything changed. */
#include "msflags.h"

#include <string.h>

#include "control.h"
#include "enabled.h"
#include "order.h"
#include "seqtrace.h"

int msflags_named_process(const Model *m, const Term *id)
{
    for (int q = 0; q < m->nprocs; q++) {
        const Proc *pr = &m->procs[q];
        if (!pr->alive || pr->is_port)
            continue;
        if (id->kind == TK_PID ? strcmp(pr->name, id->u.name) == 0
                               : pr->regname && strcmp(pr->regname, id->u.name) == 0)
            return q;
    }
    return -1;
}

/* What a {tracer, ...} item of trace/2,3 does in session s (MS-TRACE-FLAGS-TRACER). */
typedef enum {
    ITEM_HANDED_ON,  /* it names the case's tracer process, which the target takes over */
    ITEM_FAILS,      /* a session created with a tracer takes no other: the function fails */
    ITEM_UNSUPPORTED /* another tracer of the legacy session (*what set) */
} ItemVerdict;

/* The legacy session, and a session created with tracer undefined, hand on the tracer the item
 * names; the model has one for them, the case's tracer process (or its port). A session created
 * with a tracer fails the function whatever the item names, its own tracer too (003: "the
 * tracer is always the tracer specified when the session was created"; live on 27 and 29). */
static ItemVerdict tracer_item(const Model *m, int s, const Term *item, const char **what)
{
    const Session *ses = &m->sessions[s];
    if (s != LEGACY_SESSION && !ses->tracer_undefined)
        return ITEM_FAILS;
    if (ses->tracer->kind != TRACER_PROCESS || item->u.tuple.n != 2 ||
        term_compare(item->u.tuple.el[1], ses->state_term) != 0) {
        *what = "a {tracer, ...} item in trace/2,3 of a match spec naming another tracer than the case's "
                "tracer process is";
        return ITEM_UNSUPPORTED;
    }
    return ITEM_HANDED_ON;
}

static MsEffect trace_flags(void *ctx, const MsTraceChange *ch, const char **why)
{
    MsFlagsCtx *c = ctx;
    Model *m = c->m;
    if (ch->fails)
        return MSE_FAIL;
    if (ch->tracer) {
        /* MS-TRACE-FLAGS-TRACER: the item's tracer replaces the caller's (erts_trace_flags), and
         * set_match_trace hands it on if erts_is_tracer_enabled says it lives (a tracer process
         * has no probe to show): one that has exited fails the function, the target unchanged */
        control_decided(m, "MS-TRACE-FLAGS-TRACER");
        switch (tracer_item(m, c->s, ch->tracer, why)) {
        case ITEM_UNSUPPORTED: return MSE_UNSUPPORTED;
        case ITEM_FAILS: return MSE_FAIL;
        case ITEM_HANDED_ON: break;
        }
        if (m->sessions[LEGACY_SESSION].state_dead) /* an undefined session's tracer is <tracer> too */
            return MSE_FAIL;
    }
    int t = ch->target ? msflags_named_process(m, ch->target) : c->p;
    if (t < 0)
        return MSE_FAIL;
    TraceState *ts = &m->procs[t].trace[c->s];
    if (!ch->tracer && c->s == LEGACY_SESSION && !model_attached(&m->procs[c->p].trace[c->s])) {
        /* MS-TRACE-FLAGS-META: a legacy meta pattern's caller without a tracer hands on none:
         * set_tracee_flags with a nil tracer clears every flag of the target and its tracer,
         * whatever the function asked; in a session the session's tracer is handed on (below) */
        bool was_attached = model_attached(ts);
        control_decided(m, "MS-TRACE-FLAGS-META");
        if (was_attached)
            model_detach(ts);
        return !ch->changed || was_attached ? MSE_TRUE : MSE_FALSE;
    }
    if (!ch->tracer && ch->changed && enabled_probe(m, c->s, t) == ANS_REMOVE)
        return MSE_FAIL; /* set_match_trace: the tracer is no longer enabled */
    FlagSet before = ts->flags;
    bool was_attached = model_attached(ts);
    /* (Flags & ~Disable) | Enable: enabling first, the flags only empty when Enable is */
    if (ch->enable)
        order_set_flags(m, ts, ch->enable, true, ANS_TRACE, "MS-TRACE-FLAGS");
    if (was_attached && (ch->disable & ~ch->enable))
        order_set_flags(m, ts, ch->disable & ~ch->enable, false, ANS_TRACE, NULL);
    if (!ch->changed)
        return MSE_TRUE;
    return ts->flags != before || model_attached(ts) != was_attached ? MSE_TRUE : MSE_FALSE;
}

/* MS-SET-SEQ-TOKEN: set_seq_token is seq_trace:set_token/2 done by the calling process; the
 * token's form as erts holds it (MS-SEQ-TRACE). */
static MsEffect seq_token(void *ctx, const char *component, const Term *value, Term **token, const char **what)
{
    MsFlagsCtx *c = ctx;
    if (component) {
        control_decided(c->m, "MS-SET-SEQ-TOKEN");
        seqtrace_set_component(c->m, c->p, component, value);
    }
    bool stated;
    *token = seqtrace_token_form(c->m, c->p, &stated);
    if (stated)
        return MSE_TRUE;
    *what = "the value of {get_seq_token} with a token that has a time stamp flag is";
    return MSE_UNSUPPORTED;
}

const MsHooks *msflags_hooks(MsFlagsCtx *ctx, Model *m, int s, int p)
{
    *ctx = (MsFlagsCtx){m, s, p, {NULL, trace_flags, seq_token}};
    ctx->hooks.ctx = ctx;
    return &ctx->hooks;
}
