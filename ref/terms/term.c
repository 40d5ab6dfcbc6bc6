/* term.c - construction and Erlang term order. */
#include "term.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static Term *mk(Arena *a, TermKind k)
{
    Term *t = arena_alloc(a, sizeof *t);
    t->kind = k;
    return t;
}

Term *term_int(Arena *a, long long i)
{
    Term *t = mk(a, TK_INT);
    t->u.i = i;
    return t;
}

Term *term_integer(Arena *a, bool neg, size_t n, const uint64_t *digit)
{
    while (n > 1 && digit[n - 1] == 0)
        n--;
    uint64_t low = digit[0];
    if (n == 1 && (neg ? low <= (uint64_t)1 << 63 : low <= (uint64_t)LLONG_MAX))
        return term_int(a, neg ? (long long)(0 - low) : (long long)low); /* 0 - 2^63 is LLONG_MIN */
    Term *t = mk(a, TK_BIGINT);
    uint64_t *copy = arena_alloc(a, n * sizeof *copy);
    memcpy(copy, digit, n * sizeof *copy);
    t->u.big.neg = neg;
    t->u.big.n = n;
    t->u.big.digit = copy;
    return t;
}

bool term_is_integer(const Term *t) { return t->kind == TK_INT || t->kind == TK_BIGINT; }

/* A term whose value is a name: atom, pid, port, placeholder. */
static Term *named(Arena *a, TermKind kind, const char *name)
{
    Term *t = mk(a, kind);
    t->u.name = arena_strndup(a, name, strlen(name));
    return t;
}

Term *term_atom(Arena *a, const char *name) { return named(a, TK_ATOM, name); }

Term *term_pid(Arena *a, const char *name) { return named(a, TK_PID, name); }

Term *term_port(Arena *a, const char *name) { return named(a, TK_PORT, name); }

Term *term_placeholder(Arena *a, const char *text) { return named(a, TK_PLACEHOLDER, text); }

Term *term_nil(Arena *a) { return mk(a, TK_NIL); }

Term *term_ref(Arena *a) { return mk(a, TK_REF); }

/* What an atomics reference's name holds (a make_ref()'s is NULL). */
static const char ATOMICS[] = "atomics";

Term *term_atomics(Arena *a)
{
    Term *t = mk(a, TK_REF);
    t->u.name = ATOMICS;
    return t;
}

bool term_is_atomics(const Term *t) { return t->kind == TK_REF && t->u.name == ATOMICS; }

/* The name of an external pid or port: no scenario name starts with '$'. */
static const char EXTERNAL[] = "$external";

Term *term_external(Arena *a, TermKind kind) { return named(a, kind, EXTERNAL); }

bool term_is_external(const Term *t)
{
    return (t->kind == TK_PID || t->kind == TK_PORT) && strcmp(t->u.name, EXTERNAL) == 0;
}

Term *term_fun(Arena *a, const Term *body)
{
    Term *t = mk(a, TK_FUN);
    t->u.fun_body = body;
    return t;
}

const Term *term_find_opaque(const Term *t)
{
    const Term *found = NULL;
    switch (t->kind) {
    case TK_REF:
    case TK_FUN:
        return t;
    case TK_PID:
    case TK_PORT:
        return term_is_external(t) ? t : NULL;
    case TK_TUPLE:
        for (size_t i = 0; !found && i < t->u.tuple.n; i++)
            found = term_find_opaque(t->u.tuple.el[i]);
        return found;
    case TK_MAP:
        for (size_t i = 0; !found && i < t->u.map.n; i++) {
            found = term_find_opaque(t->u.map.key[i]);
            if (!found)
                found = term_find_opaque(t->u.map.val[i]);
        }
        return found;
    case TK_CONS: /* along the tail, not down it: a list may be a million cells long */
        for (; !found && t->kind == TK_CONS; t = t->u.cons.tail)
            found = term_find_opaque(t->u.cons.head);
        return found ? found : term_find_opaque(t);
    default:
        return NULL;
    }
}

Term *term_cons(Arena *a, Term *head, Term *tail)
{
    Term *t = mk(a, TK_CONS);
    t->u.cons.head = head;
    t->u.cons.tail = tail;
    return t;
}

Term *term_tuple(Arena *a, size_t n, Term *const *el)
{
    Term *t = mk(a, TK_TUPLE);
    t->u.tuple.n = n;
    t->u.tuple.el = arena_alloc(a, (n ? n : 1) * sizeof(Term *));
    for (size_t i = 0; i < n; i++)
        t->u.tuple.el[i] = el[i];
    return t;
}

Term *term_tuple3(Arena *a, Term *x, Term *y, Term *z)
{
    Term *el[3] = {x, y, z};
    return term_tuple(a, z ? 3 : 2, el);
}

