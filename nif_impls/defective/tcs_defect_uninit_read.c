/*
 * Defect: trace* leaves return_to and return_from events out by the first
 * letters of the tag's name, copied into a buffer too short for the longest
 * tags (gc_max_heap_size, getting_unlinked, send_to_non_existing_process)
 * without checking enif_get_atom's result, so for those tags it reads the
 * uninitialised buffer.  Its answers stay right either way (trace* returns
 * ok, and what it sends to the state no check judges), and the read does not
 * crash: only validate --sanitize sees it.
 * Flagged by: memory
 */
#include <erl_nif.h>

#define TCS_MODULE tcs_defect_uninit_read
#define TCS_TRACE_HOOK(env, argv) \
    if (is_return_event(env, argv[0])) return enif_make_atom(env, "ok")
static int is_return_event(ErlNifEnv *env, ERL_NIF_TERM tag);
#include "../good/tcs_tracer_base.h"

/* Guarantees: true for return_to and return_from; for a tag of 16 characters or more it decides on
 * uninitialised bytes (the defect). */
static int is_return_event(ErlNifEnv *env, ERL_NIF_TERM tag)
{
    char name[16];
    (void)enif_get_atom(env, tag, name, sizeof name, ERL_NIF_LATIN1);
    return name[0] == 'r' && name[1] == 'e' && name[2] == 't';
}
