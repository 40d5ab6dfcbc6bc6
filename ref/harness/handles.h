/* handles.h - the handles of trace sessions as steps name them: which session, how a call
 * prints one, whether a call can use one (SESSION-*-HANDLE). sessions.c and badcalls.c both
 * use them. */
#ifndef TCS_HANDLES_H
#define TCS_HANDLES_H
#include <stdbool.h>

#include "model.h"

/* Guarantees: the index in m->sessions of the session the step's handle names (LEGACY_SESSION
 * for weak(legacy)). */
int handles_session(const Step *st);
/* Guarantees: session s's handle as a call prints it: {_Ref,{sa,_Id}}, its weak part {sa,_Id},
 * or {legacy,default}. */
Term *handles_term(Model *m, int s, bool weak);
/* Guarantees: "trace:FN(" and the step's session argument (its handle, or the term written in
 * its place) appended to call; the caller adds the other arguments. */
void handles_call_head(Model *m, Buf *call, const char *fn, const Step *st);
/* Guarantees: the rule ID why the step's session argument is no live handle, or NULL. */
const char *handles_refused(const Model *m, const Step *st);
/* Guarantees: true when an apply step is a call of session_destroy/1 that does not raise (a live
 * handle, or a strong handle of a destroyed session: false), so it is the destroy step's. */
bool handles_apply_destroys(const Model *m, const Step *st);

#endif
