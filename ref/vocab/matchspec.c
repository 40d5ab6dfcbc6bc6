/* matchspec.c - match specifications of call tracing: what erlang:trace_pattern/3 accepts
 * (ms_validate) and what one clause list does with one call (ms_run).
 *
 * The documents define the form (003, trace_match_spec()) and the body actions; the
 * expression language is the one of erts' match spec compiler (erl_db_util.c), checked
 * live with erlang:match_spec_test/3 on OTP 25. The MS-* rule IDs are in CONFORMANCE.md. */
#include "matchspec.h"
#include "bigint.h"

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* ---- match variables ------------------------------------------------------------------ */

/* The number of a match variable '$N' ('$0', or '$' and digits without a leading zero whose
 * value fits an int), or -1 for any other term: '$01' or '$2147483648' are plain atoms. */
static long var_number(const Term *t)
{
    if (t->kind != TK_ATOM || t->u.name[0] != '$' || t->u.name[1] == '\0')
        return -1;
    const char *d = t->u.name + 1;
    if (d[0] == '0')
        return d[1] == '\0' ? 0 : -1;
    long n = 0;
    for (; *d; d++) {
        if (*d < '0' || *d > '9')
            return -1;
        n = n * 10 + (*d - '0');
        if (n > INT_MAX)
            return -1;
    }
    return n;
}

/* ---- the functions a match spec may call ----------------------------------------------- */

typedef enum {
    F_GUARD,    /* guard BIF: guards and bodies */
    F_SPECIAL,  /* and, or, andalso, orelse, const, self: anywhere */
    F_BODY,     /* body only (in a guard: badarg) */
} FnContext;

typedef struct {
    const char *name;
    int arity;          /* -1: one or more arguments (and, or, andalso, orelse) */
    FnContext ctx;
    bool supported;     /* the model evaluates it */
    bool otp26;         /* added in OTP 26 (erlang/otp PR #7046, PR #6567): OTP 25 refuses it (C-12) */
} MsFn;

/* Every function erts' match spec compiler knows for call tracing: OTP 25's, and what OTP 26
 * added (the last rows; C-12): guard BIFs, and current_stacktrace, whose value (the caller's
 * stack) no model knows (refused, C-86). Floats ('/', float/1) are valid but not modelled;
 * caller_line only for a caller of the fixture's own (C-570), set_seq_token only as
 * is_modelled_seq_set says, process_dump only where its value is dropped, get_seq_token only
 * with a token the hook can state. */
static const MsFn ms_fns[] = {
    {"is_atom", 1, F_GUARD, true, false}, {"is_float", 1, F_GUARD, true, false},
    {"is_integer", 1, F_GUARD, true, false}, {"is_list", 1, F_GUARD, true, false},
    {"is_number", 1, F_GUARD, true, false}, {"is_pid", 1, F_GUARD, true, false},
    {"is_port", 1, F_GUARD, true, false}, {"is_reference", 1, F_GUARD, true, false},
    {"is_tuple", 1, F_GUARD, true, false}, {"is_map", 1, F_GUARD, true, false},
    {"is_binary", 1, F_GUARD, true, false}, {"is_function", 1, F_GUARD, true, false},
    {"is_record", 3, F_GUARD, true, false}, {"is_map_key", 2, F_GUARD, true, false},
    {"abs", 1, F_GUARD, true, false}, {"element", 2, F_GUARD, true, false}, {"hd", 1, F_GUARD, true, false},
    {"tl", 1, F_GUARD, true, false}, {"length", 1, F_GUARD, true, false}, {"map_get", 2, F_GUARD, true, false},
    {"map_size", 1, F_GUARD, true, false}, {"node", 0, F_GUARD, true, false}, {"node", 1, F_GUARD, true, false},
    {"round", 1, F_GUARD, true, false}, {"trunc", 1, F_GUARD, true, false}, {"size", 1, F_GUARD, true, false},
    {"byte_size", 1, F_GUARD, true, false}, {"bit_size", 1, F_GUARD, true, false},
    {"binary_part", 2, F_GUARD, true, false}, {"binary_part", 3, F_GUARD, true, false},
    {"+", 1, F_GUARD, true, false}, {"-", 1, F_GUARD, true, false}, {"+", 2, F_GUARD, true, false},
    {"-", 2, F_GUARD, true, false}, {"*", 2, F_GUARD, true, false}, {"div", 2, F_GUARD, true, false},
    {"rem", 2, F_GUARD, true, false}, {"band", 2, F_GUARD, true, false}, {"bor", 2, F_GUARD, true, false},
    {"bxor", 2, F_GUARD, true, false}, {"bnot", 1, F_GUARD, true, false}, {"bsl", 2, F_GUARD, true, false},
    {"bsr", 2, F_GUARD, true, false}, {">", 2, F_GUARD, true, false}, {">=", 2, F_GUARD, true, false},
    {"<", 2, F_GUARD, true, false}, {"=<", 2, F_GUARD, true, false}, {"==", 2, F_GUARD, true, false},
    {"=:=", 2, F_GUARD, true, false}, {"/=", 2, F_GUARD, true, false}, {"=/=", 2, F_GUARD, true, false},
    {"not", 1, F_GUARD, true, false}, {"xor", 2, F_GUARD, true, false},
    {"/", 2, F_GUARD, false, false}, {"float", 1, F_GUARD, false, false}, {"get_tcw", 0, F_GUARD, true, false},
    {"is_seq_trace", 0, F_GUARD, true, false},
    {"and", -1, F_SPECIAL, true, false}, {"or", -1, F_SPECIAL, true, false},
    {"andalso", -1, F_SPECIAL, true, false}, {"orelse", -1, F_SPECIAL, true, false},
    {"self", 0, F_SPECIAL, true, false},
    {"message", 1, F_BODY, true, false}, {"return_trace", 0, F_BODY, true, false},
    {"exception_trace", 0, F_BODY, true, false}, {"silent", 1, F_BODY, true, false},
    {"caller", 0, F_BODY, true, false},
    {"display", 1, F_BODY, true, false}, {"process_dump", 0, F_BODY, true, false},
    {"caller_line", 0, F_BODY, true, false}, {"enable_trace", 1, F_BODY, true, false},
    {"enable_trace", 2, F_BODY, true, false}, {"disable_trace", 1, F_BODY, true, false},
    {"disable_trace", 2, F_BODY, true, false}, {"trace", 2, F_BODY, true, false},
    {"trace", 3, F_BODY, true, false}, {"set_seq_token", 2, F_BODY, false, false},
    {"get_seq_token", 0, F_BODY, true, false}, {"set_tcw", 1, F_BODY, true, false},
    {"is_boolean", 1, F_GUARD, true, true}, {"is_bitstring", 1, F_GUARD, true, true},
    {"is_function", 2, F_GUARD, true, true}, {"tuple_size", 1, F_GUARD, true, true},
    {"ceil", 1, F_GUARD, true, true}, {"floor", 1, F_GUARD, true, true},
    {"min", 2, F_GUARD, true, true}, {"max", 2, F_GUARD, true, true},
    {"current_stacktrace", 0, F_BODY, false, true}, {"current_stacktrace", 1, F_BODY, false, true},
};

