/* patterns.c - erlang:trace_pattern/3 from the harness: which fixture functions a pattern
 * step matches, what it sets on them, what the call returns (CONFORMANCE.md section 2, "Call
 * tracing and function patterns", CALL-PATTERN-*), and on_load patterns. */
#include <string.h>

#include "control.h"
#include "counters.h"
#include "order.h"
#include "busyloop.h"
#include "patterns.h"
#include "release.h"
#include "sched.h"
#include "steptext.h"
#include "together.h"
#include "tracermod.h"

/* What the options of a pattern step ask for. */
typedef struct {
    bool global, local, meta;
    bool counters[COUNTERS]; /* call_count, call_time, call_memory (CALL-COUNTERS-*) */
    bool any_counter;
    bool global_meta;   /* global and {meta,...} both given: accepted as meta (C-8) */
    const Term *meta_state; /* {meta, recorder, State}: State (TRACER-OPTION), {meta, <meta>}: <meta>;
                             * NULL: <meta>, or <tracer> for a tracer process */
    const char *bad;    /* the rule that makes the options a badarg, or NULL */
} Options;

/* The options as erts reads them, in order: global refuses local and an earlier breakpoint
 * option; {meta, Module, State} is not checked against an earlier global (C-8). The legacy
 * step's `meta` is passed as such a tuple, a session's as the atom `meta`, which an earlier
 * global refuses (erl_bif_trace.c, trace_pattern: `case am_meta: if (is_global) goto error`;
 * fuzz group J4), as 003 says: "global cannot be combined with any of the other options". */
static Options read_options(const Step *st)
{
    Options o = {0};
    bool global = false;
    bool meta_atom = st->kind == ST_SESSION;
    for (int i = 0; i < st->nopts && !o.bad; i++) {
        const char *opt = st->opts[i];
        if (!opt) { /* {meta, recorder, State}: tracermod_check accepted it */
            o.meta = true;
            o.meta_state = st->tracer_opt->u.tuple.el[st->tracer_opt->u.tuple.n - 1]; /* or {meta, <meta>} */
        } else if (strcmp(opt, "meta") == 0 && !(meta_atom && global))
            o.meta = true;
        else if (strcmp(opt, "local") == 0 && !global)
            o.local = true;
        else if (counters_kind(opt) < COUNTERS && !global)
            o.counters[counters_kind(opt)] = o.any_counter = true;
        else if (strcmp(opt, "global") == 0 && !o.local && !o.meta && !o.any_counter)
            global = true;
        else if (counters_kind(opt) < COUNTERS || (strcmp(opt, "global") == 0 && o.any_counter))
            o.bad = "CALL-COUNTERS-NOT-GLOBAL";
        else if (strcmp(opt, "global") == 0 || strcmp(opt, "local") == 0 || strcmp(opt, "meta") == 0)
            o.bad = "CALL-PATTERN-GLOBAL-EXCLUSIVE";
        else
            o.bad = "CALL-PATTERN-BAD-OPTION";
    }
    o.global = !o.local && !o.meta && !o.any_counter; /* [] means [global] (CALL-PATTERN-DEFAULT-GLOBAL) */
    o.global_meta = global && o.meta;
    return o;
}

const char *patterns_options_refusal(const Step *st)
{
    return read_options(st).bad;
}

/* Only {M,F,A}, {M,F,'_'}, {M,'_','_'} and {'_','_','_'} (CALL-PATTERN-FORBIDDEN). */
static bool target_allowed(const Step *st)
{
    bool any_fn = strcmp(st->fn, "_") == 0, any_arity = st->arity == ANY_ARITY;
    if (strcmp(st->module, "_") == 0)
        return any_fn && any_arity;
    return !any_fn || any_arity;
}

/* Whether fn is one the step's {M,F,A} names; only loaded modules have functions. */
static bool target_matches(const Model *m, const Step *st, int fn)
{
    const FixtureFnInfo *f = fixture_fn_info(fn);
    return m->loaded[f->module] &&
           (strcmp(st->module, "_") == 0 || strcmp(st->module, fixture_module_name(f->module)) == 0) &&
           (strcmp(st->fn, "_") == 0 || strcmp(st->fn, f->name) == 0) &&
           (st->arity == ANY_ARITY || st->arity == f->arity);
}