Term *term_map(Arena *a, size_t n, Term *const *keys, Term *const *vals)
{
    Term *t = mk(a, TK_MAP);
    Term **k = arena_alloc(a, (n ? n : 1) * sizeof(Term *));
    Term **v = arena_alloc(a, (n ? n : 1) * sizeof(Term *));
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        /* insertion sort; an equal key replaces the earlier value */
        size_t j = 0;
        while (j < m && term_compare(k[j], keys[i]) < 0)
            j++;
        if (j < m && term_compare(k[j], keys[i]) == 0) {
            v[j] = vals[i];
            continue;
        }
        memmove(k + j + 1, k + j, (m - j) * sizeof(Term *));
        memmove(v + j + 1, v + j, (m - j) * sizeof(Term *));
        k[j] = keys[i];
        v[j] = vals[i];
        m++;
    }
    t->u.map.n = m;
    t->u.map.key = k;
    t->u.map.val = v;
    return t;
}

Term *term_map_with_duplicates(Arena *a, size_t n, Term *const *keys, Term *const *vals)
{
    Term *t = mk(a, TK_MAP);
    Term **k = arena_alloc(a, (n ? n : 1) * sizeof(Term *));
    Term **v = arena_alloc(a, (n ? n : 1) * sizeof(Term *));
    for (size_t i = 0; i < n; i++) {
        size_t j = i;
        for (; j > 0; j--) {
            int c = term_compare(k[j - 1], keys[i]);
            if (c < 0 || (c == 0 && term_compare(v[j - 1], vals[i]) <= 0))
                break;
            k[j] = k[j - 1];
            v[j] = v[j - 1];
        }
        k[j] = keys[i];
        v[j] = vals[i];
    }
    t->u.map.n = n;
    t->u.map.key = k;
    t->u.map.val = v;
    return t;
}

Term *term_bin(Arena *a, size_t n, const unsigned char *bytes)
{
    Term *t = mk(a, TK_BIN);
    t->u.bin.n = n;
    t->u.bin.bytes = arena_alloc(a, n ? n : 1);
    if (n)
        memcpy(t->u.bin.bytes, bytes, n);
    return t;
}

/* n bytes rounded up as arena_alloc rounds them: each part of a clone is max-aligned. */
static size_t aligned(size_t n)
{
    size_t align = sizeof(max_align_t);
    return (n + align - 1) / align * align;
}

/* The bytes of an array of n terms (one at least, as term_tuple and term_map allocate). */
static size_t terms_bytes(size_t n) { return (n ? n : 1) * sizeof(Term *); }

/* The bytes a clone of t takes: its terms, its arrays and its names, each aligned. */
static size_t clone_size(const Term *t)
{
    size_t n = aligned(sizeof *t);
    switch (t->kind) {
    case TK_ATOM:
    case TK_PID:
    case TK_PORT:
    case TK_PLACEHOLDER:
        return n + aligned(strlen(t->u.name) + 1);
    case TK_CONS: /* along the tail (see term_find_opaque) */
        for (; t->kind == TK_CONS; t = t->u.cons.tail)
            n += aligned(sizeof *t) + clone_size(t->u.cons.head);
        return n - aligned(sizeof *t) + clone_size(t);
    case TK_TUPLE:
        n += aligned(terms_bytes(t->u.tuple.n));
        for (size_t i = 0; i < t->u.tuple.n; i++)
            n += clone_size(t->u.tuple.el[i]);
        return n;
    case TK_MAP:
        n += 2 * aligned(terms_bytes(t->u.map.n));
        for (size_t i = 0; i < t->u.map.n; i++)
            n += clone_size(t->u.map.key[i]) + clone_size(t->u.map.val[i]);
        return n;
    case TK_BIN:
        return n + aligned(t->u.bin.n ? t->u.bin.n : 1);
    case TK_BIGINT:
        return n + aligned(t->u.big.n * sizeof *t->u.big.digit);
    case TK_FUN:
        return n + clone_size(t->u.fun_body);
    default: /* TK_INT, TK_NIL, TK_REF: the term alone (a reference's name is static) */
        return n;
    }
}

/* The next n bytes of the block a clone is made in. */
static void *clone_take(char **next, size_t n)
{
    void *p = *next;
    *next += aligned(n);
    return p;
}