/* The entry for name/arity, or NULL. */
static const MsFn *fn_lookup(const char *name, size_t arity)
{
    for (size_t i = 0; i < sizeof ms_fns / sizeof ms_fns[0]; i++)
        if (strcmp(ms_fns[i].name, name) == 0 &&
            (ms_fns[i].arity == (int)arity || (ms_fns[i].arity < 0 && arity > 0)))
            return &ms_fns[i];
    return NULL;
}

/* Actions: body functions whose effect is on the trace, not on a value. */
static bool is_action(const char *name)
{
    return strcmp(name, "message") == 0 || strcmp(name, "return_trace") == 0 ||
           strcmp(name, "exception_trace") == 0 || strcmp(name, "silent") == 0;
}

/* ---- validation ------------------------------------------------------------------------- */

/* The rule that refuses function name in a send or receive spec, or NULL. erts compiles send
 * specs without DCOMP_CALL_TRACE and receive specs also without DCOMP_ALLOW_TRACE_OPS
 * (erl_db_util.c, erts_match_set_compile); the lists are 003's notes on send/3 and recv/3,
 * plus caller_line, which OTP 25 refuses in both (C-81). */
static const char *dialect_refuses(MsDialect d, const char *name)
{
    static const char *const call_only[] = {"caller", "caller_line"};
    static const char *const trace_ops[] = {"is_seq_trace", "get_seq_token", "set_seq_token", "enable_trace",
                                            "disable_trace", "trace", "silent", "process_dump"};
    if (d == MS_FOR_CALL || d == MS_FOR_TEST)
        return NULL;
    const char *rule = d == MS_FOR_SEND ? "MSGPAT-SEND-REFUSED" : "MSGPAT-RECEIVE-REFUSED";
    for (size_t i = 0; i < sizeof call_only / sizeof call_only[0]; i++)
        if (strcmp(name, call_only[i]) == 0)
            return rule;
    for (size_t i = 0; d == MS_FOR_RECEIVE && i < sizeof trace_ops / sizeof trace_ops[0]; i++)
        if (strcmp(name, trace_ops[i]) == 0)
            return rule;
    return NULL;
}

enum { MAX_VARS = 64 };

/* What validation has found so far; the first invalid part wins over the first unsupported
 * one, since OTP rejects a spec with any invalid part whatever else it holds. */
typedef struct {
    MsVerdict v;
    bool invalid, unsupported;
    long bound[MAX_VARS]; /* variables bound by the current clause's head */
    int nbound;
    MsDialect dialect;
} Check;

static void invalid(Check *c, const char *rule, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void invalid(Check *c, const char *rule, const char *fmt, ...)
{
    if (c->invalid)
        return;
    c->invalid = true;
    c->v.rule = rule;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->v.msg, sizeof c->v.msg, fmt, ap);
    va_end(ap);
}

static void unsupported(Check *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void unsupported(Check *c, const char *fmt, ...)
{
    if (c->invalid || c->unsupported)
        return;
    c->unsupported = true;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->v.msg, sizeof c->v.msg, fmt, ap);
    va_end(ap);
}

static bool is_bound(const Check *c, long n)
{
    for (int i = 0; i < c->nbound; i++)
        if (c->bound[i] == n)
            return true;
    return false;
}

/* A head pattern: binds its variables; map keys must be ground (MS-HEAD-MAP). */
static void check_pattern(Check *c, const Term *p)
{
    long n = var_number(p);
    if (n >= 0) {
        if (!is_bound(c, n)) {
            if (c->nbound == MAX_VARS) {
                unsupported(c, "more than %d match variables in one head are not supported by model v1", MAX_VARS);
                return;
            }
            c->bound[c->nbound++] = n;
        }
        return;
    }
    switch (p->kind) {
    case TK_TUPLE:
        for (size_t i = 0; i < p->u.tuple.n; i++)
            check_pattern(c, p->u.tuple.el[i]);
        return;
    case TK_CONS: /* along the tail, not down it: a list may be a million cells long */
        for (; p->kind == TK_CONS; p = p->u.cons.tail)
            check_pattern(c, p->u.cons.head);
        check_pattern(c, p);
        return;
    case TK_MAP:
        for (size_t i = 0; i < p->u.map.n; i++) {
            if (var_number(p->u.map.key[i]) >= 0)
                invalid(c, "MS-HEAD-MAP", "a match variable as a map key in a match spec head");
            else if (term_is_atom(p->u.map.key[i], "_"))
                invalid(c, "MS-HEAD-MAP", "'_' as a map key in a match spec head");
            check_pattern(c, p->u.map.val[i]);
        }
        return;
    default:
        return;
    }
}

static void check_head(Check *c, const Term *head)
{
    c->nbound = 0;
    if (term_is_atom(head, "_") || var_number(head) >= 0) {
        check_pattern(c, head);
        return;
    }
    if (head->kind == TK_TUPLE) {
        /* erts compiles any tuple head like the list of its elements (undocumented) */
        unsupported(c, "a tuple as match spec head is not supported by model v1 (use a list)");
        return;
    }
    if (head->kind != TK_NIL && head->kind != TK_CONS) {
        invalid(c, "MS-HEAD", "a match spec head must be a list of patterns, '_' or a match variable");
        return;
    }
    if (term_list_length(head) < 0) {
        invalid(c, "MS-HEAD", "a match spec head must be a proper list");
        return;
    }
    for (const Term *h = head; h->kind == TK_CONS; h = h->u.cons.tail)
        check_pattern(c, h->u.cons.head);
}

static void check_expr(Check *c, const Term *x, bool guard, bool top);

/* erts compiles {current_stacktrace, Depth} only with a literal Depth that is a small integer
 * (below 2^59 on a 64-bit node) and not negative; anything else, a match variable too, is
 * badarg on every release: unknown on OTP 25, refused by the compiler from 26 (seen live on 25,
 * 27, 29: otp_ms_test_6). */
static bool is_small_depth(const Term *depth)
{
    return depth->kind == TK_INT && depth->u.i >= 0 && depth->u.i < (1LL << 59);
}

/* {set_seq_token, Component, Value} with a literal atom Component that names no part of a
 * token: seq_trace:set_token/2 raises for it (erts_seq_trace: badarg), so the call gives
 * 'EXIT' and no token is set (erlang/otp match_spec_SUITE faulty_seq_trace/1; live:
 * otp_ms_faulty_seq_trace); a real component is run as is_modelled_seq_set says. */
static bool is_seq_component(const char *atom)
{
    static const char *const components[] = {"label", "serial", "send", "receive", "print", "timestamp",
                                             "monotonic_timestamp", "strict_monotonic_timestamp"};
    for (size_t i = 0; i < sizeof components / sizeof components[0]; i++)
        if (strcmp(atom, components[i]) == 0)
            return true;
    return false;
}

static bool is_bad_seq_component(const char *name, const Term *x)
{
    return strcmp(name, "set_seq_token") == 0 && x->u.tuple.el[1]->kind == TK_ATOM &&
           !is_seq_component(x->u.tuple.el[1]->u.name);
}

