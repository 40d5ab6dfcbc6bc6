/* errorinfo.h - the extended error information of a raised call of module trace (ERRINFO-*). */
#ifndef TCS_ERRORINFO_H
#define TCS_ERRORINFO_H
#include "buf.h"

/* Guarantees: appends to out what follows "raises error:badarg" for call (its text, e.g.
 * "trace:process(...)") refused for rules: " error_info #{...} explains [N,...]" when the call is
 * one of module trace, else nothing (PROTOCOLS.md section 6, ERRINFO-* rules); args (e.g. "2"),
 * when not NULL, in place of the arguments the documents' reading explains (a release's own). */
void errorinfo_append(Buf *out, const char *call, const char *rules, const char *args);
/* Guarantees: the ERRINFO-* rule that errorinfo_append applies for call and rules, or NULL
 * when it appends nothing. */
const char *errorinfo_rule(const char *call, const char *rules);

#endif
