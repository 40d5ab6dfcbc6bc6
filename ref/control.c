/* control.c - the harness's calls into the tracing BIFs and what they return
 * (CONFORMANCE.md section 2, CTL-* rules). */
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

bool control_trace(Model *m, const Step *st)
{
    Buf call, rules;
    buf_init(&call);
    buf_init(&rules);
    buf_puts(&call, "erlang:trace(");
    if (st->spec == SPEC_PID)
        buf_printf(&call, "<%s>", st->actor);
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

bool control_pattern(Model *m, const Step *st)
{
    int fi = st->arity == 1 ? calls_target_index(st->fn) : -1;
    if (fi >= 0 && !st->ms_invalid) {
        Pattern *pat = &m->sessions[LEGACY_SESSION].pats[fi];
        pat->set = !term_is_atom(st->term, "false");
        pat->local = st->local;
        pat->ms = st->term;
    }
    Buf call;
    buf_init(&call);
    buf_puts(&call, "erlang:trace_pattern({tcs_target,");
    term_print_atom(&call, st->fn);
    buf_printf(&call, ",%lld},", st->arity);
    term_print(&call, st->term, PRINT_CANON);
    buf_printf(&call, ",[%s])", st->local ? "local" : "global");
    control_line(m, buf_str(&call), st->ms_invalid ? "raises error:badarg" : fi >= 0 ? "-> 1" : "-> 0",
                 "CTL-PATTERN EV-CALL-GLOBAL-LOCAL");
    buf_free(&call);
    return true;
}