/* Whether the session has a breakpoint in the code of the function pat is for: a local or a
 * meta pattern, or a counter running or paused. A global pattern is none: erts keeps it in the
 * function's export entry (erl_bif_trace.c, erts_set_trace_pattern: erts_set_export_trace). */
static bool has_breakpoint(const Pattern *pat)
{
    bool counting = false;
    for (int k = 0; k < COUNTERS; k++)
        counting |= pat->counters[k].state != COUNTER_OFF;
    return (pat->set && pat->local) || pat->meta || counting;
}

/* " RULE" added to said unless it is there already. */
static void say_once(Buf *said, const char *rule)
{
    if (!strstr(buf_str(said), rule))
        buf_printf(said, " %s", rule);
}

/* Sets (on) or clears one function's pattern; true when it replaced one that was set
 * (CALL-PATTERN-REPLACE). Global tracing and the breakpoint kinds exclude each other
 * (CALL-PATTERN-GLOBAL-EXCLUSIVE); disabling needs the option the trace was set with
 * (CALL-PATTERN-DISABLE). What it did to counters goes to said: a pause or restart started a
 * stopped counter (CALL-COUNTERS-BREAKPOINT-STARTS), a counter step met a global pattern
 * (CALL-COUNTERS-ENDS-GLOBAL) or a local one (CALL-COUNTERS-WITH-LOCAL), a global pattern
 * stopped counters (CALL-COUNTERS-GLOBAL-OFF); function is false for the on_load pattern, whose
 * pause and restart (refused in a case, counter_restart_allowed) would start nothing. */
static bool set_pattern(Model *m, Pattern *pat, const Options *o, const Term *ms, bool on, bool function,
                        Buf *said)
{
    bool replaced = on && (o->global || o->local || o->meta) && (pat->set || pat->meta);
    /* erts asks for the breakpoint once per counter, but pause and restart neither add nor
     * remove one, so what the function had before the step decides for every counter of it */
    bool breakpoint = function && has_breakpoint(pat);
    /* a counter step that is on (true, pause, restart) ends a global pattern; false leaves it
     * (erl_bif_trace.c, erts_set_trace_pattern: "Turn off breakpoint tracing -- nothing to do
     * here"; CALL-COUNTERS-ENDS-GLOBAL) */
    for (int k = 0; k < COUNTERS; k++)
        if (o->counters[k]) {
            if (pat->set)
                say_once(said, pat->local ? "CALL-COUNTERS-WITH-LOCAL" : "CALL-COUNTERS-ENDS-GLOBAL");
            /* a call_time or call_memory counter reset under a busy loop (erlang/otp#8835) */
            if (k != COUNTER_COUNT && pat->counters[k].state != COUNTER_OFF && !term_is_atom(ms, "pause"))
                busyloop_counter_reset(m);
            if (counters_set(m, &pat->counters[k], ms, breakpoint))
                say_once(said, "CALL-COUNTERS-BREAKPOINT-STARTS");
            pat->set = pat->set && (pat->local || !on);
        }
    if (term_is_atom(ms, "pause") || term_is_atom(ms, "restart"))
        return false; /* the parser allows them with counter options only */
    if (o->global) {
        for (int k = 0; on && k < COUNTERS; k++)
            if (pat->counters[k].state != COUNTER_OFF)
                say_once(said, "CALL-COUNTERS-GLOBAL-OFF");
        if (on) /* replacing a global pattern's match spec keeps its place (SESSION-ORDER-CALL) */
            *pat = (Pattern){.set = true, .ms = ms, .since = pat->since};
        else if (pat->set && !pat->local)
            pat->set = false;
        return replaced;
    }
    if (o->local) {
        for (int k = 0; !o->any_counter && k < COUNTERS; k++)
            if (pat->counters[k].state != COUNTER_OFF)
                say_once(said, "CALL-COUNTERS-WITH-LOCAL");
        if (on) {
            pat->set = pat->local = true;
            pat->ms = ms;
        } else if (pat->set && pat->local) {
            pat->set = false;
        }
    }
    if (o->meta) {
        if (on && pat->set && !pat->local)
            pat->set = false;
        pat->meta = on;
        pat->meta_ms = ms;
        pat->meta_state = o->meta_state;
        pat->meta_orphan = false;
        pat->meta_nil = false;
    }
    return replaced;
}

