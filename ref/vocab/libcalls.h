/* libcalls.h - what the library target lists:seq/2 returns (cases/README.md "Library targets"),
 * which raises function_clause for arguments no list answers; erlang:phash2/1's values are
 * phash2.h's. */
#ifndef TCS_LIBCALLS_H
#define TCS_LIBCALLS_H
#include <stdbool.h>

#include "term.h"

/* The longest list of a lists:seq/2 call: a case prints it whole. */
#define LIBCALLS_SEQ_MAX 1000

/* Guarantees: true iff lists:seq(From, To) returns a list (integers with From - 1 =< To);
 * then *len is its length (ULLONG_MAX when it is 2^64). */
bool libcalls_seq_length(const Term *from, const Term *to, unsigned long long *len);
/* Guarantees: what lists:seq(From, To) returns (a list, *raised false) or the reason of the
 * error it raises (function_clause, *raised true); a list no longer than LIBCALLS_SEQ_MAX. */
Term *libcalls_seq(Arena *a, const Term *from, const Term *to, bool *raised);

#endif