/* {set_seq_token, Component, Value} in a call spec that the model runs (MS-SET-SEQ-TOKEN): a
 * literal label, send, 'receive' or print, with a literal value set_token/2 takes for it (a
 * label a non-negative integer, a flag true or false); serial, the time stamp flags and any
 * other value stay refused. */
static bool is_modelled_seq_set(const Check *c, const char *name, const Term *x)
{
    if (strcmp(name, "set_seq_token") != 0 || c->dialect != MS_FOR_CALL)
        return false;
    const Term *k = x->u.tuple.el[1], *v = x->u.tuple.el[2];
    if (term_is_atom(k, "label"))
        return v->kind == TK_INT && v->u.i >= 0;
    return (term_is_atom(k, "send") || term_is_atom(k, "receive") || term_is_atom(k, "print")) &&
           (term_is_atom(v, "true") || term_is_atom(v, "false"));
}

static void check_call(Check *c, const Term *x, bool guard, bool top)
{
    const Term *f = x->u.tuple.el[0];
    size_t arity = x->u.tuple.n - 1;
    const char *name = f->u.name;
    if (strcmp(name, "const") == 0) {
        if (arity != 1)
            invalid(c, "MS-CONST", "{const,...} takes exactly one argument");
        return; /* the argument is a literal, whatever it holds */
    }
    const MsFn *fn = fn_lookup(name, arity);
    if (!fn) {
        invalid(c, "MS-UNKNOWN-FUNCTION", "%s/%zu is no match spec function", name, arity);
        return;
    }
    if (fn->otp26 && !c->v.otp26[0])
        snprintf(c->v.otp26, sizeof c->v.otp26, "%s/%zu", name, arity);
    const char *refused = dialect_refuses(c->dialect, name);
    if (refused) {
        invalid(c, refused, "%s/%zu is not allowed in a match spec for %s tracing", name, arity,
                c->dialect == MS_FOR_SEND ? "send" : "'receive'");
        return;
    }
    if (guard && fn->ctx == F_BODY) {
        invalid(c, "MS-GUARD-CONTEXT", "%s/%zu may only be called in a match spec body", name, arity);
        return;
    }
    if (strcmp(name, "current_stacktrace") == 0 && arity == 1 && !is_small_depth(x->u.tuple.el[1])) {
        invalid(c, "MS-UNKNOWN-FUNCTION", "the depth of {current_stacktrace, Depth} must be a small non-negative integer");
        return;
    }
    bool test_seq_token = c->dialect == MS_FOR_TEST && strcmp(name, "set_seq_token") == 0;
    if (!fn->supported && !is_bad_seq_component(name, x) && !is_modelled_seq_set(c, name, x) &&
        !test_seq_token) {
        unsupported(c, "match spec function %s/%zu is not supported by model v1", name, arity);
        return;
    }
    if (is_action(name) && !top) {
        unsupported(c, "{%s...} nested inside another expression is not supported by model v1 "
                       "(write it as a body element)", name);
        return;
    }
    for (size_t i = 1; i < x->u.tuple.n; i++)
        check_expr(c, x->u.tuple.el[i], guard, false);
}

/* A guard or body expression (MS-CONST for constructions, MS-UNBOUND for variables). */
static void check_expr(Check *c, const Term *x, bool guard, bool top)
{
    long n = var_number(x);
    if (n >= 0) {
        if (!is_bound(c, n))
            invalid(c, "MS-UNBOUND", "match variable '$%ld' is not bound in the head", n);
        return;
    }
    switch (x->kind) {
    case TK_CONS: /* along the tail (see check_pattern) */
        for (; x->kind == TK_CONS; x = x->u.cons.tail)
            check_expr(c, x->u.cons.head, guard, false);
        check_expr(c, x, guard, false);
        return;
    case TK_MAP:
        for (size_t i = 0; i < x->u.map.n; i++) {
            check_expr(c, x->u.map.key[i], guard, false);
            check_expr(c, x->u.map.val[i], guard, false);
        }
        return;
    case TK_TUPLE:
        if (x->u.tuple.n == 1 && x->u.tuple.el[0]->kind == TK_TUPLE) { /* {{E...}} */
            const Term *in = x->u.tuple.el[0];
            for (size_t i = 0; i < in->u.tuple.n; i++)
                check_expr(c, in->u.tuple.el[i], guard, false);
            return;
        }
        if (x->u.tuple.n == 0 || x->u.tuple.el[0]->kind != TK_ATOM) {
            invalid(c, "MS-UNKNOWN-FUNCTION", "a tuple in a match spec guard or body is a function "
                                              "call {F,Arg...} or a construction {{E...}}");
            return;
        }
        check_call(c, x, guard, top);
        return;
    default:
        return; /* atoms (incl. '$_', '$$', '_'), integers, binaries, pids, [] */
    }
}

/* The guard list or the body list of a clause: a proper list of expressions. */
static void check_exprs(Check *c, const Term *list, bool guard)
{
    if (term_list_length(list) < 0) {
        invalid(c, "MS-FORM", "match spec guards and bodies must be proper lists");
        return;
    }
    for (const Term *e = list; e->kind == TK_CONS; e = e->u.cons.tail)
        check_expr(c, e->u.cons.head, guard, !guard);
}

MsVerdict ms_validate(const Term *ms)
{
    return ms_validate_for(ms, MS_FOR_CALL);
}

MsVerdict ms_validate_for(const Term *ms, MsDialect dialect)
{
    Check c;
    memset(&c, 0, sizeof c);
    c.dialect = dialect;
    if (term_is_atom(ms, "true") || term_is_atom(ms, "false"))
        return c.v;
    if (term_list_length(ms) < 0) {
        invalid(&c, "MS-FORM", "a match spec is true, false or a list of {Head,Guards,Body}");
    } else {
        for (const Term *l = ms; l->kind == TK_CONS; l = l->u.cons.tail) {
            const Term *cl = l->u.cons.head;
            if (cl->kind != TK_TUPLE || cl->u.tuple.n != 3) {
                invalid(&c, "MS-FORM", "a match spec clause is a tuple {Head,Guards,Body}");
                continue;
            }
            check_head(&c, cl->u.tuple.el[0]);
            check_exprs(&c, cl->u.tuple.el[1], true);
            check_exprs(&c, cl->u.tuple.el[2], false);
        }
    }
    c.v.check = c.invalid ? MS_INVALID : c.unsupported ? MS_UNSUPPORTED : MS_OK;
    if (c.v.check != MS_INVALID)
        c.v.rule = NULL;
    return c.v;
}

/* ---- running ---------------------------------------------------------------------------- */

typedef struct { long n; const Term *value; } Binding;

/* One run: the call, the bindings of the clause being tried, what has been used. */
typedef struct {
    Arena *a;
    const MsCall *call;
    Binding vars[MAX_VARS];
    int nvars;
    unsigned used;            /* bit per UsedRule */
    const char *unsupported;
    bool keys_collided;       /* a map built had keys that turned out equal (MsOutcome) */
} Run;

