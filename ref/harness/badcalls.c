/* badcalls.c - `apply trace:FN(...)`: a call of module trace with an argument no other step
 * writes (a pid or port of another node, an atomics reference, a string where a name goes, an
 * atom or a pid where a port or tracer goes), as trace_session_SUITE's error_info/1 makes them
 * (CONFORMANCE.md section 2, "Errors"; C-280). The model answers only calls that raise, in the
 * order the BIFs check their arguments; a call that would succeed, or whose error OTP could
 * blame on either of two arguments, is refused: it belongs to the step of that function. */
#include <string.h>

#include "badcalls.h"
#include "control.h"
#include "flags.h"
#include "handles.h"
#include "matchspec.h"
#include "patterns.h"

/* What the model makes of a call: it raises badarg by the rules named, or it is not modelled
 * (why, a phrase model_unsupported completes). raises() and refused() make one, so exactly one
 * of the two is set. */
typedef struct Verdict { const char *rules, *refused; } Verdict;

static Verdict raises(const char *rules) { return (Verdict){.rules = rules}; }
static Verdict refused(const char *why) { return (Verdict){.refused = why}; }

/* The k-th (0-based) argument after the session. */
static const Term *arg(const Step *st, int k)
{
    const Term *t = st->args;
    while (k-- > 0)
        t = t->u.cons.tail;
    return t->u.cons.head;
}

static bool is_boolean(const Term *t) { return term_is_atom(t, "true") || term_is_atom(t, "false"); }

/* A pid of a process of the case (never a port: the language writes no port as a term). */
static bool is_local_pid(const Term *t) { return t->kind == TK_PID && !term_is_external(t); }

/* A string: a proper, non-empty list of integers. */
static bool is_string(const Term *t)
{
    if (t->kind != TK_CONS)
        return false;
    for (; t->kind == TK_CONS; t = t->u.cons.tail)
        if (t->u.cons.head->kind != TK_INT)
            return false;
    return t->kind == TK_NIL;
}

/* A proper list of atoms each of which passes known. */
static bool atoms_known(const Term *t, bool (*known)(const char *))
{
    for (; t->kind == TK_CONS; t = t->u.cons.tail)
        if (t->u.cons.head->kind != TK_ATOM || !known(t->u.cons.head->u.name))
            return false;
    return t->kind == TK_NIL;
}

static bool is_trace_flag(const char *name)
{
    Flag f;
    return flag_lookup(name, &f) == 1;
}

static bool is_pattern_option(const char *name)
{
    static const char *const options[] = {"global", "local", "meta", "call_count", "call_time", "call_memory"};
    for (size_t i = 0; i < sizeof options / sizeof options[0]; i++)
        if (strcmp(name, options[i]) == 0)
            return true;
    return false;
}

static bool has_atom(const Term *list, const char *name)
{
    for (; list->kind == TK_CONS; list = list->u.cons.tail)
        if (term_is_atom(list->u.cons.head, name))
            return true;
    return false;
}

/* process/4 of a pid of this node (C-320, seen live on 27 and 29): How is checked before the
 * flag list, and the flag list only once How is a boolean. A flag list that is no proper list,
 * or holds anything but a trace flag (an unknown atom, a tuple, an integer), raises with cause
 * badopt, argument 4, whether the process lives or not; with a How that is no boolean too,
 * both arguments are explained: refused. A list of trace flags with a boolean How is what a
 * trace step writes (it succeeds, or raises for a dead process). */
static Verdict local_tracee_refused(const Model *m, const Step *st)
{
    const Term *who = arg(st, 0), *how = arg(st, 1), *flags = arg(st, 2);
    bool flag_list = atoms_known(flags, is_trace_flag);
    if (!is_boolean(how) && !flag_list)
        return refused("a process/4 call with a How that is no boolean and a bad flag list (two arguments "
                       "explained) is");
    if (!is_boolean(how))
        return raises("SESSION-BAD-HOW");
    if (term_list_length(flags) < 0)
        return raises("SESSION-FLAGS-NO-LIST");
    if (!flag_list)
        return raises("SESSION-UNKNOWN-FLAG");
    if (model_proc(m, who->u.name) < 0)
        return refused("a process/4 call that sets trace flags on a tracer state process is");
    return refused("apply of a process/4 call of a process of the case with a boolean How and trace flags "
                   "(write it as a trace step) is");
}

