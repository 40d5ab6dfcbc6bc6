/* libcalls.h - what the library targets return (cases/README.md "Library targets"):
 * erlang:phash2/1 of an atom or an integer, computed as erts computes it (erts/emulator/beam/utils.c,
 * make_hash2: the same on OTP 25, 27 and 29, the hash being portable by its documentation),
 * and lists:seq/2, which raises function_clause for arguments no list answers. */
#ifndef TCS_LIBCALLS_H
#define TCS_LIBCALLS_H
#include <stdbool.h>

#include "term.h"

/* The integers whose phash2 the model computes: erts hashes them as one 32-bit word
 * (IS_SSMALL28); larger ones are hashed as two. */
#define LIBCALLS_PHASH2_MIN (-134217728LL)
#define LIBCALLS_PHASH2_MAX 134217727LL
/* The longest list of a lists:seq/2 call: a case prints it whole. */
#define LIBCALLS_SEQ_MAX 1000

/* Guarantees: true iff t is an atom, or an integer whose erlang:phash2/1 the model computes. */
bool libcalls_phash2_known(const Term *t);
/* Guarantees: erlang:phash2(T), in 0..2^27-1, for a term libcalls_phash2_known accepts. */
long long libcalls_phash2(const Term *t);
/* Guarantees: true iff lists:seq(From, To) returns a list (integers with From - 1 =< To);
 * then *len is its length (ULLONG_MAX when it is 2^64). */
bool libcalls_seq_length(const Term *from, const Term *to, unsigned long long *len);
/* Guarantees: what lists:seq(From, To) returns (a list, *raised false) or the reason of the
 * error it raises (function_clause, *raised true); a list no longer than LIBCALLS_SEQ_MAX. */
Term *libcalls_seq(Arena *a, const Term *from, const Term *to, bool *raised);

#endif
