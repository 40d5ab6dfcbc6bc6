/* fixturecode.h - the fixture module tcs_late deleted and purged between steps, so that a
 * later call loads it again, or a new version of it loaded (CONFORMANCE.md section 2, "Call
 * tracing and function patterns"). */
#ifndef TCS_FIXTURECODE_H
#define TCS_FIXTURECODE_H
#include <stdbool.h>

#include "model.h"

/* Guarantees: the effect and control line of `unload tcs_late`: code:delete/1 answers true;
 * the module is not loaded now and its functions have no pattern in any session
 * (CALL-PATTERN-MODULE-DELETED). False with err set before a call of the case loaded it. */
bool fixturecode_unload(Model *m, const Step *st);
/* Guarantees: the effect and control line of `load tcs_late` (code:load_file/1): with old code
 * left by an earlier load, {error,not_purged} and nothing changes (CALL-RELOAD-NOT-PURGED; on a
 * release C-480 names, the module's patterns are gone in every session); else {module,tcs_late},
 * the module loaded, its patterns those on_load sets, and a version it had is old now
 * (CALL-RELOAD-NEW-INSTANCE). */
bool fixturecode_load(Model *m, const Step *st);

#endif