/* The clone of t made at *next, which moves past it (clone_size bytes). */
static Term *clone_into(const Term *t, char **next)
{
    Term *c = clone_take(next, sizeof *c);
    *c = *t;
    switch (t->kind) {
    case TK_ATOM:
    case TK_PID:
    case TK_PORT:
    case TK_PLACEHOLDER: {
        size_t len = strlen(t->u.name) + 1;
        c->u.name = memcpy(clone_take(next, len), t->u.name, len);
        break;
    }
    case TK_CONS: /* along the tail (see term_find_opaque) */
        for (Term *cell = c;; cell = cell->u.cons.tail) {
            cell->u.cons.head = clone_into(t->u.cons.head, next);
            t = t->u.cons.tail;
            if (t->kind != TK_CONS) {
                cell->u.cons.tail = clone_into(t, next);
                break;
            }
            cell->u.cons.tail = clone_take(next, sizeof *c);
            *cell->u.cons.tail = *t;
        }
        break;
    case TK_TUPLE:
        c->u.tuple.el = clone_take(next, terms_bytes(t->u.tuple.n));
        for (size_t i = 0; i < t->u.tuple.n; i++)
            c->u.tuple.el[i] = clone_into(t->u.tuple.el[i], next);
        break;
    case TK_MAP:
        c->u.map.key = clone_take(next, terms_bytes(t->u.map.n));
        c->u.map.val = clone_take(next, terms_bytes(t->u.map.n));
        for (size_t i = 0; i < t->u.map.n; i++) {
            c->u.map.key[i] = clone_into(t->u.map.key[i], next);
            c->u.map.val[i] = clone_into(t->u.map.val[i], next);
        }
        break;
    case TK_BIN:
        c->u.bin.bytes = clone_take(next, t->u.bin.n ? t->u.bin.n : 1);
        if (t->u.bin.n)
            memcpy(c->u.bin.bytes, t->u.bin.bytes, t->u.bin.n);
        break;
    case TK_BIGINT: {
        size_t len = t->u.big.n * sizeof *t->u.big.digit;
        c->u.big.digit = memcpy(clone_take(next, len), t->u.big.digit, len);
        break;
    }
    case TK_FUN:
        c->u.fun_body = clone_into(t->u.fun_body, next);
        break;
    default:
        break;
    }
    return c;
}

Term *term_clone(const Term *t)
{
    char *block = malloc(clone_size(t));
    if (!block) {
        fputs("tcsref: out of memory\n", stderr);
        abort();
    }
    char *next = block;
    return clone_into(t, &next); /* at block: free() of it releases the whole */
}

Term *term_clone_in(Arena *a, const Term *t)
{
    char *next = arena_alloc(a, clone_size(t));
    return clone_into(t, &next);
}

Term *term_list(Arena *a, size_t n, Term *const *el)
{
    Term *t = term_nil(a);
    for (size_t i = n; i > 0; i--)
        t = term_cons(a, el[i - 1], t);
    return t;
}

Term *term_duplicate(Arena *a, size_t n, Term *el)
{
    Term *t = term_nil(a);
    while (n-- > 0)
        t = term_cons(a, el, t);
    return t;
}

Term *term_bin_copy(Arena *a, size_t n, unsigned char byte)
{
    Term *t = mk(a, TK_BIN);
    t->u.bin.n = n;
    t->u.bin.bytes = arena_alloc(a, n ? n : 1);
    memset(t->u.bin.bytes, byte, n);
    return t;
}

/* bytes + more, or cap + 1 when that passes cap. */
static size_t add_capped(size_t bytes, size_t more, size_t cap)
{
    return more > cap - bytes ? cap + 1 : bytes + more;
}

size_t term_bytes(const Term *t, size_t cap)
{
    size_t n = 0;
    switch (t->kind) {
    case TK_CONS:
        for (; n <= cap && t->kind == TK_CONS; t = t->u.cons.tail)
            n = add_capped(n, 16 + term_bytes(t->u.cons.head, cap), cap);
        return n;
    case TK_TUPLE:
        n = 8 * (t->u.tuple.n + 1);
        for (size_t i = 0; n <= cap && i < t->u.tuple.n; i++)
            n = add_capped(n, term_bytes(t->u.tuple.el[i], cap), cap);
        return n;
    case TK_MAP:
        n = 16 * (t->u.map.n + 1);
        for (size_t i = 0; n <= cap && i < t->u.map.n; i++)
            n = add_capped(n, term_bytes(t->u.map.key[i], cap) + term_bytes(t->u.map.val[i], cap), cap);
        return n;
    case TK_BIN:
        return t->u.bin.n;
    case TK_BIGINT:
        return 8 * (t->u.big.n + 1);
    case TK_FUN:
        return term_bytes(t->u.fun_body, cap);
    default: /* one word, counted in what holds it */
        return 0;
    }
}

const Term *term_duplicate_run(const Term *t, size_t *n)
{
    const Term *run = t;
    size_t len = 0;
    for (; t->kind == TK_CONS; t = t->u.cons.tail, len++)
        if (term_compare(t->u.cons.head, run->u.cons.head) != 0) {
            run = t;
            len = 0;
        }
    if (t->kind != TK_NIL || len < TERM_LONG)
        return NULL;
    *n = len;
    return run;
}