/* The rules of a successful pattern step's ctl line. */
static void success_rules(Buf *rules, const Step *st, const Options *o, bool on, bool replaced,
                          bool cleared_local, const Buf *said)
{
    buf_puts(rules, "CTL-PATTERN CALL-PATTERN-COUNT");
    if (!st->module)
        buf_puts(rules, " CALL-PATTERN-ON-LOAD");
    else if (strcmp(st->module, "_") == 0 || strcmp(st->fn, "_") == 0 || st->arity == ANY_ARITY)
        buf_puts(rules, " CALL-PATTERN-WILDCARD");
    if (st->nopts == 0)
        buf_puts(rules, " CALL-PATTERN-DEFAULT-GLOBAL");
    buf_puts(rules, o->global ? " CALL-PATTERN-GLOBAL-EXPORTED EV-CALL-GLOBAL-LOCAL"
                              : o->local ? " EV-CALL-GLOBAL-LOCAL" : "");
    if (o->global && on && cleared_local)
        buf_puts(rules, " CALL-PATTERN-GLOBAL-CLEARS-LOCAL");
    if (o->meta)
        buf_puts(rules, " CALL-META");
    if (o->any_counter)
        buf_printf(rules, " CALL-COUNTERS-%s", term_is_atom(st->term, "false") ? "STOP"
                          : term_is_atom(st->term, "pause") ? "PAUSE" : term_is_atom(st->term, "restart")
                          ? "RESTART" : "START");
    buf_puts(rules, buf_str(said));
    if (o->any_counter && !st->module)
        buf_puts(rules, " CALL-COUNTERS-ON-LOAD");
    if (o->counters[COUNTER_MEMORY])
        buf_puts(rules, " CALL-COUNTERS-MEMORY-OTP26");
    if (o->global_meta)
        buf_puts(rules, " CALL-PATTERN-GLOBAL-META");
    if (!on)
        buf_puts(rules, " CALL-PATTERN-DISABLE");
    if (replaced)
        buf_puts(rules, " CALL-PATTERN-REPLACE");
}

void patterns_call_text(Buf *call, const Step *st)
{
    buf_puts(call, "erlang:trace_pattern(");
    steptext_pattern_target(call, st);
    buf_puts(call, ",");
    term_print(call, st->term, PRINT_CANON);
    buf_puts(call, ",[");
    for (int i = 0; i < st->nopts; i++) {
        buf_puts(call, i ? "," : "");
        term_print(call, st->opt_terms[i], PRINT_CANON);
    }
    buf_puts(call, "])");
}