/* The rules behind an outcome, in catalogue order. */
typedef enum {
    U_EMPTY, U_CLAUSE_ORDER, U_HEAD_VARIABLE, U_HEAD_MAP, U_GUARD, U_GUARD_FAIL, U_TYPE,
    U_COMPARE, U_ARITH, U_BOOL, U_SELF, U_NODE, U_CALLER, U_CALLER_LINE, U_DOLLAR_UNDERSCORE, U_DOLLAR_DOLLAR,
    U_BODY_EXIT, U_BODY_VALUE, U_CONST, U_TRACE_FLAGS, U_DISPLAY, U_PROCESS_DUMP, U_SEQ, U_TCW, U_EVAL_ORDER, U_COUNT
} UsedRule;

static const char *const used_rule[U_COUNT] = {
    "MS-EMPTY", "MS-CLAUSE-ORDER", "MS-HEAD-VARIABLE", "MS-HEAD-MAP", "MS-GUARD",
    "MS-GUARD-FAIL", "MS-GUARD-TYPE", "MS-GUARD-COMPARE", "MS-GUARD-ARITH", "MS-GUARD-BOOL",
    "MS-SELF", "MS-NODE", "MS-CALLER", "MS-CALLER-LINE", "MS-DOLLAR-UNDERSCORE", "MS-DOLLAR-DOLLAR",
    "MS-BODY-EXIT", "MS-BODY-VALUE", "MS-CONST", "MS-TRACE-FLAGS", "MS-DISPLAY", "MS-PROCESS-DUMP",
    "MS-SEQ-TRACE", "MS-TCW", "MS-EVAL-ORDER",
};

static void use(Run *r, UsedRule u) { r->used |= 1u << u; }

static const Term *binding(const Run *r, long n)
{
    for (int i = 0; i < r->nvars; i++)
        if (r->vars[i].n == n)
            return r->vars[i].value;
    return NULL;
}

static bool match(Run *r, const Term *p, const Term *t)
{
    if (term_is_atom(p, "_"))
        return true;
    long n = var_number(p);
    if (n >= 0) {
        use(r, U_HEAD_VARIABLE);
        const Term *b = binding(r, n);
        if (b)
            return term_compare(b, t) == 0; /* a repeated variable: the same term again */
        r->vars[r->nvars].n = n;
        r->vars[r->nvars].value = t;
        r->nvars++;
        return true;
    }
    switch (p->kind) {
    case TK_TUPLE:
        if (t->kind != TK_TUPLE || t->u.tuple.n != p->u.tuple.n)
            return false;
        for (size_t i = 0; i < p->u.tuple.n; i++)
            if (!match(r, p->u.tuple.el[i], t->u.tuple.el[i]))
                return false;
        return true;
    case TK_CONS: /* along the tails (see check_pattern) */
        for (; p->kind == TK_CONS; p = p->u.cons.tail, t = t->u.cons.tail)
            if (t->kind != TK_CONS || !match(r, p->u.cons.head, t->u.cons.head))
                return false;
        return match(r, p, t);
    case TK_MAP:
        use(r, U_HEAD_MAP);
        if (t->kind != TK_MAP)
            return false;
        for (size_t i = 0; i < p->u.map.n; i++) { /* every key present, its value matching */
            size_t j = 0;
            while (j < t->u.map.n && term_compare(t->u.map.key[j], p->u.map.key[i]) != 0)
                j++;
            if (j == t->u.map.n || !match(r, p->u.map.val[i], t->u.map.val[j]))
                return false;
        }
        return true;
    default:
        return term_compare(p, t) == 0;
    }
}

static bool head_matches(Run *r, const Term *head)
{
    r->nvars = 0;
    if (term_is_atom(head, "_"))
        return true;
    if (var_number(head) >= 0)
        return match(r, head, r->call->args);
    if (term_list_length(head) != term_list_length(r->call->args))
        return false;
    const Term *arg = r->call->args;
    for (; head->kind == TK_CONS; head = head->u.cons.tail, arg = arg->u.cons.tail)
        if (!match(r, head->u.cons.head, arg->u.cons.head))
            return false;
    return true;
}

/* ---- expressions ---- */

/* Evaluation fails (a BIF raised, a guard must fail) or cannot be computed by the model. */
typedef enum { EV_OK, EV_FAIL, EV_UNSUPPORTED } Ev;

static Ev eval(Run *r, const Term *x, bool guard, Term **out);

static Term *atom(Run *r, const char *name) { return term_atom(r->a, name); }
static Term *boolean(Run *r, bool b) { return atom(r, b ? "true" : "false"); }
static bool is_bool(const Term *t) { return term_is_atom(t, "true") || term_is_atom(t, "false"); }
static Term *integer(Run *r, long long i) { return term_int(r->a, i); }

/* An integer operation's outcome (MS-GUARD-BIGNUM): badarith and system_limit raise. */
static Ev integer_result(Run *r, IntResult res)
{
    if (res == INT_BEYOND_MODEL) {
        r->unsupported = "integer arithmetic beyond 2^20 bits in a match spec is";
        return EV_UNSUPPORTED;
    }
    return res == INT_OK ? EV_OK : EV_FAIL;
}

/* '$$': the values of the bound variables, in the order of their numbers. */
static Term *all_bindings(Run *r)
{
    Term *el[MAX_VARS];
    int n = 0;
    long last = -1;
    for (;;) {
        const Binding *next = NULL;
        for (int i = 0; i < r->nvars; i++)
            if (r->vars[i].n > last && (!next || r->vars[i].n < next->n))
                next = &r->vars[i];
        if (!next)
            break;
        el[n++] = (Term *)next->value;
        last = next->n;
    }
    return term_list(r->a, (size_t)n, el);
}

static Ev arith2(Run *r, const char *op, const Term *x, const Term *y, Term **out)
{
    return integer_result(r, bigint_op2(r->a, op, x, y, out));
}

static Ev compare2(Run *r, const char *op, const Term *x, const Term *y, Term **out)
{
    int c = term_compare(x, y); /* no floats: == is =:= and /= is =/= */
    bool v;
    if (strcmp(op, "<") == 0)
        v = c < 0;
    else if (strcmp(op, "=<") == 0)
        v = c <= 0;
    else if (strcmp(op, ">") == 0)
        v = c > 0;
    else if (strcmp(op, ">=") == 0)
        v = c >= 0;
    else if (strcmp(op, "==") == 0 || strcmp(op, "=:=") == 0)
        v = c == 0;
    else
        v = c != 0;
    *out = boolean(r, v);
    return EV_OK;
}

static Ev type_test(Run *r, const char *name, const Term *x, Term **out)
{
    bool v;
    if (strcmp(name, "is_atom") == 0)
        v = x->kind == TK_ATOM;
    else if (strcmp(name, "is_integer") == 0 || strcmp(name, "is_number") == 0)
        v = term_is_integer(x);
    else if (strcmp(name, "is_list") == 0)
        v = x->kind == TK_CONS || x->kind == TK_NIL;
    else if (strcmp(name, "is_pid") == 0)
        v = x->kind == TK_PID;
    else if (strcmp(name, "is_tuple") == 0)
        v = x->kind == TK_TUPLE;
    else if (strcmp(name, "is_map") == 0)
        v = x->kind == TK_MAP;
    else if (strcmp(name, "is_binary") == 0 || strcmp(name, "is_bitstring") == 0)
        v = x->kind == TK_BIN; /* the model's binaries are whole bytes */
    else if (strcmp(name, "is_boolean") == 0)
        v = is_bool(x);
    else /* is_float, is_port, is_reference, is_function: no such terms in the model */
        v = false;
    *out = boolean(r, v);
    return EV_OK;
}