size_t term_bin_copy_length(const Term *t, unsigned char *byte)
{
    if (t->kind != TK_BIN || t->u.bin.n < TERM_LONG)
        return 0;
    *byte = t->u.bin.bytes[0];
    /* every byte equals the first iff the bytes equal themselves shifted by one */
    return memcmp(t->u.bin.bytes, t->u.bin.bytes + 1, t->u.bin.n - 1) == 0 ? t->u.bin.n : 0;
}

bool term_is_atom(const Term *t, const char *name)
{
    return t && t->kind == TK_ATOM && strcmp(t->u.name, name) == 0;
}

long term_list_length(const Term *t)
{
    long n = 0;
    for (; t->kind == TK_CONS; t = t->u.cons.tail)
        n++;
    return t->kind == TK_NIL ? n : -1;
}

static int cmp3(long long a, long long b) { return (a > b) - (a < b); }

/* Two integers by value: a TK_BIGINT lies beyond every TK_INT, on the side of its sign; two of
 * them by sign, then by their magnitudes' lengths and digits, most significant first. */
static int compare_integers(const Term *a, const Term *b)
{
    if (a->kind == TK_INT && b->kind == TK_INT)
        return cmp3(a->u.i, b->u.i);
    if (a->kind == TK_INT)
        return b->u.big.neg ? 1 : -1;
    if (b->kind == TK_INT)
        return a->u.big.neg ? -1 : 1;
    if (a->u.big.neg != b->u.big.neg)
        return a->u.big.neg ? -1 : 1;
    int magnitude = 0;
    if (a->u.big.n != b->u.big.n)
        magnitude = a->u.big.n < b->u.big.n ? -1 : 1;
    for (size_t i = a->u.big.n; magnitude == 0 && i > 0; i--)
        if (a->u.big.digit[i - 1] != b->u.big.digit[i - 1])
            magnitude = a->u.big.digit[i - 1] < b->u.big.digit[i - 1] ? -1 : 1;
    return a->u.big.neg ? -magnitude : magnitude;
}

int term_compare(const Term *a, const Term *b)
{
    while (a != b && a->kind == TK_CONS && b->kind == TK_CONS) { /* along the tails */
        int c = term_compare(a->u.cons.head, b->u.cons.head);
        if (c)
            return c;
        a = a->u.cons.tail;
        b = b->u.cons.tail;
    }
    if (a == b) /* one term, e.g. the shared element of lists:duplicate/2 */
        return 0;
    if (term_is_integer(a) && term_is_integer(b))
        return compare_integers(a, b);
    if (a->kind != b->kind)
        return cmp3(a->kind, b->kind);
    switch (a->kind) {
    case TK_INT: /* integers: compared above */
    case TK_BIGINT:
        return 0;
    case TK_ATOM: /* UTF-8 byte order equals code point order */
    case TK_PORT:
    case TK_PID:
    case TK_PLACEHOLDER: {
        int c = strcmp(a->u.name, b->u.name);
        return cmp3(c, 0);
    }
    case TK_TUPLE:
        if (a->u.tuple.n != b->u.tuple.n)
            return cmp3((long long)a->u.tuple.n, (long long)b->u.tuple.n);
        for (size_t i = 0; i < a->u.tuple.n; i++) {
            int c = term_compare(a->u.tuple.el[i], b->u.tuple.el[i]);
            if (c)
                return c;
        }
        return 0;
    case TK_MAP:
        if (a->u.map.n != b->u.map.n)
            return cmp3((long long)a->u.map.n, (long long)b->u.map.n);
        for (size_t i = 0; i < a->u.map.n; i++) {
            int c = term_compare(a->u.map.key[i], b->u.map.key[i]);
            if (c)
                return c;
        }
        for (size_t i = 0; i < a->u.map.n; i++) {
            int c = term_compare(a->u.map.val[i], b->u.map.val[i]);
            if (c)
                return c;
        }
        return 0;
    case TK_NIL:
        return 0;
    case TK_REF: /* each make_ref() of a case is a ref of its own (its print is _Ref whatever
                    the order) */
        return cmp3((long long)(a > b), (long long)(a < b));
    case TK_FUN:
        return term_compare(a->u.fun_body, b->u.fun_body);
    case TK_CONS: /* compared along the tails above */
        return 0;
    case TK_BIN: {
        size_t n = a->u.bin.n < b->u.bin.n ? a->u.bin.n : b->u.bin.n;
        int c = n ? memcmp(a->u.bin.bytes, b->u.bin.bytes, n) : 0;
        return c ? cmp3(c, 0) : cmp3((long long)a->u.bin.n, (long long)b->u.bin.n);
    }
    }
    return 0;
}

bool err_set(Err *err, int line, int col, const char *fmt, va_list ap)
{
    err->line = line;
    err->col = col;
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    return false;
}
