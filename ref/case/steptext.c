/* steptext.c - a step's arguments as the Erlang terms of the call it stands for, shared by
 * the plan (plan.c) and the ctl lines of the harness calls. */
#include "steptext.h"

void steptext_pattern_target(Buf *out, const Step *st)
{
    if (!st->module) {
        term_print_atom(out, st->event ? st->event : "on_load"); /* send, 'receive' or on_load */
        return;
    }
    buf_puts(out, "{");
    term_print_atom(out, st->module);
    buf_puts(out, ",");
    term_print_atom(out, st->fn);
    if (st->arity == ANY_ARITY)
        buf_puts(out, ",'_'}");
    else
        buf_printf(out, ",%lld}", st->arity);
}

