/* mstest.c - erlang:match_spec_test(Args, MS, trace) done by a scenario process (MS-TEST-*).
 *
 * erts compiles the spec as for call tracing with DCOMP_FAKE (erl_db_util.c, match_spec_test):
 * set_seq_token becomes seq_trace_fake, which gives seq_trace_info(Component) of the caller and
 * sets nothing, set_tcw becomes set_tcw_fake, which checks its argument and gives the word as it
 * is, and the run (erts_match_set_run_trace with ERTS_PAM_IGNORE_TRACE_SILENT) leaves the
 * caller's silent flag alone. The result is {ok, Result, Flags, Warnings}: Result false when no
 * clause matches, else the last {message, X}'s X, true without one; Flags return_trace and
 * exception_trace as they ran, in that order; Warnings [] for every spec the model runs (seen
 * live on 25, 27 and 29 for the match specs of the corpus's patterns). The trace flag functions
 * of a process with no tracer change nothing either (MS-TEST-TRACE-FLAGS): enable_trace and
 * disable_trace give true, trace false; OTP 27 and 29 crash at them instead (C-560). */
#include "mstest.h"

#include <string.h>

#include "control.h"
#include "matchspec.h"
#include "msflags.h"
#include "release.h"
#include "term.h"

/* True iff t holds the atom name anywhere. */
static bool mentions(const Term *t, const char *name)
{
    switch (t->kind) {
    case TK_ATOM: return strcmp(t->u.name, name) == 0;
    case TK_CONS: return mentions(t->u.cons.head, name) || mentions(t->u.cons.tail, name);
    case TK_TUPLE:
        for (size_t i = 0; i < t->u.tuple.n; i++)
            if (mentions(t->u.tuple.el[i], name))
                return true;
        return false;
    case TK_MAP:
        for (size_t i = 0; i < t->u.map.n; i++)
            if (mentions(t->u.map.key[i], name) || mentions(t->u.map.val[i], name))
                return true;
        return false;
    default: return false;
    }
}

/* What seq_trace_info/1 gives a process with no token, per component: [] for label and serial,
 * {Flag, false} for each flag (seen live on 25, 27, 29, through seq_trace_fake). */
static Term *no_token_info(Arena *a)
{
    static const char *const flags[] = {"send", "receive", "print", "timestamp", "monotonic_timestamp",
                                        "strict_monotonic_timestamp", "spawn"};
    Term *info = term_nil(a);
    for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++) {
        Term *flag = term_atom(a, flags[i]);
        Term *value[2] = {flag, term_atom(a, "false")};
        Term *entry[2] = {flag, term_tuple(a, 2, value)};
        info = term_cons(a, term_tuple(a, 2, entry), info);
    }
    const char *const empty[] = {"serial", "label"};
    for (size_t i = 0; i < 2; i++) {
        Term *entry[2] = {term_atom(a, empty[i]), term_nil(a)};
        info = term_cons(a, term_tuple(a, 2, entry), info);
    }
    return info;
}

/* The test's side of the trace flag functions: the caller, and whether one ran. */
typedef struct TestFlags {
    Model *m;
    int p;
    bool ran;
    MsHooks hooks;
} TestFlags;

/* Whether p has a tracer or a trace flag in some session, or OTP 25's stray silent flag (C-150):
 * there the functions set or clear flags even in a test (erl_db_util.c runs them with the
 * caller's tracer, matchEnableTrace), which the documents do not square with MS-TEST-NO-EFFECT. */
static bool traced_anywhere(const Model *m, int p)
{
    const Proc *pr = &m->procs[p];
    for (int s = 0; s < m->nsessions; s++)
        if (model_attached(&pr->trace[s]) || pr->trace[s].flags)
            return true;
    return pr->untraced_silent;
}

/* enable_trace/1,2, disable_trace/1,2 and trace/2,3 in a test (MS-TEST-TRACE-FLAGS): the caller has
 * no tracer, so "trace flags are ignored" (the ERTS User's Guide, match_spec, trace/2,3); the value
 * is true for enable_trace and disable_trace ("Returns true") and false for trace ("true if any
 * trace property was changed"), as 25.2.3 answers. OTP 27 and 29 crash at trace/2,3 whatever its
 * arguments, and at the other two once they name a flag and a live process (C-560, seen live). */
