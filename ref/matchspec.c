/* matchspec.c - heads '_' or lists of '_'/literals, no guards, {message,X}, {return_trace}. */
#include "matchspec.h"

#include <stdio.h>
#include <string.h>

/* A literal must not contain match variables or wildcards ('$1', '_'), which v1 does not do. */
static bool literal_ok(const Term *t)
{
    switch (t->kind) {
    case TK_ATOM:
        return t->u.name[0] != '$' && strcmp(t->u.name, "_") != 0;
    case TK_TUPLE:
        for (size_t i = 0; i < t->u.tuple.n; i++)
            if (!literal_ok(t->u.tuple.el[i]))
                return false;
        return true;
    case TK_MAP:
        for (size_t i = 0; i < t->u.map.n; i++)
            if (!literal_ok(t->u.map.key[i]) || !literal_ok(t->u.map.val[i]))
                return false;
        return true;
    case TK_CONS:
        return literal_ok(t->u.cons.head) && literal_ok(t->u.cons.tail);
    case TK_PID:
        return false; /* pids differ per run; not in v1 heads */
    default:
        return true;
    }
}

static bool is_pair(const Term *t, const char *first)
{
    return t->kind == TK_TUPLE && t->u.tuple.n == 2 && term_is_atom(t->u.tuple.el[0], first);
}

/* Functions a match spec body may call; v1 models none of them. */
static const char *const ms_functions[] = {
    "is_atom", "is_float", "is_integer", "is_list", "is_number", "is_pid", "is_port",
    "is_reference", "is_tuple", "is_map", "is_map_key", "is_binary", "is_function", "is_record",
    "abs", "element", "hd", "length", "map_get", "map_size", "node", "round", "size", "bit_size",
    "byte_size", "tl", "trunc", "binary_part", "and", "or", "not", "xor", "andalso", "orelse",
    "+", "-", "*", "div", "rem", "band", "bor", "bxor", "bnot", "bsl", "bsr", ">", ">=", "<",
    "=<", "=:=", "==", "=/=", "/=", "self", "float", "get_tcw", "set_tcw", "caller", "display",
    "set_seq_token", "get_seq_token", "is_seq_trace", "process_dump", "enable_trace",
    "disable_trace", "trace", "silent", "exception_trace", "return_trace", "message", "caller_line",
    "current_stacktrace",
};

/* Evaluates a match spec body expression made of constants: atoms, integers, binaries,
 * lists and maps of expressions, {const,T} and {{E...}} (tuple construction). */
static MsCheck body_value(Arena *a, const Term *x, Term **out, char *msg, size_t n)
{
    switch (x->kind) {
    case TK_ATOM:
        if (x->u.name[0] == '$' || strcmp(x->u.name, "_") == 0) {
            snprintf(msg, n, "match variables in match spec bodies are not supported by model v1");
            return MS_UNSUPPORTED;
        }
        *out = (Term *)x;
        return MS_OK;
    case TK_CONS: {
        Term *h, *t;
        MsCheck c = body_value(a, x->u.cons.head, &h, msg, n);
        if (c == MS_OK)
            c = body_value(a, x->u.cons.tail, &t, msg, n);
        if (c == MS_OK)
            *out = term_cons(a, h, t);
        return c;
    }
    case TK_MAP: {
        Term **k = arena_alloc(a, (x->u.map.n + 1) * sizeof(Term *));
        Term **v = arena_alloc(a, (x->u.map.n + 1) * sizeof(Term *));
        for (size_t i = 0; i < x->u.map.n; i++) {
            MsCheck c = body_value(a, x->u.map.key[i], &k[i], msg, n);
            if (c == MS_OK)
                c = body_value(a, x->u.map.val[i], &v[i], msg, n);
            if (c != MS_OK)
                return c;
        }
        *out = term_map(a, x->u.map.n, k, v);
        return MS_OK;
    }
    case TK_TUPLE: {
        const Term *inner = x->u.tuple.n == 1 ? x->u.tuple.el[0] : NULL;
        if (inner && inner->kind == TK_TUPLE) { /* {{E...}} constructs a tuple */
            Term **el = arena_alloc(a, (inner->u.tuple.n + 1) * sizeof(Term *));
            for (size_t i = 0; i < inner->u.tuple.n; i++) {
                MsCheck c = body_value(a, inner->u.tuple.el[i], &el[i], msg, n);
                if (c != MS_OK)
                    return c;
            }
            *out = term_tuple(a, inner->u.tuple.n, el);
            return MS_OK;
        }
        if (x->u.tuple.n == 2 && term_is_atom(x->u.tuple.el[0], "const")) {
            *out = x->u.tuple.el[1];
            return MS_OK;
        }
        if (x->u.tuple.n > 0 && x->u.tuple.el[0]->kind == TK_ATOM)
            for (size_t i = 0; i < sizeof ms_functions / sizeof ms_functions[0]; i++)
                if (strcmp(ms_functions[i], x->u.tuple.el[0]->u.name) == 0) {
                    snprintf(msg, n, "match spec function %s is not supported by model v1",
                             ms_functions[i]);
                    return MS_UNSUPPORTED;
                }
        return MS_INVALID; /* a call of something that is no match spec function */
    }
    case TK_PID:
        snprintf(msg, n, "pids in match specs are not supported by model v1");
        return MS_UNSUPPORTED;
    default:
        *out = (Term *)x;
        return MS_OK;
    }
}

