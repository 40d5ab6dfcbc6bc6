/* msgpatterns.c - the send and 'receive' trace patterns: erlang:trace_pattern(send | 'receive',
 * MatchSpec, []) from the harness (CONFORMANCE.md section 2, "Message patterns", MSGPAT-*);
 * what they do at each send and receive tracepoint is ref/events/msgtrace.c. */
#include <string.h>

#include "control.h"
#include "msgpatterns.h"
#include "patterns.h"

static bool restart_or_pause(const Term *ms) { return term_is_atom(ms, "restart") || term_is_atom(ms, "pause"); }

/* The rules of a refused pattern step: every reason erts would have (MSGPAT-BADARG). */
static void badarg_rules(Buf *rules, const Step *st)
{
    buf_puts(rules, "CTL-PATTERN MSGPAT-BADARG");
    if (restart_or_pause(st->term))
        buf_puts(rules, " MSGPAT-NO-RESTART");
    if (st->ms_invalid)
        buf_printf(rules, " %s", st->ms_invalid);
    if (st->nopts > 0)
        buf_puts(rules, " MSGPAT-NO-OPTIONS");
}

const char *msgpatterns_set(Model *m, int s, bool send, const Step *st, Buf *rules)
{
    MessagePattern *pat = model_message_pattern(&m->sessions[s], send);
    if (restart_or_pause(st->term) || st->ms_invalid || st->nopts > 0) {
        badarg_rules(rules, st); /* the pattern stays as it was */
        return "raises error:badarg";
    }
    bool off = term_is_atom(st->term, "false");
    bool ms = !off && !term_is_atom(st->term, "true") && st->term->kind != TK_NIL;
    buf_printf(rules, "CTL-PATTERN MSGPAT-SET %s%s", off ? "MSGPAT-FALSE" : ms ? "MSGPAT-MATCH-SPEC" : "MSGPAT-TRUE",
               st->term->kind == TK_NIL ? " MS-EMPTY" : "");
    if (pat->off || pat->ms)
        buf_puts(rules, " MSGPAT-REPLACE"); /* the old match spec (or false) is gone */
    *pat = (MessagePattern){.off = off, .ms = ms ? st->term : NULL, .set = true};
    return "-> 1";
}

bool msgpatterns_step(Model *m, const Step *st)
{
    Buf call, rules;
    buf_init(&call);
    buf_init(&rules);
    patterns_call_text(&call, st);
    const char *result = msgpatterns_set(m, LEGACY_SESSION, strcmp(st->event, "receive") != 0, st, &rules);
    control_line(m, buf_str(&call), result, buf_str(&rules));
    buf_free(&call);
    buf_free(&rules);
    return true;
}
