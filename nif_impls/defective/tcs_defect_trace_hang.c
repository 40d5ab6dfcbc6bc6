/*
 * Defect: trace/5 spins forever on a seq_trace event whose label is not an
 * integer (labels may be any term since OTP 21; this tracer waits for an
 * integer that never comes).
 * Flagged by: trace_accepts
 * The live check's seq_trace traffic uses an integer label.
 */
#define TCS_MODULE tcs_defect_trace_hang
#define TCS_TRACE_HOOK(env, argv) \
    do { if (tcs_is_atom(env, argv[0], "seq_trace") && !enif_is_number(env, argv[2])) for (;;) {} } while (0)
#include "../good/tcs_tracer_base.h"
