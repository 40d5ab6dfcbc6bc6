/* libcalls.c - what lists:seq/2 returns (erlang:phash2/1's values are phash2.c's). */
#include "libcalls.h"
#include "bigint.h"

#include <limits.h>

bool libcalls_seq_length(const Term *from, const Term *to, unsigned long long *len)
{
    if (!term_is_integer(from) || !term_is_integer(to))
        return false;
    Arena scratch;
    arena_init(&scratch);
    Term *span; /* To - From: exact, unless it passes the model's bound (a length beyond any list) */
    bool exact = bigint_op2(&scratch, "-", to, from, &span) == INT_OK;
    bool list = exact ? term_compare(span, term_int(&scratch, -1)) >= 0 : term_compare(to, from) > 0;
    if (list) /* seq(First, Last) when First-1 =< Last: [] for Last = First-1; saturated past 2^64 - 1 */
        *len = exact && span->kind == TK_INT ? (unsigned long long)span->u.i + 1 : ULLONG_MAX;
    arena_free(&scratch);
    return list;
}

Term *libcalls_seq(Arena *a, const Term *from, const Term *to, bool *raised)
{
    unsigned long long len;
    *raised = !libcalls_seq_length(from, to, &len);
    if (*raised)
        return term_atom(a, "function_clause");
    Term *el[LIBCALLS_SEQ_MAX];
    for (unsigned long long i = 0; i < len; i++) /* From + i: within From..To, never beyond the bound */
        bigint_op2(a, "+", from, term_int(a, (long long)i), &el[i]);
    return term_list(a, (size_t)len, el);
}