static MsEffect test_trace_flags(void *ctx, const MsTraceChange *ch, const char **what)
{
    TestFlags *c = ctx;
    Model *m = c->m;
    c->ran = true;
    if (traced_anywhere(m, c->p)) {
        *what = "a trace flag function in erlang:match_spec_test/3 by a process with a tracer or trace flags "
               "(25 sets them: C-560) is";
        return MSE_UNSUPPORTED;
    }
    if (ch->changed && release_deviates(m, DEV_MS_TEST_TRACE_FLAGS_CRASH))
        return MSE_TRUE; /* the run ends at this step */
    int t = ch->fails ? -1 : ch->target ? msflags_named_process(m, ch->target) : c->p;
    if (t < 0)
        return MSE_FAIL;
    if (ch->tracer || traced_anywhere(m, t)) {
        *what = "a trace flag function in erlang:match_spec_test/3 naming a tracer, or a process with a tracer "
               "or trace flags (25 sets or clears them: C-560), is";
        return MSE_UNSUPPORTED;
    }
    if (release_deviates(m, DEV_MS_TEST_TRACE_FLAGS_CRASH))
        return MSE_TRUE;
    return ch->changed ? MSE_FALSE : MSE_TRUE;
}

/* {ok, Result, Flags, []} of an outcome. */
static Term *test_result(Arena *a, const MsOutcome *o)
{
    Term *flags = term_nil(a);
    if (o->exception_trace)
        flags = term_cons(a, term_atom(a, "exception_trace"), flags);
    if (o->return_trace)
        flags = term_cons(a, term_atom(a, "return_trace"), flags);
    Term *result = !o->matched ? term_atom(a, "false") : o->message ? (Term *)o->message : term_atom(a, "true");
    Term *el[4] = {term_atom(a, "ok"), result, flags, term_nil(a)};
    return term_tuple(a, 4, el);
}

bool mstest_step(Model *m, int p, const Step *st)
{
    const Proc *pr = &m->procs[p];
    if (pr->token && mentions(st->term, "set_seq_token"))
        return model_unsupported(m, st->line, st->term_col,
                                 "set_seq_token in erlang:match_spec_test/3 by a process holding a seq_trace token "
                                 "(its serial follows the node's clock: C-561) is");
    TestFlags flags = {m, p, false, {NULL, test_trace_flags, NULL}};
    flags.hooks.ctx = &flags;
    MsCall call = {st->args, model_pid(m, p), NULL, pr->token != NULL, &flags.hooks, &m->tcw,
                   release_has(m, DEV_MS_MAP_KEY_TWICE), 0, no_token_info(m->a)};
    MsOutcome o = ms_run(m->a, st->term, &call);
    if (o.unsupported)
        return model_unsupported(m, st->line, st->term_col, o.unsupported);
    if (m->crashed)
        return true; /* C-560: no answer, no line */
    if (o.keys_collided)
        release_deviates(m, DEV_MS_MAP_KEY_TWICE);
    Buf text, result, rules;
    buf_init(&text);
    buf_init(&result);
    buf_init(&rules);
    buf_printf(&text, "<%s> erlang:match_spec_test(", pr->name);
    term_print(&text, st->args, PRINT_CANON);
    buf_puts(&text, ",");
    term_print(&text, st->term, PRINT_CANON);
    buf_puts(&text, ",trace)");
    buf_puts(&result, "-> ");
    term_print(&result, test_result(m->a, &o), PRINT_CANON);
    bool effects = mentions(st->term, "silent") || mentions(st->term, "set_seq_token") ||
                   mentions(st->term, "set_tcw");
    buf_printf(&rules, "MS-TEST-RESULT%s%s%s%s", effects ? " MS-TEST-NO-EFFECT" : "",
               flags.ran ? " MS-TEST-TRACE-FLAGS" : "", o.rules[0] ? " " : "", o.rules);
    control_line(m, buf_str(&text), buf_str(&result), buf_str(&rules));
    buf_free(&text);
    buf_free(&result);
    buf_free(&rules);
    return true;
}
