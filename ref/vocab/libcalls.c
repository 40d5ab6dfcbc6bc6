/* libcalls.c - what lists:seq/2 returns (erlang:phash2/1's values are phash2.c's). */
#include "libcalls.h"

#include <limits.h>

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
