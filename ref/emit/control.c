/* control.c - the ctl lines: a harness call and what it returns, or a step that raised
 * (CONFORMANCE.md section 1 and section 2, CTL-* rules). */
#include <string.h>

#include "control.h"
#include "errorinfo.h"
#include "release.h"

void control_line(Model *m, const char *call, const char *result, const char *rules)
{
    Buf body, why;
    buf_init(&body);
    buf_init(&why);
    buf_printf(&body, "ctl %s %s", call, result);
    buf_puts(&why, rules);
    /* a raise of module trace carries its extended error information (ERRINFO-*) */
    const char *info = strncmp(result, "raises ", 7) == 0 ? errorinfo_rule(call, rules) : NULL;
    if (info) {
        /* OTP 27's erl_kernel_errors blames argument 2 for an item that does not apply (C-90) */
        bool blames_what = strcmp(info, "ERRINFO-INFO-ITEM") == 0 && release_deviates(m, DEV_INFO_ITEM_EXPLAINS_WHAT);
        errorinfo_append(&body, call, rules, blames_what ? "2" : NULL);
        buf_printf(&why, " %s", info);
    }
    /* a together block's steps: the harness writes them once the block is done (BLOCK-TOGETHER) */
    stream_line(m->together ? &m->together->held : m->out, 'N', buf_str(&body), buf_str(&why));
    buf_free(&body);
    buf_free(&why);
}

void control_decided(Model *m, const char *rules) { stream_decided(m->out, rules); }

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