/* binary_part(Bin, Start, Len): Len may be negative (the part before Start). */
static Ev binary_part(Run *r, const Term *b, const Term *start, const Term *len, Term **out)
{
    if (b->kind != TK_BIN || start->kind != TK_INT || len->kind != TK_INT)
        return EV_FAIL;
    long long s = start->u.i, l = len->u.i, size = (long long)b->u.bin.n;
    if (l < 0) {
        s += l;
        l = -l;
    }
    if (s < 0 || s > size || l > size - s)
        return EV_FAIL;
    *out = term_bin(r->a, (size_t)l, b->u.bin.bytes + s);
    return EV_OK;
}

static const Term *map_lookup(const Term *m, const Term *k)
{
    for (size_t i = 0; i < m->u.map.n; i++)
        if (term_compare(m->u.map.key[i], k) == 0)
            return m->u.map.val[i];
    return NULL;
}

/* The one-argument BIFs on an evaluated argument. */
static Ev bif1(Run *r, const char *name, const Term *a, Term **out)
{
    if (strncmp(name, "is_", 3) == 0)
        return type_test(r, name, a, out);
    if (strcmp(name, "hd") == 0 || strcmp(name, "tl") == 0) {
        if (a->kind != TK_CONS)
            return EV_FAIL;
        *out = name[0] == 'h' ? a->u.cons.head : a->u.cons.tail;
        return EV_OK;
    }
    if (strcmp(name, "length") == 0) {
        long len = term_list_length(a);
        if (len < 0)
            return EV_FAIL;
        *out = integer(r, len);
        return EV_OK;
    }
    if (strcmp(name, "map_size") == 0) {
        if (a->kind != TK_MAP)
            return EV_FAIL;
        *out = integer(r, (long long)a->u.map.n);
        return EV_OK;
    }
    if (strcmp(name, "size") == 0 || strcmp(name, "byte_size") == 0 || strcmp(name, "bit_size") == 0) {
        if (a->kind == TK_BIN)
            *out = integer(r, (long long)a->u.bin.n * (strcmp(name, "bit_size") == 0 ? 8 : 1));
        else if (a->kind == TK_TUPLE && name[0] == 's')
            *out = integer(r, (long long)a->u.tuple.n);
        else
            return EV_FAIL;
        return EV_OK;
    }
    if (strcmp(name, "tuple_size") == 0) {
        if (a->kind == TK_TUPLE)
            *out = integer(r, (long long)a->u.tuple.n);
        else
            return EV_FAIL;
        return EV_OK;
    }
    /* the rest are arithmetic: abs - + bnot round trunc ceil floor */
    return integer_result(r, bigint_op1(r->a, name, a, out));
}

/* The two-argument BIFs on evaluated arguments. */
static Ev bif2(Run *r, const char *name, const Term *x, const Term *y, Term **out)
{
    if (strcmp(name, "element") == 0) {
        if (x->kind != TK_INT || y->kind != TK_TUPLE || x->u.i < 1 || x->u.i > (long long)y->u.tuple.n)
            return EV_FAIL;
        *out = y->u.tuple.el[x->u.i - 1];
        return EV_OK;
    }
    if (strcmp(name, "map_get") == 0 || strcmp(name, "is_map_key") == 0) {
        if (y->kind != TK_MAP)
            return EV_FAIL;
        const Term *found = map_lookup(y, x);
        if (name[0] == 'i') {
            *out = boolean(r, found != NULL);
            return EV_OK;
        }
        if (!found)
            return EV_FAIL;
        *out = (Term *)found;
        return EV_OK;
    }
    if (strcmp(name, "binary_part") == 0) { /* binary_part(Bin, {Start, Len}) */
        if (y->kind != TK_TUPLE || y->u.tuple.n != 2)
            return EV_FAIL;
        return binary_part(r, x, y->u.tuple.el[0], y->u.tuple.el[1], out);
    }
    if (strcmp(name, "min") == 0 || strcmp(name, "max") == 0) { /* equal terms: the first */
        int c = term_compare(x, y);
        *out = (Term *)((name[1] == 'i' ? c <= 0 : c >= 0) ? x : y);
        return EV_OK;
    }
    if (strcmp(name, "is_function") == 0) { /* is_function(Term, Arity): no funs in a call's terms */
        if (!term_is_integer(y) || (y->kind == TK_INT ? y->u.i < 0 : y->u.big.neg))
            return EV_FAIL;
        *out = boolean(r, false);
        return EV_OK;
    }
    if (strchr("<=>/", name[0]))
        return compare2(r, name, x, y, out);
    return arith2(r, name, x, y, out); /* + - * div rem band bor bxor bsl bsr */
}

/* is_record(Term, Tag, Size): a tuple of Size elements whose first is the atom Tag. */
static Ev is_record(Run *r, Term *const *v, Term **out)
{
    if (v[1]->kind != TK_ATOM || v[2]->kind != TK_INT)
        return EV_FAIL;
    const Term *t = v[0];
    *out = boolean(r, t->kind == TK_TUPLE && (long long)t->u.tuple.n == v[2]->u.i && t->u.tuple.n > 0 &&
                          term_compare(t->u.tuple.el[0], v[1]) == 0);
    return EV_OK;
}

/* The elements of a tuple built in a guard or body, or the arguments of a call, into out:
 * erts evaluates them from the last to the first (erl_db_util.c, dmc_array: "laid out with the
 * last element first"), which the trace flag functions make visible (MS-EVAL-ORDER). */
static Ev eval_array(Run *r, Term *const *x, size_t n, bool guard, Term **out)
{
    if (n > 1)
        use(r, U_EVAL_ORDER);
    for (size_t i = n; i-- > 0;) {
        Ev e = eval(r, x[i], guard, &out[i]);
        if (e != EV_OK)
            return e;
    }
    return EV_OK;
}

/* andalso / orelse: left to right; every argument but the last must be a boolean, and the
 * last one's value is the result (a non-boolean before it fails; in a body: 'EXIT'). */
static Ev short_circuit(Run *r, bool andalso, Term *const *argx, size_t n, bool guard, Term **out)
{
    for (size_t i = 0; i < n; i++) {
        Ev e = eval(r, argx[i], guard, out);
        if (e != EV_OK || i == n - 1)
            return e;
        if (term_is_atom(*out, andalso ? "false" : "true"))
            return EV_OK;
        if (!is_bool(*out))
            return EV_FAIL;
    }
    return EV_OK; /* not reached: n >= 1 (ms_validate) */
}

/* ---- the functions with effects on the process (MS-TRACE-FLAGS, MS-SEQ-TRACE, ...) ---- */

/* The flag bits a trace flag atom stands for in enable_trace/disable_trace/trace, or 0 for a
 * term that is none (erts_trace_flag2bit: every flag of erlang:trace/3 but cpu_timestamp). */
static FlagSet flag_bits(const Term *t)
{
    Flag f;
    if (t->kind != TK_ATOM || flag_lookup(t->u.name, &f) != 1 || f == FL_CPU_TIMESTAMP)
        return 0;
    return flags_expand(f);
}

