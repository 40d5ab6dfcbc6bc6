/* term.h - Erlang term values of the scenario language (CONFORMANCE.md §1 "Terms"). */
#ifndef TCS_TERM_H
#define TCS_TERM_H
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arena.h"
#include "buf.h"

/* Kinds in Erlang term order: number (TK_INT, TK_BIGINT) < atom < reference < fun < port < pid < tuple < map <
 * nil < list < binary. TK_PLACEHOLDER is a printing-only value (e.g. _SchedulerId), never
 * compared. TK_REF is a fresh reference (`make_ref()`, made by the live harness) and TK_FUN
 * a fun of arity 0 returning a constant (`fun() -> T end`): both only where a case may
 * hand the runtime an opaque value (a tracer state, a tracer option). */
typedef enum {
    TK_INT, TK_BIGINT, TK_ATOM, TK_REF, TK_FUN, TK_PORT, TK_PID, TK_TUPLE, TK_MAP, TK_NIL, TK_CONS, TK_BIN, TK_PLACEHOLDER
} TermKind;

typedef struct Term Term;
struct Term {
    TermKind kind;
    union {
        long long i;                           /* TK_INT: an integer 64 bits hold */
        struct { bool neg; size_t n; const uint64_t *digit; } big; /* TK_BIGINT: any other integer,
                                                  its magnitude's n digits, least significant first */
        const char *name;                      /* TK_ATOM (UTF-8), TK_PID/TK_PORT (scenario name), TK_PLACEHOLDER */
        struct { Term *head, *tail; } cons;    /* TK_CONS */
        struct { size_t n; Term **el; } tuple; /* TK_TUPLE */
        struct { size_t n; Term **key, **val; } map; /* TK_MAP, keys sorted, unique (but C-445's) */
        struct { size_t n; unsigned char *bytes; } bin; /* TK_BIN */
        const struct Term *fun_body;           /* TK_FUN: what the fun returns */
    } u;
};

/* Guarantees: an integer term. */
Term *term_int(Arena *a, long long i);
/* Guarantees: the integer whose magnitude is the n digits (n >= 1, least significant first,
 * copied), negated when neg: a TK_INT when 64 bits hold it, else a TK_BIGINT (bigint.h). */
Term *term_integer(Arena *a, bool neg, size_t n, const uint64_t *digit);
/* Guarantees: true iff t is an integer (TK_INT or TK_BIGINT). */
bool term_is_integer(const Term *t);
/* Guarantees: an atom term holding a copy of name. */
Term *term_atom(Arena *a, const char *name);
/* Guarantees: a symbolic pid term for the process called name. */
Term *term_pid(Arena *a, const char *name);
/* Guarantees: a symbolic port term for the port called name (printed <port:name> in either
 * style: scenario terms hold no ports, so none reaches a plan). */
Term *term_port(Arena *a, const char *name);
/* Guarantees: a term that prints as the bare text (never parsed, never compared). */
Term *term_placeholder(Arena *a, const char *text);
/* Guarantees: a fresh reference (make_ref() on the live node; printed _Ref). */
Term *term_ref(Arena *a);
/* Guarantees: a fresh atomics reference (atomics:new(1,[]) on the live node; a reference
 * there too, printed _Ref; term_is_atomics tells it from make_ref()). */
Term *term_atomics(Arena *a);
/* Guarantees: true iff t was made by term_atomics. */
bool term_is_atomics(const Term *t);
/* Guarantees: a pid (kind TK_PID) or port (TK_PORT) of another node, no process or port of
 * the case (external_pid(), external_port(); printed <ext:pid>, <ext:port>). */
Term *term_external(Arena *a, TermKind kind);
/* Guarantees: true iff t was made by term_external. */
bool term_is_external(const Term *t);
/* Guarantees: the fun `fun() -> body end` (printed so in the stream). */
Term *term_fun(Arena *a, const Term *body);
/* Guarantees: the first reference, fun, or external pid or port inside t (t itself
 * included), or NULL. */
const Term *term_find_opaque(const Term *t);
/* Guarantees: the empty list. */
Term *term_nil(Arena *a);
/* Guarantees: the cell [head|tail]. */
Term *term_cons(Arena *a, Term *head, Term *tail);
/* Guarantees: a tuple of the n elements (array copied). */
Term *term_tuple(Arena *a, size_t n, Term *const *el);
/* Guarantees: the 2- or 3-tuple shorthand {x,y} / {x,y,z} (z may be NULL for a pair). */
Term *term_tuple3(Arena *a, Term *x, Term *y, Term *z);
/* Guarantees: a map with keys sorted in term order; a later duplicate key wins. */
Term *term_map(Arena *a, size_t n, Term *const *keys, Term *const *vals);
/* Guarantees: a map of exactly the n pairs given, a key given twice kept twice (a map OTP built
 * wrongly, C-445), the pairs sorted by key, then by value, as the runner prints such a map. */
