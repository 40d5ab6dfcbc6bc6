/* bigint.c - integers of any size through GMP: each operation reads its operands into mpz
 * values, computes, and writes the result back as a term (64-bit digits, least significant
 * first, the order of erts' own digits). */
#include "bigint.h"

#include <gmp.h>
#include <string.h>

/* The value of the integer t. */
static void read_integer(mpz_t z, const Term *t)
{
    if (t->kind == TK_INT) {
        uint64_t magnitude = t->u.i < 0 ? 0 - (uint64_t)t->u.i : (uint64_t)t->u.i;
        mpz_import(z, 1, -1, sizeof magnitude, 0, 0, &magnitude);
    } else {
        mpz_import(z, t->u.big.n, -1, sizeof *t->u.big.digit, 0, 0, t->u.big.digit);
    }
    if (t->kind == TK_INT ? t->u.i < 0 : t->u.big.neg)
        mpz_neg(z, z);
}

/* z as a term, unless its magnitude passes the model's bound. */
static IntResult write_integer(Arena *a, const mpz_t z, Term **out)
{
    size_t bits = mpz_sizeinbase(z, 2);
    if (bits > BIGINT_MODEL_BITS)
        return INT_BEYOND_MODEL;
    uint64_t *digit = arena_alloc(a, ((bits + 63) / 64 + 1) * sizeof *digit); /* zeroed */
    size_t n = 0;
    mpz_export(digit, &n, -1, sizeof *digit, 0, 0, z); /* no digit at all for 0 */
    *out = term_integer(a, mpz_sgn(z) < 0, n ? n : 1, digit);
    return INT_OK;
}

IntResult bigint_from_decimal(Arena *a, const char *digits, size_t n, bool neg, Term **out)
{
    if (n > BIGINT_MODEL_BITS / 3 + 1) /* 10^(n-1) > 8^(n-1): beyond the bound, not read */
        return INT_BEYOND_MODEL;
    mpz_t z;
    mpz_init_set_str(z, arena_strndup(a, digits, n), 10);
    if (neg)
        mpz_neg(z, z);
    IntResult r = write_integer(a, z, out);
    mpz_clear(z);
    return r;
}

void bigint_print(Buf *out, const Term *t)
{
    if (t->kind == TK_INT) {
        buf_printf(out, "%lld", t->u.i);
        return;
    }
    mpz_t z;
    mpz_init(z);
    read_integer(z, t);
    Arena scratch;
    arena_init(&scratch);
    buf_puts(out, mpz_get_str(arena_alloc(&scratch, mpz_sizeinbase(z, 10) + 2), 10, z));
    arena_free(&scratch);
    mpz_clear(z);
}

/* x bsl count (bsr when the count is negative), count and x read; left is the direction the
 * operator and the count's sign give together. */
static IntResult shift(Arena *a, const mpz_t x, bool left, const Term *count, Term **out)
{
    if (count->kind == TK_BIGINT) { /* live on 25, 27, 29 (C-630): -5 bsr (1 bsl 64) is -1, 0 bsl (1 bsl 64) 0 */
        if (!left) {
            *out = term_int(a, mpz_sgn(x) < 0 ? -1 : 0);
            return INT_OK;
        }
        if (mpz_sgn(x) == 0) {
            *out = term_int(a, 0);
            return INT_OK;
        }
        return INT_SYSTEM_LIMIT;
    }
    uint64_t bits = count->u.i < 0 ? 0 - (uint64_t)count->u.i : (uint64_t)count->u.i;
    mpz_t r;
    mpz_init(r);
    IntResult res = INT_OK;
    if (!left) {
        if (bits >= mpz_sizeinbase(x, 2)) /* every bit shifted out: the sign alone is left */
            mpz_set_si(r, mpz_sgn(x) < 0 ? -1 : 0);
        else
            mpz_fdiv_q_2exp(r, x, (mp_bitcnt_t)bits); /* floor: an arithmetic shift */
    } else if (mpz_sgn(x) != 0) {
        uint64_t width = mpz_sizeinbase(x, 2); /* the result has width + bits bits */
        if (bits > BIGINT_OTP_BITS - width)
            res = INT_SYSTEM_LIMIT;
        else if (bits > BIGINT_MODEL_BITS - width)
            res = INT_BEYOND_MODEL;
        else
            mpz_mul_2exp(r, x, (mp_bitcnt_t)bits);
    }
    if (res == INT_OK)
        res = write_integer(a, r, out);
    mpz_clear(r);
    return res;
}

/* r = x op y for the operators other than the shifts; false for a zero divisor. */
static bool compute2(mpz_t r, const char *op, const mpz_t x, const mpz_t y)
{
    if (strcmp(op, "+") == 0)
        mpz_add(r, x, y);
    else if (strcmp(op, "-") == 0)
        mpz_sub(r, x, y);
    else if (strcmp(op, "*") == 0)
        mpz_mul(r, x, y);
    else if (strcmp(op, "band") == 0)
        mpz_and(r, x, y); /* GMP's logical functions act on two's complement, as Erlang's */
    else if (strcmp(op, "bor") == 0)
        mpz_ior(r, x, y);
    else if (strcmp(op, "bxor") == 0)
        mpz_xor(r, x, y);
    else if (mpz_sgn(y) == 0) /* div, rem */
        return false;
    else if (strcmp(op, "div") == 0)
        mpz_tdiv_q(r, x, y); /* toward zero, as Erlang's div; rem takes the dividend's sign */
    else
        mpz_tdiv_r(r, x, y);
    return true;
}

IntResult bigint_op2(Arena *a, const char *op, const Term *x, const Term *y, Term **out)
{
    if (!term_is_integer(x) || !term_is_integer(y))
        return INT_BADARITH;
    mpz_t u, v, r;
    mpz_inits(u, v, r, NULL);
    read_integer(u, x);
    read_integer(v, y);
    IntResult res;
    if (strcmp(op, "bsl") == 0 || strcmp(op, "bsr") == 0) {
        bool negative_count = mpz_sgn(v) < 0;
        res = shift(a, u, (op[2] == 'l') != negative_count, y, out);
    } else {
        res = compute2(r, op, u, v) ? write_integer(a, r, out) : INT_BADARITH;
    }
    mpz_clears(u, v, r, NULL);
    return res;
}

IntResult bigint_op1(Arena *a, const char *op, const Term *x, Term **out)
{
    if (!term_is_integer(x))
        return INT_BADARITH;
    mpz_t z;
    mpz_init(z);
    read_integer(z, x);
    if (strcmp(op, "-") == 0)
        mpz_neg(z, z);
    else if (strcmp(op, "abs") == 0)
        mpz_abs(z, z);
    else if (strcmp(op, "bnot") == 0)
        mpz_com(z, z); /* -x - 1 */
    IntResult res = write_integer(a, z, out);
    mpz_clear(z);
    return res;
}