/* Whether item is a tracer term erts_term_to_tracer(am_tracer, Item) accepts: {tracer, Pid} or
 * {tracer, Port} (the tracer process or port), {tracer, Module, State} with an atom Module. */
static bool is_tracer_item(const Term *item)
{
    if (item->kind != TK_TUPLE || item->u.tuple.n < 2 || !term_is_atom(item->u.tuple.el[0], "tracer"))
        return false;
    const Term *x = item->u.tuple.el[1];
    if (item->u.tuple.n == 2)
        return (x->kind == TK_PID || x->kind == TK_PORT) && !term_is_external(x);
    return item->u.tuple.n == 3 && x->kind == TK_ATOM;
}

/* The flags of a list given to trace/2,3 (erts_trace_flags); EV_FAIL for a list that is
 * improper or holds anything else. A tracer item replaces the tracer found so far in *tracer
 * (MS-TRACE-FLAGS-TRACER): any other tuple is no tracer term (erts_term_to_tracer gives
 * THE_NON_VALUE), and the list fails. */
static Ev flag_list(const Term *l, FlagSet *out, const Term **tracer)
{
    *out = 0;
    if (term_list_length(l) < 0)
        return EV_FAIL;
    for (; l->kind == TK_CONS; l = l->u.cons.tail) {
        const Term *item = l->u.cons.head;
        if (item->kind == TK_TUPLE) {
            if (!is_tracer_item(item))
                return EV_FAIL;
            *tracer = item;
            continue;
        }
        FlagSet bits = flag_bits(item);
        if (!bits)
            return EV_FAIL; /* cpu_timestamp too: erl_db_util.c, matchTrace2 */
        *out |= bits;
    }
    return EV_OK;
}

/* enable_trace/1,2, disable_trace/1,2 and trace/2,3 on evaluated arguments: the hook changes
 * the flags; true, false (trace/2,3: nothing changed) or a failure. */
static Ev trace_flags(Run *r, const char *name, Term *const *v, size_t n, Term **out)
{
    use(r, U_TRACE_FLAGS);
    const Term *target = NULL, *tracer = NULL;
    FlagSet disable = 0, enable = 0;
    bool trace = strcmp(name, "trace") == 0;
    bool fails;
    if (trace) {
        if (n == 3)
            target = v[0];
        /* matchTrace2/3: the Disable list is read first, then Enable, into one tracer */
        fails = flag_list(v[n - 2], &disable, &tracer) != EV_OK || flag_list(v[n - 1], &enable, &tracer) != EV_OK;
    } else {
        if (n == 2)
            target = v[0];
        FlagSet bits = flag_bits(v[n - 1]);
        fails = !bits;
        *(name[0] == 'e' ? &enable : &disable) = bits;
    }
    /* get_proc finds no process for a term that is no pid or atom */
    fails |= target && target->kind != TK_PID && target->kind != TK_ATOM;
    if (!r->call->hooks) {
        if (fails)
            return EV_FAIL;
        r->unsupported = "a trace flag function in this match spec is";
        return EV_UNSUPPORTED;
    }
    const char *why = NULL;
    const MsTraceChange change = {target, tracer, disable, enable, trace, fails};
    switch (r->call->hooks->trace_flags(r->call->hooks->ctx, &change, &why)) {
    case MSE_TRUE: *out = boolean(r, true); return EV_OK;
    case MSE_FALSE: *out = boolean(r, false); return EV_OK;
    case MSE_FAIL: return EV_FAIL;
    default: r->unsupported = why; return EV_UNSUPPORTED;
    }
}

/* is_seq_trace, get_seq_token and set_seq_token (MS-SEQ-TRACE, MS-SET-SEQ-TOKEN): the token as
 * the hook tells it (set first for set_seq_token, whose value is true: erts_seq_trace without a
 * result to build), or as the call says when no hook can (a token holder: no form to state). */
static Ev seq_token_fn(Run *r, const char *name, Term *const *v, Term **out)
{
    use(r, U_SEQ);
    bool set = name[0] == 's';
    if (set && !is_seq_component(v[0]->u.name)) /* is_bad_seq_component: set_token/2 raises */
        return EV_FAIL;
    Term *token = NULL;
    const char *what = "the value of {get_seq_token} with a token (its internal form) is";
    MsEffect e = r->call->hooks && r->call->hooks->seq_token
                     ? r->call->hooks->seq_token(r->call->hooks->ctx, set ? v[0]->u.name : NULL, set ? v[1] : NULL,
                                                 &token, &what)
                     : (r->call->seq_token ? MSE_UNSUPPORTED : MSE_TRUE);
    if (name[0] == 'i') {
        *out = boolean(r, e == MSE_UNSUPPORTED || token);
        return EV_OK;
    }
    if (e == MSE_UNSUPPORTED) {
        r->unsupported = what;
        return EV_UNSUPPORTED;
    }
    *out = set ? boolean(r, true) : token ? token : term_nil(r->a);
    return EV_OK;
}

static bool is_process_fn(const char *name)
{
    static const char *const names[] = {"display", "process_dump", "is_seq_trace", "get_seq_token",
                                        "enable_trace", "disable_trace", "trace", "get_tcw", "set_tcw",
                                        "set_seq_token"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(name, names[i]) == 0)
            return true;
    return false;
}

/* {set_seq_token, Component, Value} run by erlang:match_spec_test/3: the test's seq_trace_fake
 * gives what seq_trace_info(Component) gives the caller and sets nothing (MS-TEST-NO-EFFECT);
 * outside a test only a component no token has gets here, which fails (is_bad_seq_component). */
static Ev test_seq_component(Run *r, const Term *component, Term **out)
{
    use(r, U_SEQ);
    for (const Term *l = r->call->test_seq_info; l && l->kind == TK_CONS; l = l->u.cons.tail)
        if (term_compare(l->u.cons.head->u.tuple.el[0], component) == 0) {
            *out = l->u.cons.head->u.tuple.el[1];
            return EV_OK;
        }
    return EV_FAIL;
}

/* The functions that see or change the process or the node rather than compute a value
 * (is_process_fn): display, process_dump, is_seq_trace, get_seq_token, set_seq_token with a bad
 * component, the trace control word and the trace flag functions. */
static Ev process_fn(Run *r, const char *name, Term *const *v, size_t n, Term **out)
{
    if (strcmp(name, "display") == 0) { /* prints the term on the node's stdout: true */
        use(r, U_DISPLAY);
        *out = boolean(r, true);
        return EV_OK;
    }
    if (strcmp(name, "process_dump") == 0) {
        use(r, U_PROCESS_DUMP);
        r->unsupported = "the value of {process_dump} (a text the documents leave undefined) is";
        return EV_UNSUPPORTED;
    }
    if (strcmp(name, "set_seq_token") == 0 && r->call->test_seq_info) /* match_spec_test/3: MS-TEST-NO-EFFECT */
        return test_seq_component(r, v[0], out);
    if (strcmp(name, "is_seq_trace") == 0 || strcmp(name, "get_seq_token") == 0 || strcmp(name, "set_seq_token") == 0)
        return seq_token_fn(r, name, v, out);
    if (strcmp(name, "get_tcw") == 0 || strcmp(name, "set_tcw") == 0) {
        use(r, U_TCW);
        if (!r->call->tcw) {
            r->unsupported = "the trace control word in this match spec is";
            return EV_UNSUPPORTED;
        }
        long long old = *r->call->tcw;
        if (name[0] == 's') { /* db_set_trace_control_word_1: a 32-bit unsigned integer */
            if (v[0]->kind != TK_INT || v[0]->u.i < 0 || v[0]->u.i > 0xffffffffLL)
                return EV_FAIL;
            if (!r->call->test_seq_info) /* the test's set_tcw_fake checks N and sets nothing */
                *r->call->tcw = v[0]->u.i;
        }
        *out = integer(r, old);
        return EV_OK;
    }
    return trace_flags(r, name, v, n, out); /* enable_trace, disable_trace, trace */
}

