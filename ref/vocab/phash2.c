/* phash2.c - erlang:phash2/1, as erts/emulator/beam/erl_term_hashing.c, make_hash2_helper, computes
 * it (utils.c, make_hash2, in older sources; the hashes agree on OTP 25, 27 and 29: test_phash2).
 * erts walks the term with an explicit stack, depth first and left to right, every step mixing
 * into one running hash; hash_term below is that walk written as recursion over the elements of
 * tuples and maps and the heads of lists (which the parser nests at most MAX_TERM_DEPTH deep) and
 * as a loop over list tails (a list may be long). Only the cases a term of the scenario language
 * reaches are here: no floats, no bitstrings, and no pid, port,
 * reference or fun (phash2_node_made). */
#include "phash2.h"

#include <stdint.h>

/* The golden ratio, make_hash2's HCONST, and HCONST_n = (HCONST * n) mod 2^32. */
#define HCONST 0x9e3779b9u
#define HCONST_N(n) ((uint32_t)(HCONST * (uint32_t)(n)))
/* NIL_DEF of erl_term.h (the term-order tag of []), which make_hash2 mixes for a [] met after
 * the first term. */
enum { NIL_DEF = 2 };
/* make_hash2's value for [] when it is the first term hashed. */
#define NIL_FIRST_HASH 3468870702u
/* block_hash reads binaries 12 bytes at a time (BLOCK_HASH_BYTES_PER_ITER). */
enum { BLOCK = 12 };

const Term *phash2_node_made(const Term *t)
{
    for (;;) {
        switch (t->kind) {
        case TK_PID:
        case TK_PORT:
        case TK_REF:
        case TK_FUN:
            return t;
        case TK_TUPLE:
            for (size_t i = 0; i < t->u.tuple.n; i++) {
                const Term *found = phash2_node_made(t->u.tuple.el[i]);
                if (found)
                    return found;
            }
            return NULL;
        case TK_MAP:
            for (size_t i = 0; i < t->u.map.n; i++) {
                const Term *found = phash2_node_made(t->u.map.key[i]);
                if (!found)
                    found = phash2_node_made(t->u.map.val[i]);
                if (found)
                    return found;
            }
            return NULL;
        case TK_CONS: {
            const Term *found = phash2_node_made(t->u.cons.head);
            if (found)
                return found;
            t = t->u.cons.tail;
            break;
        }
        default: /* integers, atoms, [], binaries (a placeholder is never parsed) */
            return NULL;
        }
    }
}

/* An atom's hash value in the atom table, hashpjw of its UTF-8 bytes with a two-byte
 * character of Latin-1 taken as its code point (erts/emulator/beam/atom.c, atom_hash: the
 * "latin1 clutch"). */
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

/* Bob Jenkins' mix of the three words (MIX, which changes all three in place). */
typedef struct { uint32_t a, b, c; } Mix;

static void mix(Mix *m)
{
    uint32_t a = m->a, b = m->b, c = m->c;
    a -= b; a -= c; a ^= (c >> 13);
    b -= c; b -= a; b ^= (a << 8);
    c -= a; c -= b; c ^= (b >> 13);
    a -= b; a -= c; a ^= (c >> 12);
    b -= c; b -= a; b ^= (a << 16);
    c -= a; c -= b; c ^= (b >> 5);
    a -= b; a -= c; a ^= (c >> 3);
    b -= c; b -= a; b ^= (a << 10);
    c -= a; c -= b; c ^= (b >> 15);
    *m = (Mix){a, b, c};
}

/* UINT32_HASH_2(x, y, AConst): two words mixed into the running hash. */
static uint32_t hash2_words(uint32_t x, uint32_t y, uint32_t aconst, uint32_t hash)
{
    Mix m = {aconst + x, aconst + y, hash};
    mix(&m);
    return m.c;
}

/* UINT32_HASH(x, AConst). */
static uint32_t hash_word(uint32_t x, uint32_t aconst, uint32_t hash)
{
    return hash2_words(x, 0, aconst, hash);
}

/* A bignum (POS_BIG_SUBTAG, NEG_BIG_SUBTAG, D_EXP 64): each 64-bit digit of its magnitude, least
 * significant first, as its two 32-bit words with a constant for its sign. */
static uint32_t hash_digits(const uint64_t *digit, size_t n, bool neg, uint32_t hash)
{
    for (size_t i = 0; i < n; i++)
        hash = hash2_words((uint32_t)digit[i], (uint32_t)(digit[i] >> 32), neg ? HCONST_N(10) : HCONST_N(11),
                           hash);
    return hash;
}

/* An integer: one 32-bit word when it fits in 28 bits (IS_SSMALL28; SINT32_HASH mixes a negative
 * one twice, its magnitude first), else as a bignum of one digit (NOT_SSMALL28_HASH for a small of
 * 28 bits or more gives the same words). */
static uint32_t hash_int(long long v, uint32_t hash)
{
    if (v >= -(1LL << 27) && v < (1LL << 27)) {
        int32_t y = (int32_t)v;
        if (y < 0)
            hash = hash_word((uint32_t)-y, HCONST, hash);
        return hash_word((uint32_t)y, HCONST, hash);
    }
    uint64_t magnitude = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
    return hash_digits(&magnitude, 1, v < 0, hash);
}

