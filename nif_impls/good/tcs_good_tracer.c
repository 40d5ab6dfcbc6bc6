/*
 * The bundled good tracer: tcs_tracer_base.h with every optional callback of
 * erl_tracer in its NIF table, so that ./tcs validate sees the runtime call
 * each enabled_X/3 and trace_X/5 directly.  It must pass every check.
 */
#define TCS_MODULE tcs_good_tracer
#define TCS_FUNCS                                                              \
    {"enabled", 3, tcs_enabled, 0}, {"trace", 5, tcs_trace, 0},                \
    {"enabled_call", 3, tcs_enabled, 0},                                       \
    {"enabled_garbage_collection", 3, tcs_enabled, 0},                         \
    {"enabled_ports", 3, tcs_enabled, 0}, {"enabled_procs", 3, tcs_enabled, 0}, \
    {"enabled_receive", 3, tcs_enabled, 0},                                    \
    {"enabled_running_ports", 3, tcs_enabled, 0},                              \
    {"enabled_running_procs", 3, tcs_enabled, 0},                              \
    {"enabled_send", 3, tcs_enabled, 0},                                       \
    {"trace_call", 5, tcs_trace, 0},                                           \
    {"trace_garbage_collection", 5, tcs_trace, 0},                             \
    {"trace_ports", 5, tcs_trace, 0}, {"trace_procs", 5, tcs_trace, 0},        \
    {"trace_receive", 5, tcs_trace, 0},                                        \
    {"trace_running_ports", 5, tcs_trace, 0},                                  \
    {"trace_running_procs", 5, tcs_trace, 0}, {"trace_send", 5, tcs_trace, 0}
#include "tcs_tracer_base.h"
