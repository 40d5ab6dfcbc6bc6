/* msgpatterns.c - the send and 'receive' trace patterns: erlang:trace_pattern(send | 'receive',
 * MatchSpec, []) from the harness (CONFORMANCE.md section 2, "Message patterns", MSGPAT-*);
 * what they do at each send and receive tracepoint is ref/events/msgtrace.c. */
#include <string.h>

#include "control.h"
#include "msgpatterns.h"
#include "patterns.h"
#include "release.h"

static bool restart_or_pause(const Term *ms) { return term_is_atom(ms, "restart") || term_is_atom(ms, "pause"); }

/* Whether the step has options: atoms in st->opts, and in a session also tuples, which only
 * st->sargs holds. */
static bool has_options(const Step *st)
{
    return st->nopts > 0 || (st->sargs && st->sargs->kind == TK_CONS);
}

/* Whether erts refuses the options while it reads them, before the match spec: the loop of
 * erl_bif_trace.c trace_pattern that reads function patterns' options, which refuses an
 * unknown option, a tuple in a session and global with a breakpoint option (MSGPAT-BAD-OPTION);
 * what it accepts is refused for an event only after the match spec (MSGPAT-NO-OPTIONS). */
static bool options_bad(const Step *st)
{
    for (const Term *o = st->sargs; o && o->kind == TK_CONS; o = o->u.cons.tail)
        if (o->u.cons.head->kind == TK_TUPLE)
            return true;
    return patterns_options_refusal(st) != NULL;
}

/* The rules of a refused pattern step: every reason erts would have (MSGPAT-BADARG). */
static void badarg_rules(Buf *rules, const Step *st, const char *ms_invalid)
{
    buf_puts(rules, "CTL-PATTERN MSGPAT-BADARG");
    if (restart_or_pause(st->term))
        buf_puts(rules, " MSGPAT-NO-RESTART");
    if (ms_invalid)
        buf_printf(rules, " %s", ms_invalid);
    if (has_options(st))
        buf_puts(rules, options_bad(st) ? " MSGPAT-NO-OPTIONS MSGPAT-BAD-OPTION" : " MSGPAT-NO-OPTIONS");
}

const char *msgpatterns_set(Model *m, int s, bool send, const Step *st, Buf *rules)
{
    MessagePattern *pat = model_message_pattern(&m->sessions[s], send);
    const char *ms_invalid = release_ms_invalid(m, st);
    if (restart_or_pause(st->term) || ms_invalid || has_options(st)) {
        badarg_rules(rules, st, ms_invalid); /* the pattern stays as it was */
        return "raises error:badarg";
    }
    bool off = term_is_atom(st->term, "false");
    bool ms = !off && !term_is_atom(st->term, "true") && st->term->kind != TK_NIL;
    buf_printf(rules, "CTL-PATTERN MSGPAT-SET %s%s", off ? "MSGPAT-FALSE" : ms ? "MSGPAT-MATCH-SPEC" : "MSGPAT-TRUE",
               st->term->kind == TK_NIL ? " MS-EMPTY" : "");
    if (pat->off || pat->ms)
        buf_puts(rules, " MSGPAT-REPLACE"); /* the old match spec (or false) is gone */
    if (model_message_pattern(&m->sessions[s], !send)->set)
        buf_puts(rules, " MSGPAT-SEPARATE"); /* the other pattern stays as it is */
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
