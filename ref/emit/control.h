/* control.h - the ctl lines of the stream: the harness's calls and what they return. */
#ifndef TCS_CONTROL_H
#define TCS_CONTROL_H
#include "model.h"

/* Guarantees: the line "N ctl CALL RESULT" with its rules. */
void control_line(Model *m, const char *call, const char *result, const char *rules);
/* Guarantees: the line "N ctl <P> Verb(Arg,...) raises Class:Reason" of a step of process p
 * whose action {Verb, Arg...} raised (the process catches it and goes on; CONFORMANCE.md
 * section 1). */
void control_step_raised(Model *m, int p, const Term *action, const char *class_, const Term *reason,
                         const char *rules);

#endif