static MsCheck action_check(Arena *a, const Term *act, char *msg, size_t n)
{
    if (act->kind == TK_TUPLE && act->u.tuple.n == 1 && term_is_atom(act->u.tuple.el[0], "return_trace"))
        return MS_OK;
    if (is_pair(act, "message")) {
        Term *v;
        return body_value(a, act->u.tuple.el[1], &v, msg, n);
    }
    MsCheck c = body_value(a, act, &(Term *){NULL}, msg, n);
    if (c == MS_OK) {
        snprintf(msg, n, "match spec body actions other than {message,X} and {return_trace} are "
                         "not supported by model v1");
        return MS_UNSUPPORTED;
    }
    return c;
}

static MsCheck clause_check(Arena *a, const Term *c, char *msg, size_t n)
{
    if (c->kind != TK_TUPLE || c->u.tuple.n != 3) {
        snprintf(msg, n, "match spec clause must be {Head,Guards,Body}");
        return MS_UNSUPPORTED;
    }
    const Term *head = c->u.tuple.el[0], *guards = c->u.tuple.el[1], *body = c->u.tuple.el[2];
    if (!term_is_atom(head, "_")) {
        if (term_list_length(head) < 0) {
            snprintf(msg, n, "match spec head must be '_' or a list in model v1");
            return MS_UNSUPPORTED;
        }
        for (const Term *h = head; h->kind == TK_CONS; h = h->u.cons.tail)
            if (!term_is_atom(h->u.cons.head, "_") && !literal_ok(h->u.cons.head)) {
                snprintf(msg, n, "match spec head elements must be '_' or literals in model v1");
                return MS_UNSUPPORTED;
            }
    }
    if (guards->kind != TK_NIL) {
        snprintf(msg, n, "match spec guards are not supported by model v1");
        return MS_UNSUPPORTED;
    }
    if (term_list_length(body) < 0) {
        snprintf(msg, n, "match spec body must be a list");
        return MS_UNSUPPORTED;
    }
    for (const Term *b = body; b->kind == TK_CONS; b = b->u.cons.tail) {
        MsCheck r = action_check(a, b->u.cons.head, msg, n);
        if (r != MS_OK)
            return r;
    }
    return MS_OK;
}

MsCheck ms_validate(Arena *a, const Term *ms, char *msg, size_t n)
{
    if (term_is_atom(ms, "true") || term_is_atom(ms, "false"))
        return MS_OK;
    if (term_list_length(ms) < 0) {
        snprintf(msg, n, "match spec must be true, false or a list of clauses");
        return MS_UNSUPPORTED;
    }
    MsCheck worst = MS_OK;
    for (const Term *c = ms; c->kind == TK_CONS; c = c->u.cons.tail) {
        MsCheck r = clause_check(a, c->u.cons.head, msg, n);
        if (r == MS_UNSUPPORTED)
            return r;
        if (r == MS_INVALID)
            worst = MS_INVALID;
    }
    return worst;
}

static bool head_matches(const Term *head, const Term *args)
{
    if (term_is_atom(head, "_"))
        return true;
    if (term_list_length(head) != term_list_length(args))
        return false;
    for (; head->kind == TK_CONS; head = head->u.cons.tail, args = args->u.cons.tail)
        if (!term_is_atom(head->u.cons.head, "_") && term_compare(head->u.cons.head, args->u.cons.head) != 0)
            return false;
    return true;
}

MsOutcome ms_run(Arena *a, const Term *ms, const Term *args)
{
    MsOutcome o = {0};
    if (term_is_atom(ms, "true") || ms->kind == TK_NIL) {
        o.matched = true;
        return o;
    }
    for (const Term *c = ms; c->kind == TK_CONS; c = c->u.cons.tail) {
        const Term *cl = c->u.cons.head;
        if (!head_matches(cl->u.tuple.el[0], args))
            continue;
        o.matched = true;
        for (const Term *b = cl->u.tuple.el[2]; b->kind == TK_CONS; b = b->u.cons.tail) {
            const Term *act = b->u.cons.head;
            if (act->u.tuple.n == 1) {
                o.return_trace = true;
                continue;
            }
            Term *x;
            char msg[8];
            body_value(a, act->u.tuple.el[1], &x, msg, sizeof msg);
            o.has_message = true; /* the last {message,X} wins */
            o.suppress = term_is_atom(x, "false");
            o.result = (term_is_atom(x, "true") || o.suppress) ? NULL : x;
        }
        return o;
    }
    return o;
}
