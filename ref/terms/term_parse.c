/* term_parse.c - the Erlang term syntax subset of cases/README.md "Terms". */
#include "bigint.h"
#include "term.h"

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

typedef struct {
    Arena *a;
    const char *s;
    size_t i;
    int line;
    PidCheck check;
    const void *ctx;
    Err *err;
    int depth;       /* lists, tuples, maps and constructors open around the term being parsed */
    size_t built;    /* the bytes of what lists:duplicate/2 and binary:copy/2 made so far */
} P;

/* How deep terms may nest (cases/README.md "Terms"): the parser and every printer of a
 * term recurse once per level, so the limit keeps any input from exhausting the stack. */
enum { MAX_TERM_DEPTH = 256 };

/* A growable array of terms in the arena. */
typedef struct { Term **v; size_t n, cap; } Vec;

static void vec_push(Arena *a, Vec *v, Term *t)
{
    v->v = arena_grow(a, v->v, v->n, &v->cap, sizeof *v->v);
    v->v[v->n++] = t;
}

static bool fail_at(P *p, size_t at, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static bool fail_at(P *p, size_t at, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    err_set(p->err, p->line, (int)at + 1, fmt, ap);
    va_end(ap);
    return false;
}

static char peek(const P *p) { return p->s[p->i]; }

static void skip_ws(P *p)
{
    while (peek(p) == ' ' || peek(p) == '\t' || peek(p) == '\r')
        p->i++;
}

static bool is_digit(char c) { return c >= '0' && c <= '9'; }
static bool is_lower(char c) { return c >= 'a' && c <= 'z'; }
static bool is_upper(char c) { return c >= 'A' && c <= 'Z'; }
static bool is_name_char(char c)
{
    return is_lower(c) || is_upper(c) || is_digit(c) || c == '_' || c == '@';
}

static bool expect(P *p, char c)
{
    skip_ws(p);
    if (peek(p) != c) {
        if (!peek(p))
            return fail_at(p, p->i, "expected '%c', found end of line", c);
        return fail_at(p, p->i, "expected '%c', found '%c'", c, peek(p));
    }
    p->i++;
    return true;
}

static bool parse_term(P *p, Term **out);

static bool parse_int(P *p, Term **out)
{
    size_t start = p->i;
    bool neg = peek(p) == '-';
    p->i += neg;
    /* callers only come here at a digit or at '-' followed by a digit */
    size_t digits = p->i;
    while (is_digit(peek(p)))
        p->i++;
    if (peek(p) == '.' && is_digit(p->s[p->i + 1]))
        return fail_at(p, start, "floats are not supported by model v1");
    if (peek(p) == '#')
        return fail_at(p, start, "based integers are not supported by model v1");
    if (bigint_from_decimal(p->a, p->s + digits, p->i - digits, neg, out) != INT_OK)
        return fail_at(p, start, "integers of more than %d bits are not supported by model v1",
                       BIGINT_MODEL_BITS);
    return true;
}

/* One escape after a backslash inside a quoted atom or string. */
static bool parse_escape(P *p, char *c)
{
    size_t at = p->i;
    p->i++; /* backslash */
    switch (peek(p)) {
    case '\\': *c = '\\'; break;
    case '\'': *c = '\''; break;
    case '"': *c = '"'; break;
    case 'n': *c = '\n'; break;
    case 't': *c = '\t'; break;
    default:
        return fail_at(p, at, "unsupported escape sequence in model v1");
    }
    p->i++;
    return true;
}

/* The raw UTF-8 bytes between quote characters q (the opening quote is at p->i). */
static bool parse_quoted(P *p, char q, Buf *text)
{
    size_t start = p->i;
    p->i++;
    for (;;) {
        char c = peek(p);
        if (!c)
            return fail_at(p, start, "unterminated %s", q == '\'' ? "quoted atom" : "string");
        if (c == q) {
            p->i++;
            return true;
        }
        if (c == '\\') {
            if (!parse_escape(p, &c))
                return false;
        } else {
            p->i++;
        }
        buf_putn(text, &c, 1);
    }
}

/* Decodes UTF-8 text into code points (Erlang strings are lists of code points). */
static bool utf8_codepoints(P *p, size_t at, const char *s, size_t n, Vec *out)
{
    const unsigned char *u = (const unsigned char *)s;
    for (size_t i = 0; i < n;) {
        unsigned c = u[i];
        int extra = c < 0x80 ? 0 : (c >> 5) == 6 ? 1 : (c >> 4) == 14 ? 2 : (c >> 3) == 30 ? 3 : -1;
        if (extra < 0 || i + (size_t)extra >= n)
            return fail_at(p, at, "invalid UTF-8 in string");
        unsigned cp = extra == 0 ? c : c & (0x3Fu >> extra);
        for (int k = 1; k <= extra; k++) {
            if ((u[i + (size_t)k] & 0xC0) != 0x80)
                return fail_at(p, at, "invalid UTF-8 in string");
            cp = (cp << 6) | (u[i + (size_t)k] & 0x3F);
        }
        vec_push(p->a, out, term_int(p->a, cp));
        i += (size_t)extra + 1;
    }
    return true;
}

static bool parse_string(P *p, Term **out)
{
    size_t at = p->i;
    Buf text;
    buf_init(&text);
    bool ok = parse_quoted(p, '"', &text);
    Vec v = {0};
    if (ok)
        ok = utf8_codepoints(p, at, buf_str(&text), text.len, &v);
    buf_free(&text);
    if (ok)
        *out = term_list(p->a, v.n, v.v);
    return ok;
}

/* The characters (code points) of UTF-8 text: the bytes that do not continue a sequence. */
static size_t utf8_length(const char *s, size_t n)
{
    size_t chars = 0;
    for (size_t i = 0; i < n; i++)
        chars += ((unsigned char)s[i] & 0xC0) != 0x80;
    return chars;
}

static bool atom_fits(P *p, size_t at, const char *name, size_t n)
{
    if (utf8_length(name, n) > MAX_ATOM_CHARS)
        return fail_at(p, at, "atom longer than %d characters (OTP's limit)", MAX_ATOM_CHARS);
    return true;
}

/* True, with the cursor after it, iff the text at the cursor (after blanks) is `lit`. */
static bool literal(P *p, const char *lit)
{
    skip_ws(p);
    size_t n = strlen(lit);
    if (strncmp(p->s + p->i, lit, n) != 0 || (is_name_char(lit[n - 1]) && is_name_char(p->s[p->i + n])))
        return false;
    p->i += n;
    return true;
}

/* `fun() -> Term end` (the word fun read): a fun of arity 0 that returns Term, the only
 * fun a case can write (cases/README.md "Terms"). */
static bool parse_fun(P *p, size_t start, Term **out)
{
    if (!literal(p, "(") || !literal(p, ")") || !literal(p, "->"))
        return fail_at(p, start, "a fun is written fun() -> Term end (arity 0, a constant body) in model v1");
    Term *body;
    if (!parse_term(p, &body))
        return false;
    if (!literal(p, "end"))
        return fail_at(p, p->i, "expected 'end' to close the fun");
    *out = term_fun(p->a, body);
    return true;
}

/* One argument of a constructor, a term nested one level deeper (see parse_term). */
static bool parse_nested(P *p, Term **out)
{
    skip_ws(p);
    if (p->depth == MAX_TERM_DEPTH)
        return fail_at(p, p->i, "nesting too deep (terms may nest %d levels)", MAX_TERM_DEPTH);
    p->depth++;
    bool ok = parse_term(p, out);
    p->depth--;
    return ok;
}

/* The count N of lists:duplicate(N, T) or binary:copy(<<B>>, N), its column at. */
static bool count_arg(P *p, size_t at, const Term *t, size_t *n)
{
    if (t->kind != TK_INT || t->u.i < 0)
        return fail_at(p, at, "the count of lists:duplicate(N, T) or binary:copy(<<B>>, N) is an integer N >= 0");
    *n = (size_t)t->u.i;
    return true;
}

/* What a constructor adds: n times each bytes; refused past TERM_MAX_BYTES for the whole term. */
static bool may_build(P *p, size_t at, size_t n, size_t each)
{
    if (each && n > (TERM_MAX_BYTES - p->built) / each)
        return fail_at(p, at, "a term may take at most %zu bytes (cases/README.md \"Terms\"): this one takes more",
                       TERM_MAX_BYTES);
    p->built += n * each;
    return true;
}

/* `lists:duplicate(N, T)` and `binary:copy(<<B>>, N)`, the cursor after the '(' (cases/README.md
 * "Terms"): long terms written in a few characters, built here as any other term. */
static bool parse_constructor(P *p, size_t start, bool list, Term **out)
{
    Term *first, *second;
    size_t at_first, at_second, n = 0;
    skip_ws(p);
    at_first = p->i;
    if (!parse_nested(p, &first) || !expect(p, ','))
        return false;
    skip_ws(p);
    at_second = p->i;
    if (!parse_nested(p, &second) || !expect(p, ')'))
        return false;
    if (list) {
        if (!count_arg(p, at_first, first, &n) ||
            !may_build(p, start, n, 16 + term_bytes(second, TERM_MAX_BYTES)))
            return false;
        *out = term_duplicate(p->a, n, second);
        return true;
    }
    if (first->kind != TK_BIN || first->u.bin.n != 1)
        return fail_at(p, at_first, "binary:copy(<<B>>, N) copies a binary of one byte in model v1");
    if (!count_arg(p, at_second, second, &n) || !may_build(p, start, n, 1))
        return false;
    *out = term_bin_copy(p->a, n, first->u.bin.bytes[0]);
    return true;
}

static bool parse_word_atom(P *p, Term **out)
{
    size_t start = p->i;
    while (is_name_char(peek(p)))
        p->i++;
    if (!atom_fits(p, start, p->s + start, p->i - start))
        return false;
    char *name = arena_strndup(p->a, p->s + start, p->i - start);
    if (strcmp(name, "fun") == 0)
        return parse_fun(p, start, out);
    if (strcmp(name, "make_ref") == 0 && strncmp(p->s + p->i, "()", 2) == 0) {
        p->i += 2;
        *out = term_ref(p->a);
        return true;
    }
    /* the opaque values of another node and of module atomics (cases/README.md "Terms") */
    static const char atomics_call[] = ":new(1,[])";
    if (strcmp(name, "atomics") == 0 && strncmp(p->s + p->i, atomics_call, sizeof atomics_call - 1) == 0) {
        p->i += sizeof atomics_call - 1;
        *out = term_atomics(p->a);
        return true;
    }
    static const char duplicate_call[] = ":duplicate(", copy_call[] = ":copy(";
    if (strcmp(name, "lists") == 0 && strncmp(p->s + p->i, duplicate_call, sizeof duplicate_call - 1) == 0) {
        p->i += sizeof duplicate_call - 1;
        return parse_constructor(p, start, true, out);
    }
    if (strcmp(name, "binary") == 0 && strncmp(p->s + p->i, copy_call, sizeof copy_call - 1) == 0) {
        p->i += sizeof copy_call - 1;
        return parse_constructor(p, start, false, out);
    }
    bool ext_pid = strcmp(name, "external_pid") == 0, ext_port = strcmp(name, "external_port") == 0;
    if ((ext_pid || ext_port) && strncmp(p->s + p->i, "()", 2) == 0) {
        p->i += 2;
        *out = term_external(p->a, ext_pid ? TK_PID : TK_PORT);
        return true;
    }
    if (!atom_is_bare(name))
        return fail_at(p, start, "reserved word '%s' must be quoted to be an atom", name);
    *out = term_atom(p->a, name);
    return true;
}

/* Items separated by commas up to `close`; with tail != NULL a `| Tail` may end them
 * (improper lists), otherwise *tail is untouched. */
static bool parse_items(P *p, char close, Vec *v, Term **tail)
{
    skip_ws(p);
    if (peek(p) == close) {
        p->i++;
        return true;
    }
    for (;;) {
        Term *t;
        if (!parse_term(p, &t))
            return false;
        vec_push(p->a, v, t);
        skip_ws(p);
        if (peek(p) != ',')
            break;
        p->i++;
    }
    if (tail && peek(p) == '|') {
        p->i++;
        if (!parse_term(p, tail))
            return false;
    }
    return expect(p, close);
}

static bool parse_list(P *p, Term **out)
{
    p->i++; /* [ */
    Vec v = {0};
    Term *tail = term_nil(p->a);
    if (!parse_items(p, ']', &v, &tail))
        return false;
    for (size_t i = v.n; i > 0; i--)
        tail = term_cons(p->a, v.v[i - 1], tail);
    *out = tail;
    return true;
}

static bool parse_map(P *p, Term **out)
{
    size_t start = p->i;
    p->i++; /* # */
    if (peek(p) != '{') {
        if (is_upper(peek(p)))
            return fail_at(p, start, "references, ports and funs (#%c...) are not supported by model v1",
                           peek(p));
        return fail_at(p, start, "expected '#{' for a map");
    }
    p->i++;
    Vec k = {0}, v = {0};
    skip_ws(p);
    if (peek(p) == '}') {
        p->i++;
        *out = term_map(p->a, 0, NULL, NULL);
        return true;
    }
    for (;;) {
        Term *key, *val;
        if (!parse_term(p, &key))
            return false;
        skip_ws(p);
        if (strncmp(p->s + p->i, "=>", 2) != 0)
            return fail_at(p, p->i, "expected '=>' in map");
        p->i += 2;
        if (!parse_term(p, &val))
            return false;
        vec_push(p->a, &k, key);
        vec_push(p->a, &v, val);
        skip_ws(p);
        if (peek(p) == ',') {
            p->i++;
            continue;
        }
        if (!expect(p, '}'))
            return false;
        break;
    }
    *out = term_map(p->a, k.n, k.v, v.v);
    return true;
}

/* The rest of a segment `V:Size` (the cursor on ':'): V as an unsigned big-endian integer of
 * Size bits, Size a multiple of 8 (e.g. <<0:1024>>, 128 zero bytes). */
static bool sized_segment(P *p, long long v, Buf *bytes)
{
    p->i++; /* : */
    size_t at = p->i;
    Term *size;
    if (!is_digit(peek(p)) || !parse_int(p, &size))
        return fail_at(p, at, "expected the segment's size in bits after ':'");
    long long bits = size->kind == TK_INT ? size->u.i : -1;
    if (bits < 0 || bits % 8 != 0 || bits > 8 * 65536)
        return fail_at(p, at, "a segment's size must be a multiple of 8 bits, at most 524288, in model v1");
    if (bits < 64 && v >= (1LL << bits))
        return fail_at(p, at, "the value does not fit in %lld bits", bits);
    for (long long k = bits / 8 - 1; k >= 0; k--) {
        char c = (char)(k < 8 ? (unsigned char)((unsigned long long)v >> (8 * k)) : 0);
        buf_putn(bytes, &c, 1);
    }
    return true;
}

static bool parse_binary(P *p, Term **out)
{
    p->i += 2; /* << */
    Buf bytes;
    buf_init(&bytes);
    bool ok = true;
    skip_ws(p);
    if (strncmp(p->s + p->i, ">>", 2) != 0) {
        for (;;) {
            skip_ws(p);
            size_t at = p->i;
            if (peek(p) == '"') {
                ok = parse_quoted(p, '"', &bytes);
            } else if (is_digit(peek(p))) {
                Term *t;
                ok = parse_int(p, &t);
                if (ok && t->kind != TK_INT)
                    ok = fail_at(p, at, "a segment's value beyond 64 bits is not supported by model v1");
                else if (ok && peek(p) == ':')
                    ok = sized_segment(p, t->u.i, &bytes);
                else if (ok && t->u.i > 255)
                    ok = fail_at(p, at, "binary segment out of range 0..255");
                else if (ok) {
                    char c = (char)(unsigned char)t->u.i;
                    buf_putn(&bytes, &c, 1);
                }
            } else {
                ok = fail_at(p, at, "binary segments must be integers 0..255 or strings in model v1");
            }
            if (!ok)
                break;
            skip_ws(p);
            if (peek(p) == ',') {
                p->i++;
                continue;
            }
            break;
        }
    }
    if (ok && strncmp(p->s + p->i, ">>", 2) != 0)
        ok = fail_at(p, p->i, "expected '>>' to close the binary");
    if (ok) {
        p->i += 2;
        *out = term_bin(p->a, bytes.len, (const unsigned char *)buf_str(&bytes));
    }
    buf_free(&bytes);
    return ok;
}

static bool parse_pid(P *p, Term **out)
{
    size_t start = p->i;
    p->i++; /* < */
    if (is_digit(peek(p)))
        return fail_at(p, start, "raw pids are not supported by model v1 (write <name>)");
    if (!is_lower(peek(p)))
        return fail_at(p, start, "expected a process name in <name>");
    size_t n0 = p->i;
    while (is_name_char(peek(p)) && peek(p) != '@')
        p->i++;
    size_t n1 = p->i;
    if (peek(p) != '>')
        return fail_at(p, p->i, "expected '>' to close the symbolic pid");
    p->i++;
    char *name = arena_strndup(p->a, p->s + n0, n1 - n0);
    if (p->check && !p->check(p->ctx, name))
        return fail_at(p, start, "unknown process <%s> (not declared or not yet spawned)", name);
    *out = term_pid(p->a, name);
    return true;
}

static bool parse_term_here(P *p, Term **out)
{
    skip_ws(p);
    char c = peek(p);
    size_t at = p->i;
    if (!c)
        return fail_at(p, at, "expected a term, found end of line");
    if (is_digit(c) || (c == '-' && is_digit(p->s[p->i + 1])))
        return parse_int(p, out);
    if (is_lower(c))
        return parse_word_atom(p, out);
    if (c == '\'') {
        size_t at = p->i;
        Buf text;
        buf_init(&text);
        bool ok = parse_quoted(p, '\'', &text);
        /* The stream prints atoms with their characters as they are (CONFORMANCE.md
         * §1): a control character would break the one-line-per-event format. */
        for (size_t i = 0; ok && i < text.len; i++)
            if ((unsigned char)text.data[i] < 0x20 || text.data[i] == 0x7f)
                ok = fail_at(p, at, "control characters in atoms are not supported in model v1");
        ok = ok && atom_fits(p, at, text.data, text.len);
        if (ok)
            *out = term_atom(p->a, buf_str(&text));
        buf_free(&text);
        return ok;
    }
    if (c == '"')
        return parse_string(p, out);
    if (c == '[')
        return parse_list(p, out);
    if (c == '{') {
        p->i++;
        Vec v = {0};
        if (!parse_items(p, '}', &v, NULL))
            return false;
        *out = term_tuple(p->a, v.n, v.v);
        return true;
    }
    if (c == '#')
        return parse_map(p, out);
    if (c == '<' && p->s[p->i + 1] == '<')
        return parse_binary(p, out);
    if (c == '<')
        return parse_pid(p, out);
    if (is_upper(c) || c == '_')
        return fail_at(p, at, "variables are not allowed in terms (write '_' quoted for the wildcard atom)");
    if (c == '$')
        return fail_at(p, at, "character literals are not supported by model v1");
    return fail_at(p, at, "unexpected character '%c' in term", c);
}

static bool parse_term(P *p, Term **out)
{
    skip_ws(p);
    int opens = peek(p) == '[' || peek(p) == '{' || peek(p) == '#';
    if (opens && p->depth == MAX_TERM_DEPTH)
        return fail_at(p, p->i, "nesting too deep (terms may nest %d levels)", MAX_TERM_DEPTH);
    p->depth += opens;
    bool ok = parse_term_here(p, out);
    p->depth -= opens;
    return ok;
}

bool term_parse(Arena *a, const char *text, size_t *pos, int line, PidCheck check,
                const void *ctx, Term **out, Err *err)
{
    P p = {a, text, *pos, line, check, ctx, err, 0, 0};
    if (!parse_term(&p, out))
        return false;
    *pos = p.i;
    return true;
}