/* process/4 and port/4 of a tracee that is not a local process: the tracee and How are checked
 * before the flag list, and both raise without a cause, so what erl_kernel_errors explains
 * follows the arguments: How (3) if it is no boolean, else the tracee (2). A pid or port of
 * another node is what it wants (not_local_pid, not_local_port), so a bad flag list is blamed
 * beside it (2 and 4, cause badopt, C-321); with a bad How, both 2 and 3: refused. */
static Verdict tracee_refused(const Model *m, const Step *st)
{
    bool port = strcmp(st->fn, "port") == 0;
    const Term *who = arg(st, 0), *how = arg(st, 1), *flags = arg(st, 2);
    if (!port && is_local_pid(who))
        return local_tracee_refused(m, st);
    bool remote = term_is_external(who) && who->kind == (port ? TK_PORT : TK_PID);
    if (remote && !is_boolean(how))
        return refused("a tracee of another node with a How that is no boolean (two arguments explained) is");
    if (!is_boolean(how))
        return raises("SESSION-TRACEE-BAD SESSION-BAD-HOW");
    if (remote)
        return raises(atoms_known(flags, is_trace_flag) ? "SESSION-TRACEE-REMOTE" : "SESSION-TRACEE-REMOTE-FLAGS");
    return raises("SESSION-TRACEE-BAD");
}

/* function/4's options (a proper list of at most MAX_STEP_FLAGS atoms) as a session's pattern
 * step reads them: the rule that refuses them (global beside local, meta or a counter, C-321),
 * or NULL. */
static const char *options_refusal(const Term *opts)
{
    const char *names[MAX_STEP_FLAGS];
    Step read = {.kind = ST_SESSION, .opts = names};
    for (const Term *o = opts; o->kind == TK_CONS; o = o->u.cons.tail)
        read.opts[read.nopts++] = o->u.cons.head->u.name;
    return patterns_options_refusal(&read);
}

/* function/4, in erl_bif_trace.c trace_pattern's order: the options, the match spec, a match
 * spec with counters only, the MFA. */
static Verdict function_refused(const Step *st)
{
    const Term *mfa = arg(st, 0), *ms = arg(st, 1), *opts = arg(st, 2);
    if (term_list_length(opts) < 0)
        return raises("SESSION-FLAGS-NO-LIST");
    if (!atoms_known(opts, is_pattern_option))
        return refused("an option list with an option function/4 refuses (write it as a pattern step) is");
    if (term_list_length(opts) > MAX_STEP_FLAGS)
        return refused("an option list longer than a pattern step's is");
    const char *bad_options = options_refusal(opts);
    if (bad_options)
        return raises(bad_options);
    bool list_ms = ms->kind == TK_CONS;
    MsVerdict v = ms_validate(ms);
    if (!is_boolean(ms) && !(list_ms && v.check == MS_OK && !v.otp26[0])) /* OTP 25 refuses v.otp26: C-12 */
        return refused("this match spec in apply is");
    bool counters = has_atom(opts, "call_count") || has_atom(opts, "call_time") || has_atom(opts, "call_memory");
    if (list_ms && counters && !has_atom(opts, "local") && !has_atom(opts, "meta"))
        return raises("CALL-COUNT-NO-MATCH-SPEC");
    bool good_mfa = mfa->kind == TK_TUPLE && mfa->u.tuple.n == 3 && mfa->u.tuple.el[0]->kind == TK_ATOM &&
                    mfa->u.tuple.el[1]->kind == TK_ATOM &&
                    (mfa->u.tuple.el[2]->kind == TK_INT || term_is_atom(mfa->u.tuple.el[2], "_"));
    if (good_mfa || term_is_atom(mfa, "on_load"))
        return refused("apply of a function/4 call with a valid MFA (write it as a pattern step) is");
    return raises("SESSION-FUNCTION-BAD-MFA");
}

