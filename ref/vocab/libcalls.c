/* libcalls.c - the values of the library targets' calls. */
#include "libcalls.h"

#include <limits.h>
#include <stdint.h>

bool libcalls_phash2_known(const Term *t)
{
    return t->kind == TK_ATOM || (t->kind == TK_INT && t->u.i >= LIBCALLS_PHASH2_MIN && t->u.i <= LIBCALLS_PHASH2_MAX);
}

/* An atom's hash value in the atom table, hashpjw of its UTF-8 bytes with a two-byte
 * character of Latin-1 taken as its code point (erts/emulator/beam/atom.c, atom_hash: the
 * "latin1 clutch"); make_hash2 answers it as it is for an atom. */
static uint32_t atom_hash(const char *name)
{
    const unsigned char *p = (const unsigned char *)name;
    uint32_t h = 0;
    while (*p) {
        unsigned char v = *p++;
        if (*p && (v & 0xFE) == 0xC2 && (*p & 0xC0) == 0x80)
            v = (unsigned char)((v << 6) | (*p++ & 0x3F));
        h = (h << 4) + v;
        uint32_t g = h & 0xf0000000u;
        if (g)
            h ^= (g >> 24) ^ g;
    }
    return h;
}

/* Bob Jenkins' mix of a, b and the hash c (erts/emulator/beam/utils.c, MIX). */
static uint32_t mix(uint32_t a, uint32_t b, uint32_t c)
{
    a -= b; a -= c; a ^= (c >> 13);
    b -= c; b -= a; b ^= (a << 8);
    c -= a; c -= b; c ^= (b >> 13);
    a -= b; a -= c; a ^= (c >> 12);
    b -= c; b -= a; b ^= (a << 16);
    c -= a; c -= b; c ^= (b >> 5);
    a -= b; a -= c; a ^= (c >> 3);
    b -= c; b -= a; b ^= (a << 10);
    c -= a; c -= b; c ^= (b >> 15);
    return c;
}

/* UINT32_HASH(x, HCONST) of make_hash2: the golden ratio constant. */
static uint32_t uint32_hash(uint32_t x, uint32_t hash)
{
    const uint32_t hconst = 0x9e3779b9u;
    return mix(hconst + x, hconst, hash);
}

long long libcalls_phash2(const Term *t)
{
    uint32_t hash = 0;
    if (t->kind == TK_ATOM) {
        hash = atom_hash(t->u.name);
    } else { /* SINT32_HASH: a negative integer is mixed twice, its magnitude first */
        int32_t y = (int32_t)t->u.i;
        if (y < 0)
            hash = uint32_hash((uint32_t)-y, hash);
        hash = uint32_hash((uint32_t)y, hash);
    }
    return (long long)(hash & ((1u << 27) - 1)); /* phash2/1 keeps 27 bits */
}

bool libcalls_seq_length(const Term *from, const Term *to, unsigned long long *len)
{
    if (from->kind != TK_INT || to->kind != TK_INT)
        return false;
    long long f = from->u.i, t = to->u.i;
    if (t < f) { /* seq(First, Last) when First-1 =< Last: [] for Last = First-1 */
        *len = 0;
        return f != LLONG_MIN && t == f - 1;
    }
    unsigned long long span = (unsigned long long)t - (unsigned long long)f;
    *len = span == ULLONG_MAX ? ULLONG_MAX : span + 1; /* seq(LLONG_MIN, LLONG_MAX): saturated */
    return true;
}

Term *libcalls_seq(Arena *a, const Term *from, const Term *to, bool *raised)
{
    unsigned long long len;
    *raised = !libcalls_seq_length(from, to, &len);
    if (*raised)
        return term_atom(a, "function_clause");
    Term *el[LIBCALLS_SEQ_MAX];
    for (unsigned long long i = 0; i < len; i++)
        el[i] = term_int(a, from->u.i + (long long)i);
    return term_list(a, (size_t)len, el);
}