/* Up to 4 bytes at b, little-endian (how block_hash adds bytes to a word). */
static uint32_t le_word(const unsigned char *b, size_t n)
{
    uint32_t w = 0;
    for (size_t i = n; i > 0; i--)
        w = (w << 8) + b[i - 1];
    return w;
}

/* block_hash (block_hash_setup, block_hash_buffer, block_hash_final_bytes): the bytes 12 at a
 * time into a, b and c (c starting as initval); then the length into c and the last up to 11
 * bytes into a, b and c from c's second byte on (its first byte is the length's). The length is
 * taken modulo 2^32, as the Uint added to a Uint32. */
static uint32_t block_hash(const unsigned char *k, size_t len, uint32_t initval)
{
    Mix m = {HCONST, HCONST, initval};
    size_t left = len;
    for (; left >= BLOCK; left -= BLOCK, k += BLOCK) {
        m.a += le_word(k, 4);
        m.b += le_word(k + 4, 4);
        m.c += le_word(k + 8, 4);
        mix(&m);
    }
    m.c += (uint32_t)len;
    m.a += le_word(k, left < 4 ? left : 4);
    if (left > 4)
        m.b += le_word(k + 4, left < 8 ? left - 4 : 4);
    if (left > 8)
        m.c += le_word(k + 8, left - 8) << 8;
    mix(&m);
    return m.c;
}

static uint32_t hash_term(const Term *t, uint32_t hash);

/* A list: each run of bytes (integers 0..255) four at a time as one word (the optimisation for
 * strings; a run ends at a head that is no byte, which is hashed as a term, and the tail after
 * it starts a new run); then whatever ends the list ([] or the tail of an improper list). */
static uint32_t hash_list(const Term *t, uint32_t hash)
{
    while (t->kind == TK_CONS) {
        uint32_t run = 0;
        int bytes = 0;
        for (const Term *h = t->u.cons.head; h->kind == TK_INT && h->u.i >= 0 && h->u.i <= 255;
             h = t->u.cons.head) {
            run = (run << 8) + (uint32_t)h->u.i;
            if (++bytes == 4) {
                hash = hash_word(run, HCONST_N(4), hash);
                run = 0;
                bytes = 0;
            }
            t = t->u.cons.tail;
            if (t->kind != TK_CONS)
                break;
        }
        if (bytes > 0)
            hash = hash_word(run, HCONST_N(4), hash);
        if (t->kind == TK_CONS) {
            hash = hash_term(t->u.cons.head, hash);
            t = t->u.cons.tail;
        }
    }
    return hash_term(t, hash);
}

/* A map: its size, then the xor of its pairs' hashes, each key and value hashed from 0, so that
 * the hash does not depend on the order of the pairs (flatmaps and HAMT maps alike). */
static uint32_t hash_map(const Term *t, uint32_t hash)
{
    hash = hash_word((uint32_t)t->u.map.n, HCONST_N(16), hash);
    if (t->u.map.n == 0)
        return hash;
    uint32_t pairs = 0;
    for (size_t i = 0; i < t->u.map.n; i++)
        pairs ^= hash_term(t->u.map.val[i], hash_term(t->u.map.key[i], 0));
    return hash_word(pairs, HCONST_N(19), hash);
}

/* One term mixed into the running hash: the cases of make_hash2_helper's switch. */
static uint32_t hash_term(const Term *t, uint32_t hash)
{
    switch (t->kind) {
    case TK_INT:
        return hash_int(t->u.i, hash);
    case TK_BIGINT:
        return hash_digits(t->u.big.digit, t->u.big.n, t->u.big.neg, hash);
    case TK_ATOM: /* the first term hashed answers the atom's own hash unmixed */
        return hash == 0 ? atom_hash(t->u.name) : hash_word(atom_hash(t->u.name), HCONST_N(3), hash);
    case TK_NIL:
        return hash == 0 ? NIL_FIRST_HASH : hash_word(NIL_DEF, HCONST_N(2), hash);
    case TK_CONS:
        return hash_list(t, hash);
    case TK_TUPLE:
        hash = hash_word((uint32_t)t->u.tuple.n, HCONST_N(9), hash);
        for (size_t i = 0; i < t->u.tuple.n; i++)
            hash = hash_term(t->u.tuple.el[i], hash);
        return hash;
    case TK_MAP:
        return hash_map(t, hash);
    case TK_BIN: { /* block_hash of the bytes, the running hash in its start; <<>> that start alone */
        uint32_t con = HCONST_N(13) + hash;
        return t->u.bin.n == 0 ? con : block_hash(t->u.bin.bytes, t->u.bin.n, con);
    }
    default: /* node-made: phash2_node_made keeps them out */
        return hash;
    }
}

long long phash2_value(const Term *t)
{
    return (long long)(hash_term(t, 0) & ((1u << 27) - 1)); /* bif.c, phash2_1: 27 bits */
}