Term *term_map_with_duplicates(Arena *a, size_t n, Term *const *keys, Term *const *vals);
/* Guarantees: a binary holding a copy of the n bytes. */
Term *term_bin(Arena *a, size_t n, const unsigned char *bytes);
/* Guarantees: the proper list of the n elements. */
Term *term_list(Arena *a, size_t n, Term *const *el);

/* Long terms a case writes in a few characters (cases/README.md "Terms"): lists:duplicate(N, T)
 * and binary:copy(<<B>>, N). A list or binary of at least TERM_LONG elements or bytes, all
 * equal, prints so too (PROTOCOLS.md section 6), and a term may take TERM_MAX_BYTES at most. */
enum { TERM_LONG = 1024 };
#define TERM_MAX_BYTES ((size_t)16 << 20)
/* Guarantees: the list of n elements each el (shared, not copied): lists:duplicate(n, el). */
Term *term_duplicate(Arena *a, size_t n, Term *el);
/* Guarantees: a binary of n bytes each byte: binary:copy(<<byte>>, n). */
Term *term_bin_copy(Arena *a, size_t n, unsigned char byte);
/* Guarantees: the bytes t takes on a 64-bit node as cases/README.md "Terms" counts them (16 a
 * list cell, 8 a tuple element and 8 its header, 16 a map pair and 16 its header, a binary its
 * bytes, a TK_BIGINT 8 a digit and 8 its header), or a number above cap once they pass cap (the walk stops there). */
size_t term_bytes(const Term *t, size_t cap);
/* Guarantees: the cell of t where its last run of equal elements starts, with *n its length,
 * when t is a proper list whose last TERM_LONG elements or more are equal (the run as long as
 * it goes); else NULL. */
const Term *term_duplicate_run(const Term *t, size_t *n);
/* Guarantees: the size of t, with *byte its byte, when t is a binary of TERM_LONG bytes or
 * more, all equal; else 0. */
size_t term_bin_copy_length(const Term *t, unsigned char *byte);

/* Guarantees: a copy of t, deep, in one block of malloc'd memory that free() of the copy
 * releases: a term that outlives the memory t is in, for as long as it is wanted (a message
 * waiting in a mailbox). */
Term *term_clone(const Term *t);
/* Guarantees: a deep copy of t in the arena (a message taken from a mailbox, kept as a value). */
Term *term_clone_in(Arena *a, const Term *t);

/* Guarantees: <0, 0, >0 as a is less, equal, greater than b in Erlang term order. */
int term_compare(const Term *a, const Term *b);
/* Guarantees: true iff t is the atom called name. */
bool term_is_atom(const Term *t, const char *name);
/* Guarantees: number of elements of a proper list, or -1 for an improper list/non-list. */
long term_list_length(const Term *t);

/* How to print: canonical stream style, or plan style for file:consult/1. */
typedef enum { PRINT_CANON, PRINT_PLAN } PrintStyle;

/* Guarantees: the term printed per CONFORMANCE.md §1 (CANON) or as consultable Erlang (PLAN). */
void term_print(Buf *out, const Term *t, PrintStyle style);
/* Guarantees: the atom printed bare or single-quoted per CONFORMANCE.md §1. */
void term_print_atom(Buf *out, const char *name);
/* Guarantees: true iff the atom prints without quotes. */
bool atom_is_bare(const char *name);
/* OTP's limit on the length of an atom, in characters (erl_syntax, system limits). */
enum { MAX_ATOM_CHARS = 255 };

/* A parse error: 1-based line and column plus a message. */
typedef struct Err { int line, col; char msg[256]; } Err;

/* Guarantees: err holds line, col and the formatted message; returns false (for `return err_set(...)`). */
bool err_set(Err *err, int line, int col, const char *fmt, va_list ap);

/* Decides whether a symbolic pid <name> may appear (NULL: any name). */
typedef bool (*PidCheck)(const void *ctx, const char *name);

/* Guarantees: parses one term from text at *pos (text is one line, line number `line`,
 * column of text[0] is 1); on success *out is set, *pos is just after the term, returns true.
 * On failure returns false with err filled (column of the offending character), including
 * "unknown process" for a pid that check (if not NULL) rejects. */
bool term_parse(Arena *a, const char *text, size_t *pos, int line, PidCheck check,
                const void *ctx, Term **out, Err *err);

#endif
