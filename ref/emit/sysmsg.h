/* sysmsg.h - the system monitor messages a session's tracer process gets (OTP 28+,
 * trace:system/3). */
#ifndef TCS_SYSMSG_H
#define TCS_SYSMSG_H
#include "model.h"

/* Guarantees: the line msg(<S>, {monitor, <p>, event, info}) of session s's tracer process,
 * with the rules. */
void sysmsg_monitor(Model *m, int s, int p, const char *event, Term *info, const char *rules);
/* Guarantees: the line msg(<M>, {monitor, <p>, event, info}) of the legacy system monitor M
 * (m->legacy_monitor, set), with the rules. */
void sysmsg_legacy_monitor(Model *m, int p, const char *event, Term *info, const char *rules);
/* Guarantees: the same message as an allowance window's template ("N msg(...)"), in the arena:
 * one the runtime may send any number of times more. */
const char *sysmsg_template(Model *m, int s, int p, const char *event, Term *info);
/* Guarantees: the template "N msg(<receiver>, {monitor,Subject,event,info})", in the arena: a
 * message to any tracer process about any subject (a scenario process, <?>, <port:?>). */
const char *sysmsg_template_about(Model *m, const char *receiver, Term *subject, const char *event, Term *info);

#endif
