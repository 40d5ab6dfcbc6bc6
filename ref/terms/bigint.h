/* bigint.h - integers of any size (CONFORMANCE.md §1 "Terms", conformance/matchspecs.md
 * MS-GUARD-BIGNUM): their decimal text and Erlang's integer arithmetic on them, exact, as erts
 * computes it (erl_arith.c, big.c); the digits are GMP's (libgmp). A value 64 bits hold is a
 * TK_INT, any other a TK_BIGINT (term_integer). */
#ifndef TCS_BIGINT_H
#define TCS_BIGINT_H
#include "term.h"

/* The model's bound on an integer's magnitude, in bits (2^20, about 315,000 decimal digits):
 * a literal or a result beyond it is refused, so that no case makes the model compute for long. */
enum { BIGINT_MODEL_BITS = 1 << 20 };
/* OTP's bound, the largest of the releases: on 25 a bignum has at most BIG_ARITY_MAX = 2^19 - 1
 * digits of 64 bits (erts erl_term.h; big.c, big_norm: "signal error (too big)"), on 27 and 29
 * 2^16 - 1 (4194240 bits); an operation whose result would pass it raises system_limit (live:
 * 1 bsl 33554367 is an integer on 25, 1 bsl 33554368 raises; 1 bsl 4194239 and 1 bsl 4194240 on
 * 27 and 29). Past the largest bound every release raises; below it the model's own bound, far
 * lower, refuses what the releases would answer differently (C-630). */
#define BIGINT_OTP_BITS (64ULL * ((1ULL << 19) - 1))

/* What an operation gave: a value, erts' badarith (an operand no integer, a zero divisor) or
 * system_limit (a result beyond BIGINT_OTP_BITS), or nothing the model computes (a result
 * beyond BIGINT_MODEL_BITS that OTP may still hold). */
typedef enum { INT_OK, INT_BADARITH, INT_SYSTEM_LIMIT, INT_BEYOND_MODEL } IntResult;

/* Guarantees: INT_OK with *out the integer the n decimal digits at digits write (negated when
 * neg), or INT_BEYOND_MODEL when its magnitude passes BIGINT_MODEL_BITS. */
IntResult bigint_from_decimal(Arena *a, const char *digits, size_t n, bool neg, Term **out);
/* Guarantees: the integer t in decimal, as Erlang's integer_to_list/1 writes it. */
void bigint_print(Buf *out, const Term *t);
/* Guarantees: the Erlang operator op (+ - * div rem band bor bxor bsl bsr) of x and y, exact:
 * div and rem truncate toward zero, the bitwise operators act on two's complement of unbounded
 * width, bsl by a negative count shifts right and bsr rounds toward minus infinity; a count
 * that is a TK_BIGINT gives 0 or -1 to the right, and to the left 0 for 0, else system_limit. */
IntResult bigint_op2(Arena *a, const char *op, const Term *x, const Term *y, Term **out);
/* Guarantees: the one-operand Erlang function op of x: - (negation), abs, bnot; any other op (+,
 * round, trunc, ceil, floor) is x itself. INT_BADARITH when x is no integer. */
IntResult bigint_op1(Arena *a, const char *op, const Term *x, Term **out);

#endif
