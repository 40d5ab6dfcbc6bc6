/*
 * Defect: trace* reads a send's recipient (Opts extra) as a pid, a port or a
 * {Name, Node} tuple, and takes whatever is not a pid or a port for the
 * tuple without checking: a locally registered name, what the runtime passes
 * for Name ! Msg, makes it read through a null pointer (SIGSEGV).
 * Flagged by: trace_accepts, stress
 * The live check's send phase sends to pids only; stress sends to a name.
 */
#include <erl_nif.h>

#define TCS_MODULE tcs_defect_name_recipient
#define TCS_TRACE_HOOK(env, argv) recipient_node(env, argv)
static void recipient_node(ErlNifEnv *env, const ERL_NIF_TERM argv[]);
#include "../good/tcs_tracer_base.h"

/* Guarantees: nothing for a pid, a port or a {Name, Node} recipient; a crash for a name (the defect). */
static void recipient_node(ErlNifEnv *env, const ERL_NIF_TERM argv[])
{
    ERL_NIF_TERM to;
    const ERL_NIF_TERM *name_node = NULL;
    int arity = 0;
    if (!tcs_is_atom(env, argv[0], "send")
        || !enif_get_map_value(env, argv[4], enif_make_atom(env, "extra"), &to)
        || enif_is_pid(env, to) || enif_is_port(env, to))
        return;
    (void)enif_get_tuple(env, to, &arity, &name_node);
    if (!enif_is_atom(env, name_node[1]))   /* name_node is NULL for an atom */
        enif_raise_exception(env, enif_make_atom(env, "bad_node"));
}
