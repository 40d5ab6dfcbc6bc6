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

static bool action_ok(const Term *a)
{
    if (a->kind == TK_TUPLE && a->u.tuple.n == 1 && term_is_atom(a->u.tuple.el[0], "return_trace"))
        return true;
    if (is_pair(a, "message")) {
        const Term *x = a->u.tuple.el[1];
        /* only constants that mean themselves inside a match spec body */
        return (x->kind == TK_ATOM && literal_ok(x)) || x->kind == TK_INT || x->kind == TK_BIN;
    }
    return false;
}

static bool clause_ok(const Term *c, char *msg, size_t n)
{
    if (c->kind != TK_TUPLE || c->u.tuple.n != 3) {
        snprintf(msg, n, "match spec clause must be {Head,Guards,Body}");
        return false;
    }
    const Term *head = c->u.tuple.el[0], *guards = c->u.tuple.el[1], *body = c->u.tuple.el[2];
    if (!term_is_atom(head, "_")) {
        if (term_list_length(head) < 0) {
            snprintf(msg, n, "match spec head must be '_' or a list in model v1");
            return false;
        }
        for (const Term *h = head; h->kind == TK_CONS; h = h->u.cons.tail)
            if (!term_is_atom(h->u.cons.head, "_") && !literal_ok(h->u.cons.head)) {
                snprintf(msg, n, "match spec head elements must be '_' or literals in model v1");
                return false;
            }
    }
    if (guards->kind != TK_NIL) {
        snprintf(msg, n, "match spec guards are not supported by model v1");
        return false;
    }
    if (term_list_length(body) < 0) {
        snprintf(msg, n, "match spec body must be a list");
        return false;
    }
    for (const Term *b = body; b->kind == TK_CONS; b = b->u.cons.tail)
        if (!action_ok(b->u.cons.head)) {
            snprintf(msg, n, "match spec body actions other than {message,Constant} and "
                             "{return_trace} are not supported by model v1");
            return false;
        }
    return true;
}

bool ms_validate(const Term *ms, char *msg, size_t n)
{
    if (term_is_atom(ms, "true") || term_is_atom(ms, "false"))
        return true;
    if (term_list_length(ms) < 0) {
        snprintf(msg, n, "match spec must be true, false or a list of clauses");
        return false;
    }
    for (const Term *c = ms; c->kind == TK_CONS; c = c->u.cons.tail)
        if (!clause_ok(c->u.cons.head, msg, n))
            return false;
    return true;
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

MsOutcome ms_run(const Term *ms, const Term *args)
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
            const Term *a = b->u.cons.head;
            if (a->u.tuple.n == 1) {
                o.return_trace = true;
                continue;
            }
            const Term *x = a->u.tuple.el[1];
            o.has_message = true; /* the last {message,X} wins */
            o.suppress = term_is_atom(x, "false");
            o.result = (term_is_atom(x, "true") || o.suppress) ? NULL : x;
        }
        return o;
    }
    return o;
}