void patterns_apply(Model *m, int s, const Step *st, Buf *result, Buf *rules)
{
    Session *ses = &m->sessions[s];
    Options o = read_options(st);
    /* erts reads the options first, then compiles the match spec, then checks the MFA
     * (erl_bif_trace.c, trace_pattern: fvalue badopt, match_spec, none in turn): the first
     * refusal is the error_info's cause (ERRINFO-*, fuzz_errinfo_function_option_first); a match
     * spec with only counter options is refused with the match spec ("A match prog is not allowed
     * with just call_count, call_time or call_memory") */
    bool counter_ms = o.any_counter && !o.local && !o.meta && st->term->kind == TK_CONS;
    const char *ms_invalid = release_ms_invalid(m, st);
    const char *bad = o.bad ? o.bad : ms_invalid ? ms_invalid
                    : counter_ms ? "CALL-COUNTERS-NO-MATCH-SPEC"
                    : st->module && !target_allowed(st) ? "CALL-PATTERN-FORBIDDEN" : NULL;
    if (bad) {
        buf_puts(result, "raises error:badarg");
        buf_printf(rules, "CTL-PATTERN CALL-PATTERN-BADARG %s", bad);
    } else {
        bool on = !term_is_atom(st->term, "false");
        int n = 0;
        bool replaced = false, cleared_local = false;
        Buf said;
        buf_init(&said);
        if (!st->module) {
            replaced = set_pattern(m, &ses->on_load, &o, st->term, on, false, &said); /* returns 0 (CALL-PATTERN-ON-LOAD) */
        } else {
            for (int fn = 0; fn < FIXTURE_FNS; fn++) {
                if (!target_matches(m, st, fn))
                    continue;
                if (o.global && !fixture_fn_info(fn)->exported) {
                    /* global: only exported functions match and count, but setting it clears
                     * the breakpoints of every function the target names
                     * (CALL-PATTERN-GLOBAL-CLEARS-LOCAL) */
                    if (on) {
                        cleared_local |= ses->pats[fn].set || ses->pats[fn].meta;
                        ses->pats[fn] = (Pattern){0};
                    }
                    continue;
                }
                if (fn == FN_PHASH2) /* erts_set_trace_pattern: ep->is_bif_traced = !!on (C-446) */
                    m->bif_marked = on;
                Pattern before = ses->pats[fn];
                replaced |= set_pattern(m, &ses->pats[fn], &o, st->term, on, true, &said);
                order_note_pattern(m, &ses->pats[fn], &before);
                n++;
            }
        }
        if (st->module && strcmp(st->module, "_") == 0) {
            buf_puts(result, "-> _FunctionCount"); /* all functions of all loaded modules */
            m->all_modules_pattern = true;
        }
        else
            buf_printf(result, "-> %d", n);
        success_rules(rules, st, &o, on, replaced, cleared_local, &said);
        buf_free(&said);
    }
}

bool patterns_by_process(Model *m, int p, const Step *st)
{
    const char *what = NULL;
    if (sched_traced(m, p))
        what = "a pattern step by a process traced for running (trace_pattern/3 makes it wait for the breakpoints' "
               "commit) is";
    if (what)
        return model_unsupported(m, st->line, st->actor_col, what);
    Buf target, call, by, result, rules;
    buf_init(&target);
    buf_init(&call);
    buf_init(&by);
    buf_init(&result);
    buf_init(&rules);
    steptext_pattern_target(&target, st);
    patterns_call_text(&call, st);
    bool ok = together_pattern(m, p, buf_str(&target), buf_str(&call));
    if (ok) {
        model_print_id(&by, m, p);
        buf_printf(&by, " %s", buf_str(&call));
        patterns_apply(m, LEGACY_SESSION, st, &result, &rules);
        buf_puts(&rules, " PATTERN-BY-PROCESS");
        control_line(m, buf_str(&by), buf_str(&result), buf_str(&rules));
    }
    buf_free(&target);
    buf_free(&call);
    buf_free(&by);
    buf_free(&result);
    buf_free(&rules);
    return ok;
}

bool patterns_step(Model *m, const Step *st)
{
    Buf call, result, rules;
    buf_init(&call);
    buf_init(&result);
    buf_init(&rules);
    patterns_call_text(&call, st);
    /* erlang.erl loads a meta tracer module first (TRACER-LOAD-ON-DEMAND), then erts checks */
    TracerVerdict verdict;
    const Term *state;
    Buf tracer_rules;
    buf_init(&tracer_rules);
    bool ok = tracermod_check(m, st, true, &verdict, &state, &tracer_rules);
    if (ok && verdict == TRACER_ACCEPTED) {
        patterns_apply(m, LEGACY_SESSION, st, &result, &rules);
        if (st->rounds > 1) /* a restart again sets the same counters to zero: the same answer */
            buf_puts(&rules, " PATTERN-RESTART-ROUNDS");
    } else if (ok) {
        buf_printf(&result, "raises error:%s", verdict == TRACER_UNDEF ? "undef" : "badarg");
        buf_puts(&rules, verdict == TRACER_UNDEF ? "CTL-PATTERN" : "CTL-PATTERN CALL-PATTERN-BADARG");
    }
    buf_puts(&rules, buf_str(&tracer_rules));
    buf_free(&tracer_rules);
    if (ok)
        control_line(m, buf_str(&call), buf_str(&result), buf_str(&rules));
    buf_free(&call);
    buf_free(&result);
    buf_free(&rules);
    return ok;
}
