/* fixturecode.h - the fixture module tcs_late deleted and purged between steps, so that a
 * later call loads it again (CONFORMANCE.md section 2, "Call tracing and function patterns"). */
#ifndef TCS_FIXTURECODE_H
#define TCS_FIXTURECODE_H
#include <stdbool.h>

#include "model.h"

/* Guarantees: the effect and control line of `unload tcs_late`: code:delete/1 answers true;
 * the module is not loaded now and its functions have no pattern in any session
 * (CALL-PATTERN-MODULE-DELETED). False with err set before a call of the case loaded it. */
bool fixturecode_unload(Model *m, const Step *st);

#endif
