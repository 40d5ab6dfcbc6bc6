/* control.c - the ctl lines: a harness call and what it returns, or a step that raised
 * (CONFORMANCE.md section 1 and section 2, CTL-* rules). */
#include "control.h"

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