/* {caller_line}: {M,F,A,{File,Line}} of the caller, undefined without one (MS-CALLER-LINE). */
static Ev caller_line(Run *r, Term **out)
{
    use(r, U_CALLER_LINE);
    const Term *caller = r->call->caller;
    if (!caller || caller->kind != TK_TUPLE) { /* none, or a spawned child's entry point's undefined */
        *out = atom(r, "undefined");
        return EV_OK;
    }
    if (!r->call->caller_line) {
        r->unsupported = "the value of {caller_line} in a function called from the harness's own code (its file "
                         "and line are in no document: call it from a fixture function, C-570) is";
        return EV_UNSUPPORTED;
    }
    const char *module = caller->u.tuple.el[0]->u.name, *ext = ".erl";
    size_t n = strlen(module), len = n + strlen(ext);
    Term **chars = arena_alloc(r->a, len * sizeof *chars); /* the file name, a string */
    for (size_t i = 0; i < len; i++)
        chars[i] = integer(r, (unsigned char)(i < n ? module[i] : ext[i - n]));
    Term *location[2] = {term_list(r->a, len, chars), integer(r, r->call->caller_line)};
    Term *el[4] = {caller->u.tuple.el[0], caller->u.tuple.el[1], caller->u.tuple.el[2], term_tuple(r->a, 2, location)};
    *out = term_tuple(r->a, 4, el);
    return EV_OK;
}

/* A call {F, Arg...} of a supported function; guard says which context it runs in. */
static Ev eval_call(Run *r, const Term *x, bool guard, Term **out)
{
    const char *name = x->u.tuple.el[0]->u.name;
    size_t n = x->u.tuple.n - 1;
    Term *const *argx = x->u.tuple.el + 1;
    if (strcmp(name, "const") == 0) {
        use(r, U_CONST);
        *out = argx[0];
        return EV_OK;
    }
    if (strcmp(name, "self") == 0) {
        use(r, U_SELF);
        *out = (Term *)r->call->self;
        return EV_OK;
    }
    if (strcmp(name, "caller") == 0) {
        use(r, U_CALLER);
        *out = r->call->caller ? (Term *)r->call->caller : atom(r, "undefined");
        return EV_OK;
    }
    if (strcmp(name, "caller_line") == 0)
        return caller_line(r, out);
    if (is_process_fn(name)) {
        Term *v[3];
        Ev e = eval_array(r, argx, n, guard, v);
        return e != EV_OK ? e : process_fn(r, name, v, n, out);
    }
    bool boolean_op = strcmp(name, "and") == 0 || strcmp(name, "or") == 0 || strcmp(name, "not") == 0 ||
                      strcmp(name, "xor") == 0 || strcmp(name, "andalso") == 0 || strcmp(name, "orelse") == 0;
    if (boolean_op)
        use(r, U_BOOL);
    else if (strncmp(name, "is_", 3) == 0)
        use(r, U_TYPE);
    else if (strchr("<=>/", name[0]))
        use(r, U_COMPARE);
    else if (strcmp(name, "node") != 0)
        use(r, U_ARITH);
    if (strcmp(name, "andalso") == 0 || strcmp(name, "orelse") == 0)
        return short_circuit(r, name[0] == 'a', argx, n, guard, out);
    Term *v[3];
    Term **vs = n <= 3 ? v : arena_alloc(r->a, n * sizeof(Term *));
    Ev e = eval_array(r, argx, n, guard, vs);
    if (e != EV_OK)
        return e;
    if (strcmp(name, "and") == 0 || strcmp(name, "or") == 0) {
        /* every argument is evaluated and must be a boolean */
        bool and_ = name[0] == 'a', acc = and_;
        for (size_t i = 0; i < n; i++) {
            if (!is_bool(vs[i]))
                return EV_FAIL;
            bool b = term_is_atom(vs[i], "true");
            acc = and_ ? acc && b : acc || b;
        }
        *out = boolean(r, acc);
        return EV_OK;
    }
    if (strcmp(name, "not") == 0 || strcmp(name, "xor") == 0) {
        for (size_t i = 0; i < n; i++)
            if (!is_bool(vs[i]))
                return EV_FAIL;
        bool a = term_is_atom(vs[0], "true");
        *out = boolean(r, n == 1 ? !a : a != term_is_atom(vs[1], "true"));
        return EV_OK;
    }
    if (strcmp(name, "node") == 0) {
        use(r, U_NODE);
        if (n == 1 && vs[0]->kind != TK_PID)
            return EV_FAIL;
        *out = atom(r, "nonode@nohost"); /* the harness's nodes are not distributed */
        return EV_OK;
    }
    if (n == 1)
        return bif1(r, name, vs[0], out);
    if (n == 3)
        return strcmp(name, "is_record") == 0 ? is_record(r, vs, out) : binary_part(r, vs[0], vs[1], vs[2], out);
    return bif2(r, name, vs[0], vs[1], out);
}

/* The map erts builds of m keys and values (matchMkFlatMap: in the order of the spec's map,
 * whose keys are sorted) with erts_usort_flatmap of OTP 25 to 29 (erl_map.c): an insertion
 * sort that drops the earlier of two equal keys by moving the entries after it down one place,
 * but moves only as many as follow the entry being inserted, not as many as follow the equal
 * one, so that an entry in between is doubled and the last ones are lost (C-445). The keys
 * compare in term order, atoms by name (OTP 26 and later compare two atoms by their index in
 * the atom table, which no document fixes: the model takes the order of their names). */
static Term *faulty_flatmap(Run *r, size_t m, Term **k, Term **v)
{
    size_t size = m;
    bool collided = false;
    for (size_t i = 1; i < size; i++) {
        for (size_t j = i; j > 0; j--) {
            int c = term_compare(k[j], k[j - 1]);
            if (c > 0)
                break;
            if (c == 0) {
                collided = true;
                memmove(k + j - 1, k + j, (size - i) * sizeof *k);
                memmove(v + j - 1, v + j, (size - i) * sizeof *v);
                size--;
                i--;
                break;
            }
            Term *key = k[j], *val = v[j];
            k[j] = k[j - 1];
            v[j] = v[j - 1];
            k[j - 1] = key;
            v[j - 1] = val;
        }
    }
    r->keys_collided |= collided;
    return collided ? term_map_with_duplicates(r->a, size, k, v) : term_map(r->a, size, k, v);
}

