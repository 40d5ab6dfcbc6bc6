/* errorinfo.c - the extended error information of a raised call of module trace: the
 * error_info map of the exception and which arguments its module's format_error/2 explains
 * (CONFORMANCE.md section 2, "Errors"; PROTOCOLS.md section 6). The documents say only that
 * these calls raise badarg; what OTP adds was seen live on OTP 27 and 29 (C-90). */
#include <string.h>

#include "errorinfo.h"

/* One refusal: the function of module trace (NULL: any), the rule ID the model refused the
 * call by, the cause it reports (NULL: no cause key), the arguments its module's
 * format_error/2 explains (e.g. "2,3"; "": none), the module (NULL: erl_kernel_errors).
 * First match. */
typedef struct {
    const char *fn, *refused, *cause, *args, *rule, *module;
} Refusal;

static const Refusal refusals[] = {
    /* trace:system/3 raises from the BIF itself, a dead session too: erts's own formatter,
     * no argument named */
    {"system", "SESSION-", NULL, "", "ERRINFO-SYSTEM", "erl_erts_errors"},
    {"session_destroy", "SESSION-DEAD-HANDLE", "badopt", "1", "ERRINFO-DESTROY", NULL}, /* C-22 */
    {"session_destroy", "SESSION-LEGACY-WEAK", "badopt", "1", "ERRINFO-DESTROY", NULL},
    {"session_destroy", "SESSION-NOT-A-HANDLE", "badopt", "1", "ERRINFO-DESTROY", NULL},
    {NULL, "SESSION-DEAD-HANDLE", "session", "1", "ERRINFO-SESSION", NULL},
    {NULL, "SESSION-LEGACY-WEAK", "session", "1", "ERRINFO-SESSION", NULL},
    {NULL, "SESSION-NOT-A-HANDLE", "session", "1", "ERRINFO-SESSION", NULL},
    /* erl_kernel_errors.erl, format_trace_error(session_create, ...): a Tracer that is no
     * pid, port or {Mod, _} is "invalid tracer", also undefined, which the BIF takes (C-290) */
    {"session_create", "SESSION-UNDEFINED-TRACER", NULL, "2,3", "ERRINFO-CREATE-UNDEFINED-TRACER", NULL},
    {"session_create", "SESSION-CREATE-OPTS", NULL, "3", "ERRINFO-CREATE-OPTS", NULL},
    {NULL, "SESSION-REFUSED-OPTS", "badopt", "4", "ERRINFO-BADOPT", NULL},
    {"send", "SESSION-FLAGS-NO-LIST", "badopt", "3", "ERRINFO-BADOPT", NULL}, /* apply (C-280) */
    {"recv", "SESSION-FLAGS-NO-LIST", "badopt", "3", "ERRINFO-BADOPT", NULL},
    {NULL, "SESSION-FLAGS-NO-LIST", "badopt", "4", "ERRINFO-BADOPT", NULL},
    {NULL, "SESSION-BAD-HOW", NULL, "3", "ERRINFO-HOW", NULL},
    /* erl_bif_trace.c trace(): `goto error` without a cause; erl_kernel_errors.erl
     * format_trace_error(process | port, ...) then says "invalid process (port) spec" (C-335) */
    {NULL, "SESSION-CPU-TIMESTAMP", NULL, "2", "ERRINFO-TRACEE", NULL},
    {"process", "SESSION-PROCESS", NULL, "2", "ERRINFO-TRACEE", NULL},
    {"port", "SESSION-PORT", NULL, "2", "ERRINFO-TRACEE", NULL},
    {"info", "SESSION-SYSTEM-INFO", "badopt", "2", "ERRINFO-INFO-SYSTEM", NULL},
    {"info", "SESSION-INFO", NULL, "3", "ERRINFO-INFO-ITEM", NULL}, /* OTP 27: 2 (C-90, control.c) */
    {"function", "CALL-PATTERN-FORBIDDEN", "none", "2", "ERRINFO-MFA", NULL},
    {"function", "CALL-PATTERN-BAD-OPTION", "badopt", "4", "ERRINFO-BADOPT", NULL},
    {"function", "CALL-PATTERN-GLOBAL-EXCLUSIVE", "badopt", "4", "ERRINFO-BADOPT", NULL},
    {"function", "CALL-COUNTERS-NOT-GLOBAL", "badopt", "4", "ERRINFO-BADOPT", NULL}, /* C-321 */
    {"function", "MS-", "match_spec", "3", "ERRINFO-MATCH-SPEC", NULL},
    /* send/3 and recv/3, in erl_bif_trace.c trace_pattern's order: the options as read for
     * function patterns, the match spec, then the options and restart/pause an event refuses */
    {"send", "MSGPAT-BAD-OPTION", "badopt", "3", "ERRINFO-BADOPT", NULL},
    {"recv", "MSGPAT-BAD-OPTION", "badopt", "3", "ERRINFO-BADOPT", NULL},
    {"send", "MS-", "match_spec", "2", "ERRINFO-MATCH-SPEC", NULL},
    {"recv", "MS-", "match_spec", "2", "ERRINFO-MATCH-SPEC", NULL},
    {"recv", "MSGPAT-RECEIVE-REFUSED", "match_spec", "2", "ERRINFO-MATCH-SPEC", NULL},
    {"send", "MSGPAT-SEND-REFUSED", "match_spec", "2", "ERRINFO-MATCH-SPEC", NULL},
    {"send", "MSGPAT-NO-OPTIONS", "none", "", "ERRINFO-EVENT-NONE", NULL},
    {"recv", "MSGPAT-NO-OPTIONS", "none", "", "ERRINFO-EVENT-NONE", NULL},
    {"send", "MSGPAT-NO-RESTART", "none", "", "ERRINFO-EVENT-NONE", NULL},
    {"recv", "MSGPAT-NO-RESTART", "none", "", "ERRINFO-EVENT-NONE", NULL},
    /* `apply` (ref/harness/badcalls.c, C-280): what erl_kernel_errors names not_local_pid,
     * not_local_port, and the arguments of other kinds the BIFs refuse */
    {NULL, "SESSION-TRACEE-REMOTE-FLAGS", "badopt", "2,4", "ERRINFO-NOT-LOCAL-FLAGS", NULL}, /* C-321 */
    {"process", "SESSION-TRACEE-REMOTE", NULL, "2", "ERRINFO-NOT-LOCAL", NULL},
    {"port", "SESSION-TRACEE-REMOTE", NULL, "2", "ERRINFO-NOT-LOCAL", NULL},
    {"info", "SESSION-TRACEE-REMOTE", "badopt", "2", "ERRINFO-NOT-LOCAL", NULL},
    {"session_info", "SESSION-INFO-BAD-WHAT", "badopt", "1", "ERRINFO-NOT-LOCAL", NULL},
    {NULL, "SESSION-TRACEE-BAD", NULL, "2", "ERRINFO-TRACEE", NULL},
    {"process", "SESSION-UNKNOWN-FLAG", "badopt", "4", "ERRINFO-BADOPT", NULL},
    {"function", "CALL-COUNT-NO-MATCH-SPEC", "call_count", "4", "ERRINFO-CALL-COUNT", NULL},
    /* the same refusal from a session's pattern step (fuzz seed 777001, OTP 27 and 29) */
    {"function", "CALL-COUNTERS-NO-MATCH-SPEC", "call_count", "4", "ERRINFO-CALL-COUNT", NULL},
    {"function", "SESSION-FUNCTION-BAD-MFA", "none", "2", "ERRINFO-MFA", NULL},
    {"session_create", "SESSION-CREATE-NAME", NULL, "1", "ERRINFO-CREATE-ARGS", NULL},
    {"session_create", "SESSION-CREATE-TRACER", NULL, "2", "ERRINFO-CREATE-ARGS", NULL},
};

