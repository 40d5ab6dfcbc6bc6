/* inherit.h - the trace flags a process gets from another (INHERIT-*, PROCS-SPEC-NEW). */
#ifndef TCS_INHERIT_H
#define TCS_INHERIT_H
#include <stdbool.h>

#include "model.h"

/* Guarantees: in every session, the flags the new process child gets at creation: the
 * defaults for new processes, set_on_spawn / set_on_first_spawn of parent, and for a linked
 * spawn set_on_link / set_on_first_link (INHERIT-*, PROCS-SPEC-NEW); clears the `first`
 * flags used. */
void inherit_spawn(Model *m, int parent, int child, bool linked);
/* Guarantees: in every session, set_on_link / set_on_first_link of linker applied to the
 * process it links to (INHERIT-LINK); the sessions it newly gets are attached oldest of the
 * linker's first, so they see its events in the linker's order (INHERIT-LINK-ORDER). */
void inherit_link(Model *m, int linker, int other);

#endif
