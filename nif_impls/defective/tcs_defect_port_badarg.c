/*
 * Defect: trace/5 assumes the tracee is a process and raises badarg for a
 * port tracee.
 * Flagged by: trace_accepts
 * Live traffic does not crash: the runtime ignores what trace/5 returns or
 * raises, so the port events are silently lost.
 */
#define TCS_MODULE tcs_defect_port_badarg
#define TCS_TRACE_HOOK(env, argv) \
    do { if (enif_is_port(env, argv[2])) return enif_make_badarg(env); } while (0)
#include "../good/tcs_tracer_base.h"
