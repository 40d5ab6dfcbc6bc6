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

/* Guarantees: with --explain, a comment line naming rules a step applied where they make nothing
 * happen (no line of their own: a signal ignored, a callback not asked), so that --explain tells
 * every rule the model used; the stream's lines are unchanged. */
void control_decided(Model *m, const char *rules);

#endif
