/* control.c - the harness's calls into the tracing BIFs and what they return
 * (CONFORMANCE.md section 2, CTL-* rules); trace_pattern/3 is in ref/patterns.c. */
#include <string.h>

#include "model.h"

void control_line(Model *m, const char *call, const char *result, const char *rules)
{
    Buf body;
    buf_init(&body);
    buf_printf(&body, "ctl %s %s", call, result);
    stream_line(m->out, 'N', buf_str(&body), rules);
    buf_free(&body);
}

void control_step_raised(Model *m, int p, const Term *action, const char *class_, const Term *reason,
                         const char *rules)
{
    Buf call, result;
    buf_init(&call);
    buf_init(&result);
    buf_printf(&call, "<%s> ", m->procs[p].name);
    term_print_atom(&call, action->u.tuple.el[0]->u.name);
    buf_puts(&call, "(");
    for (size_t i = 1; i < action->u.tuple.n; i++) {
        if (i > 1)
            buf_puts(&call, ",");
        term_print(&call, action->u.tuple.el[i], PRINT_CANON);
    }
    buf_puts(&call, ")");
    buf_printf(&result, "raises %s:", class_);
    term_print(&result, reason, PRINT_CANON);
    control_line(m, buf_str(&call), buf_str(&result), rules);
    buf_free(&call);
    buf_free(&result);
}

bool control_trace(Model *m, const Step *st)
{
    Buf call, rules;
    buf_init(&call);
    buf_init(&rules);
    buf_puts(&call, "erlang:trace(");
    if (st->spec == SPEC_PID)
        model_print_id(&call, m, model_proc(m, st->actor));
    else
        term_print_atom(&call, st->actor);
    buf_printf(&call, ",%s,[", st->on ? "true" : "false");
    for (int i = 0; i < st->nflags; i++) {
        if (i)
            buf_puts(&call, ",");
        term_print(&call, st->flag_terms[i], PRINT_CANON);
    }
    buf_puts(&call, "])");
    const char *refusal = procspec_refusal(m, st);
    buf_puts(&rules, refusal ? refusal : "CTL-TRACE");
    /* the trace_status probe happens during the call, before its result (STATUS-PROBE) */
    const char *result = refusal ? NULL : procspec_apply(m, LEGACY_SESSION, st, &rules);
    Buf res;
    buf_init(&res);
    if (result)
        buf_printf(&res, "-> %s", result);
    else
        buf_puts(&res, "raises error:badarg");
    control_line(m, buf_str(&call), buf_str(&res), buf_str(&rules));
    buf_free(&res);
    buf_free(&call);
    buf_free(&rules);
    return true;
}