/* Evaluates a guard or body expression. In a body (guard false), a failing function call
 * gives the atom 'EXIT' in its place instead of failing (MS-BODY-EXIT). */
static Ev eval(Run *r, const Term *x, bool guard, Term **out)
{
    long n = var_number(x);
    if (n >= 0) {
        *out = (Term *)binding(r, n);
        return EV_OK;
    }
    switch (x->kind) {
    case TK_ATOM:
        if (strcmp(x->u.name, "$_") == 0) {
            use(r, U_DOLLAR_UNDERSCORE);
            *out = (Term *)r->call->args;
        } else if (strcmp(x->u.name, "$$") == 0) {
            use(r, U_DOLLAR_DOLLAR);
            *out = all_bindings(r);
        } else {
            *out = (Term *)x;
        }
        return EV_OK;
    case TK_CONS: { /* the heads in order, then the tail, each cell built as its head is known */
        Term **end = out;
        Ev e = EV_OK;
        for (; e == EV_OK && x->kind == TK_CONS; x = x->u.cons.tail) {
            Term *h;
            e = eval(r, x->u.cons.head, guard, &h);
            if (e == EV_OK) {
                *end = term_cons(r->a, h, NULL);
                end = &(*end)->u.cons.tail;
            }
        }
        return e == EV_OK ? eval(r, x, guard, end) : e;
    }
    case TK_MAP: {
        size_t m = x->u.map.n;
        Term **k = arena_alloc(r->a, (m + 1) * sizeof(Term *));
        Term **v = arena_alloc(r->a, (m + 1) * sizeof(Term *));
        if (m > 1)
            use(r, U_EVAL_ORDER);
        for (size_t i = m; i-- > 0;) { /* MS-EVAL-ORDER: dmc_map, the values last first */
            Ev e = eval(r, x->u.map.key[i], guard, &k[i]);
            if (e == EV_OK)
                e = eval(r, x->u.map.val[i], guard, &v[i]);
            if (e != EV_OK)
                return e;
        }
        *out = r->call->faulty_map_usort && m <= MS_FLATMAP_MAX ? faulty_flatmap(r, m, k, v)
                                                                 : term_map(r->a, m, k, v);
        return EV_OK;
    }
    case TK_TUPLE: {
        if (x->u.tuple.n == 1 && x->u.tuple.el[0]->kind == TK_TUPLE) { /* {{E...}} */
            const Term *in = x->u.tuple.el[0];
            Term **el = arena_alloc(r->a, (in->u.tuple.n + 1) * sizeof(Term *));
            Ev e = eval_array(r, in->u.tuple.el, in->u.tuple.n, guard, el);
            if (e != EV_OK)
                return e;
            use(r, U_CONST);
            *out = term_tuple(r->a, in->u.tuple.n, el);
            return EV_OK;
        }
        Ev e = eval_call(r, x, guard, out);
        if (e == EV_FAIL && !guard) {
            use(r, U_BODY_EXIT);
            *out = atom(r, "EXIT");
            return EV_OK;
        }
        return e;
    }
    default:
        *out = (Term *)x;
        return EV_OK;
    }
}

/* Guards: each must evaluate to true; a failure or another value fails the clause. */
static Ev guards_pass(Run *r, const Term *guards, bool *pass)
{
    *pass = true;
    for (const Term *g = guards; g->kind == TK_CONS; g = g->u.cons.tail) {
        use(r, U_GUARD);
        Term *v;
        Ev e = eval(r, g->u.cons.head, true, &v);
        if (e == EV_UNSUPPORTED)
            return e;
        if (e == EV_FAIL || !term_is_atom(v, "true")) {
            use(r, U_GUARD_FAIL);
            *pass = false;
            return EV_OK;
        }
    }
    return EV_OK;
}

/* The body of the matching clause: actions in order; other expressions only evaluated. */
static Ev run_body(Run *r, const Term *body, MsOutcome *o)
{
    for (const Term *b = body; b->kind == TK_CONS; b = b->u.cons.tail) {
        const Term *x = b->u.cons.head;
        const char *fn = x->kind == TK_TUPLE && x->u.tuple.n > 0 && x->u.tuple.el[0]->kind == TK_ATOM
                             ? x->u.tuple.el[0]->u.name : "";
        if (strcmp(fn, "return_trace") == 0) {
            o->return_trace = true;
            continue;
        }
        if (strcmp(fn, "exception_trace") == 0) {
            o->exception_trace = true;
            continue;
        }
        if (strcmp(fn, "process_dump") == 0) { /* its text goes nowhere: MS-PROCESS-DUMP */
            use(r, U_PROCESS_DUMP);
            continue;
        }
        Term *v;
        bool action = strcmp(fn, "message") == 0 || strcmp(fn, "silent") == 0;
        if (!action || (strcmp(fn, "message") == 0 && o->message))
            use(r, U_BODY_VALUE); /* an expression with no effect, or a message that overrides */
        Ev e = eval(r, action ? x->u.tuple.el[1] : x, false, &v);
        if (e != EV_OK)
            return e;
        if (strcmp(fn, "message") == 0)
            o->message = v; /* the last {message,X} wins */
        else if (action && is_bool(v))
            o->silent = term_is_atom(v, "true"); /* a non-boolean silent does nothing */
    }
    return EV_OK;
}

MsOutcome ms_run(Arena *a, const Term *ms, const MsCall *call)
{
    MsOutcome o = {.silent = -1, .rules = ""};
    if (term_is_atom(ms, "true") || ms->kind == TK_NIL) {
        o.matched = true;
        o.rules = ms->kind == TK_NIL ? used_rule[U_EMPTY] : "";
        return o;
    }
    Run *r = arena_alloc(a, sizeof *r);
    memset(r, 0, sizeof *r);
    r->a = a;
    r->call = call;
    Ev e = EV_OK;
    for (const Term *c = ms; c->kind == TK_CONS && e == EV_OK && !o.matched; c = c->u.cons.tail) {
        const Term *cl = c->u.cons.head;
        if (c != ms || c->u.cons.tail->kind == TK_CONS)
            use(r, U_CLAUSE_ORDER); /* more than one clause: the order decides */
        bool pass;
        if (!head_matches(r, cl->u.tuple.el[0]))
            continue;
        e = guards_pass(r, cl->u.tuple.el[1], &pass);
        if (e == EV_OK && pass) {
            o.matched = true;
            e = run_body(r, cl->u.tuple.el[2], &o);
        }
    }
    if (e == EV_UNSUPPORTED)
        o.unsupported = r->unsupported;
    o.keys_collided = r->keys_collided;
    Buf b;
    buf_init(&b);
    for (int u = 0; u < U_COUNT; u++)
        if (r->used & (1u << u))
            buf_printf(&b, "%s%s", b.len ? " " : "", used_rule[u]);
    o.rules = arena_strndup(a, buf_str(&b), b.len);
    buf_free(&b);
    return o;
}

bool ms_message_false(const MsOutcome *o)
{
    return o->message && term_is_atom(o->message, "false");
}

const Term *ms_message_result(const MsOutcome *o)
{
    return o->message && !term_is_atom(o->message, "true") ? o->message : NULL;
}
