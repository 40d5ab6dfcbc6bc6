/* fninfo.c - erlang:trace_info({M,F,A}, Item) from the harness: what the legacy session has
 * set on a fixture function, as trace:info/3 reports it for a session (003, info/3: "The
 * interface and semantics are similar to the older functions ... erlang:trace_info/2"). */
#include <string.h>

#include "control.h"
#include "counters.h"
#include "fninfo.h"
#include "readings.h"
#include "sessions.h"

bool fninfo_step(Model *m, const Step *st)
{
    const Term *mfa = st->term;
    FixtureModule mod = (FixtureModule)fixture_module(mfa->u.tuple.el[0]->u.name);
    int fn = m->loaded[mod] ? fixture_fn(mod, mfa->u.tuple.el[1]->u.name, mfa->u.tuple.el[2]->u.i) : -1;
    const Pattern *pat = fn < 0 ? NULL : &m->sessions[LEGACY_SESSION].pats[fn];
    const char *uncounted = counters_uncounted(pat, st->item);
    if (uncounted)
        return model_unsupported(m, st->line, st->term_col, uncounted);
    Buf call, result;
    buf_init(&call);
    buf_init(&result);
    buf_puts(&call, "erlang:trace_info(");
    term_print(&call, mfa, PRINT_CANON);
    buf_printf(&call, ",%s)", st->item);
    buf_puts(&result, "-> ");
    term_print(&result, sessions_info_function(m, LEGACY_SESSION, pat, st->item), PRINT_CANON);
    /* the meta item names the meta tracer: the recorder with its meta state, or with `tracer
     * process` that process (STATUS-INFO-META) */
    const char *rules = "STATUS-INFO CALL-COUNTERS-INFO";
    if (sessions_meta_none(m, LEGACY_SESSION, pat, st->item))
        rules = "STATUS-INFO CALL-COUNTERS-INFO STATUS-INFO-META-NONE";
    else if (pat && pat->meta && (strcmp(st->item, "meta") == 0 || strcmp(st->item, "all") == 0))
        rules = "STATUS-INFO CALL-COUNTERS-INFO STATUS-INFO-META";
    control_line(m, buf_str(&call), buf_str(&result), rules);
    buf_free(&call);
    buf_free(&result);
    return readings_take(m, st, LEGACY_SESSION, fn, pat);
}
