/*
 * Defect: trace* sums the bytes of the tag's name, copied into a block of
 * enif_alloc without its terminating NUL, and its loop runs one byte too far:
 * it reads one byte past the block.  The sum only decides whether an event
 * with an empty tag name is left out (there is none), so every answer stays
 * right and the read does not crash: only validate --sanitize sees it.
 * Flagged by: memory
 */
#include <erl_nif.h>
#include <string.h>

#define TCS_MODULE tcs_defect_heap_overrun
#define TCS_TRACE_HOOK(env, argv) \
    if (name_sum(env, argv[0]) == 0) return enif_make_atom(env, "ok")
static unsigned name_sum(ErlNifEnv *env, ERL_NIF_TERM tag);
#include "../good/tcs_tracer_base.h"

/* Guarantees: the sum of the tag name's bytes, plus the byte after its block (the defect). */
static unsigned name_sum(ErlNifEnv *env, ERL_NIF_TERM tag)
{
    char name[256];
    int size = enif_get_atom(env, tag, name, sizeof name, ERL_NIF_LATIN1);   /* with the NUL */
    unsigned char *copy;
    unsigned sum = 0;
    if (size < 2)
        return 1;
    copy = enif_alloc((size_t)size - 1);
    memcpy(copy, name, (size_t)size - 1);
    for (int i = 0; i < size; i++)      /* one too far: copy holds size - 1 bytes */
        sum += copy[i];
    enif_free(copy);
    return sum;
}