/* True iff rules (IDs separated by blanks) holds the ID id, or (id ending in '-') an ID of
 * that family. */
static bool has_rule(const char *rules, const char *id)
{
    size_t n = strlen(id);
    bool family = id[n - 1] == '-';
    for (const char *r = strstr(rules, id); r; r = strstr(r + 1, id))
        if ((r == rules || r[-1] == ' ') && (family || r[n] == '\0' || r[n] == ' '))
            return true;
    return false;
}

/* The refusal that applies to call, or NULL. */
static const Refusal *refusal(const char *call, const char *rules)
{
    static const char prefix[] = "trace:";
    if (strncmp(call, prefix, sizeof prefix - 1) != 0)
        return NULL;
    const char *fn = call + sizeof prefix - 1;
    size_t len = strcspn(fn, "(");
    for (size_t i = 0; i < sizeof refusals / sizeof refusals[0]; i++) {
        const Refusal *r = &refusals[i];
        if ((!r->fn || (strlen(r->fn) == len && strncmp(r->fn, fn, len) == 0)) && has_rule(rules, r->refused))
            return r;
    }
    return NULL;
}

const char *errorinfo_rule(const char *call, const char *rules)
{
    const Refusal *r = refusal(call, rules);
    return r ? r->rule : NULL;
}

void errorinfo_append(Buf *out, const char *call, const char *rules, const char *args)
{
    const Refusal *r = refusal(call, rules);
    if (!r)
        return;
    buf_puts(out, " error_info #{");
    if (r->cause)
        buf_printf(out, "cause=>%s,", r->cause);
    buf_printf(out, "module=>%s} explains [%s]", r->module ? r->module : "erl_kernel_errors",
               args ? args : r->args);
}
