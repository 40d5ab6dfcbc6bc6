/* sessions.h - the steps of trace sessions (module trace, OTP 27+; SESSION-*). */
#ifndef TCS_SESSIONS_H
#define TCS_SESSIONS_H
#include <stdbool.h>

#include "model.h"

/* Guarantees: the effect and ctl lines of a trace session step (ST_SESSION). */
bool sessions_step(Model *m, const Step *st);
/* Guarantees: the {Item, Value} trace:info/3 (or erlang:trace_info/2 for the legacy session s)
 * reports for item it of a function's pattern pat (NULL: no such function: undefined), or NULL
 * for an item functions do not have (badarg). */
Term *sessions_info_function(Model *m, int s, const Pattern *pat, const char *it);
/* Guarantees: true when item it of pat (a function's pattern of session s, not on_load's) is
 * the meta item of a function traced otherwise but not meta-traced (STATUS-INFO-META-NONE). */
bool sessions_meta_none(const Model *m, int s, const Pattern *pat, const char *it);

#endif
