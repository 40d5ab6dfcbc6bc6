/* phash2.h - erlang:phash2/1 of the terms a case can write, computed as erts computes it:
 * erts/emulator/beam/erl_term_hashing.c, make_hash2_helper (make_hash2), reduced to 27 bits by
 * bif.c, phash2_1. The hash is portable by its documentation (erlang:phash2/1: "the same hash for the
 * same Erlang term regardless of machine architecture and ERTS version"), so the model states it for
 * every term whose value does not depend on the node: integers, atoms, tuples, lists (proper
 * and improper, strings), binaries and maps, nested in any way. Pids, ports, references and
 * funs hash by what the node that made them numbered them (a pid's process number, a fun's
 * module, index and uniq), which no case states (CONFORMANCE.md §4). */
#ifndef TCS_PHASH2_H
#define TCS_PHASH2_H
#include "term.h"

/* Guarantees: the first pid, port, reference or fun inside t (t itself included), the terms whose
 * hash depends on the node; NULL when phash2_value can hash t. */
const Term *phash2_node_made(const Term *t);
/* Guarantees: erlang:phash2(T), in 0..2^27-1, for a term phash2_node_made answers NULL for. */
long long phash2_value(const Term *t);

#endif
