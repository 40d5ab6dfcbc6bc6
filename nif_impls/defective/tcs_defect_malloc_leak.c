/*
 * Defect: trace* formats a log line for every event into a buffer from malloc
 * and never frees it (a line kept "for later" that nothing reads): 64 bytes
 * per event, without bound.  The runtime's allocators never see the buffer,
 * so erlang:memory/0 stays flat, and the RSS grows too slowly to tell from the
 * runtime's own carriers: only malloc's own count shows it.
 * Flagged by: leak
 */
#include <erl_nif.h>
#include <stdio.h>
#include <stdlib.h>

#define TCS_MODULE tcs_defect_malloc_leak
#define TCS_TRACE_HOOK(env, argv) keep_log_line(env, argv)
static void keep_log_line(ErlNifEnv *env, const ERL_NIF_TERM argv[]);
#include "../good/tcs_tracer_base.h"

#define LOG_LINE_BYTES 64

/* Guarantees: writes the event's tag into a fresh 64-byte buffer that is never freed (the defect). */
static void keep_log_line(ErlNifEnv *env, const ERL_NIF_TERM argv[])
{
    char *line = malloc(LOG_LINE_BYTES);
    char tag[32];
    if (line == NULL)
        return;
    if (!enif_get_atom(env, argv[0], tag, sizeof tag, ERL_NIF_LATIN1))
        snprintf(tag, sizeof tag, "?");
    snprintf(line, LOG_LINE_BYTES, "trace %s", tag);
}
