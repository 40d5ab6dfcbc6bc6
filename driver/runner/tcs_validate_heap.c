/*
 * tcs_validate_heap: how many bytes the C library's malloc has handed out and
 * not had back, for validate's leak check.
 *
 * A tracer that leaks with malloc (a buffer per event never freed) grows
 * neither erlang:memory/0 (the runtime's allocators do not see it) nor, by
 * much, the RSS before hundreds of megabytes: the RSS moves in pages and with
 * the runtime's own carriers, so its limit must be coarse.  The runtime takes
 * its carriers from mmap, not malloc, so malloc's own count stays flat for a
 * correct tracer and grows by the leaked bytes for a leaking one.  glibc's
 * mallinfo2 (2.33 and later) counts every arena, the main one and each
 * thread's, and the blocks it mapped on its own.
 */
#include <erl_nif.h>
#include <malloc.h>

#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
#define TCS_HAVE_MALLINFO2 1
#endif

/* Guarantees: the bytes malloc has handed out and not had back (in arenas and mapped on their own),
 * or the atom undefined where the C library cannot tell. */
static ERL_NIF_TERM malloc_in_use(ErlNifEnv *env, int argc, const ERL_NIF_TERM argv[])
{
    (void)argc;
    (void)argv;
#ifdef TCS_HAVE_MALLINFO2
    struct mallinfo2 info = mallinfo2();
    return enif_make_uint64(env, (ErlNifUInt64)(info.uordblks + info.hblkhd));
#else
    return enif_make_atom(env, "undefined");
#endif
}

static ErlNifFunc functions[] = {{"malloc_in_use", 0, malloc_in_use, 0}};

ERL_NIF_INIT(tcs_validate_heap, functions, NULL, NULL, NULL, NULL)