/* send/3 and recv/3 with options that are no proper list (cause badopt, the options explained). */
static Verdict message_refused(const Step *st)
{
    const Term *ms = arg(st, 0), *opts = arg(st, 1);
    if (is_boolean(ms) && term_list_length(opts) < 0)
        return raises("SESSION-FLAGS-NO-LIST");
    return refused("apply of this trace:send/3 or trace:recv/3 call (write it as a pattern step) is");
}

/* info/3 of a pid or port of another node. */
static Verdict info_refused(const Step *st)
{
    const Term *what = arg(st, 0), *item = arg(st, 1);
    if (term_is_external(what) && (term_is_atom(item, "flags") || term_is_atom(item, "tracer")))
        return raises("SESSION-TRACEE-REMOTE");
    return refused("apply of this trace:info/3 call (write it as an info step) is");
}

/* session_create/3: a name that is no atom, a tracer that is no local pid, port or
 * {Module, State}; no cause, the bad argument explained. */
static Verdict create_refused(const Step *st)
{
    const Term *name = arg(st, 0), *tracer = arg(st, 1), *opts = arg(st, 2);
    bool bad_name = name->kind != TK_ATOM;
    bool bad_tracer = !is_local_pid(tracer) &&
                      !(tracer->kind == TK_TUPLE && tracer->u.tuple.n == 2 && tracer->u.tuple.el[0]->kind == TK_ATOM);
    if (opts->kind != TK_NIL)
        return refused("apply of session_create/3 with Opts (write it as a create step) is");
    if (bad_name == bad_tracer)
        return refused(bad_name ? "session_create/3 with a bad name and a bad tracer (two arguments explained) is"
                                : "apply of a session_create/3 call that does not raise (declare the session) is");
    return raises(bad_name ? "SESSION-CREATE-NAME" : "SESSION-CREATE-TRACER");
}

/* session_info/1 of a pid or port of another node, or of a string. */
static Verdict session_info_refused(const Step *st)
{
    const Term *what = arg(st, 0);
    if (term_is_external(what) || is_string(what))
        return raises("SESSION-INFO-BAD-WHAT");
    return refused("apply of this trace:session_info/1 call (write it as a session_info step) is");
}

bool badcalls_step(Model *m, const Step *st)
{
    Verdict v;
    const char *handle = st->session == SESSION_NONE ? NULL : handles_refused(m, st);
    if (strcmp(st->fn, "session_destroy") == 0)
        v = raises(handle);
    else if (strcmp(st->fn, "process") == 0 || strcmp(st->fn, "port") == 0)
        v = tracee_refused(m, st);
    else if (strcmp(st->fn, "function") == 0)
        v = function_refused(st);
    else if (strcmp(st->fn, "send") == 0 || strcmp(st->fn, "recv") == 0)
        v = message_refused(st);
    else if (strcmp(st->fn, "info") == 0)
        v = handle && !term_is_external(arg(st, 0)) ? raises(handle) : info_refused(st);
    else if (strcmp(st->fn, "session_create") == 0)
        v = create_refused(st);
    else
        v = session_info_refused(st);
    /* process/4 checks its session before anything about a pid, local or not (C-320); a
     * tracee of another kind first (an atom, fuzz group K5; a string) */
    if (handle && strcmp(st->fn, "process") == 0 && arg(st, 0)->kind == TK_PID)
        v = raises(handle);
    if (handle && v.rules && v.rules != handle) /* which one the BIF blames first is not modelled */
        v = refused("a session that is no live handle beside another bad argument is");
    /* the calls that do not raise are other steps' (session_destroy/1's is the destroy step):
     * refused, each with the step to write instead */
    if (v.refused)
        return model_unsupported(m, st->line, st->col, v.refused);
    Buf call;
    buf_init(&call);
    if (st->session == SESSION_NONE)
        buf_printf(&call, "trace:%s(", st->fn);
    else
        handles_call_head(m, &call, st->fn, st);
    for (const Term *a = st->args; a->kind == TK_CONS; a = a->u.cons.tail) {
        if (a != st->args || st->session != SESSION_NONE)
            buf_puts(&call, ",");
        term_print(&call, a->u.cons.head, PRINT_CANON);
    }
    buf_puts(&call, ")");
    control_line(m, buf_str(&call), "raises error:badarg", v.rules);
    buf_free(&call);
    return true;
}
