/* opts.c - the Opts map passed to trace callbacks (CONFORMANCE.md section 2, "The Opts map"). */
#include "opts.h"

Term *opts_build(Arena *a, FlagSet flags, FlagSet ts_cleared, const Term *extra,
                 const Term *ms_result, bool dirty, Buf *rules)
{
    Term *keys[4], *vals[4];
    size_t n = 0;
    buf_puts(rules, " OPTS-ONLY-SET");
    if (extra) { /* OPTS-EXTRA */
        keys[n] = term_atom(a, "extra");
        vals[n++] = (Term *)extra;
        buf_puts(rules, " OPTS-EXTRA");
    }
    if (ms_result) { /* OPTS-MATCH-SPEC-RESULT */
        keys[n] = term_atom(a, "match_spec_result");
        vals[n++] = (Term *)ms_result;
        buf_puts(rules, " OPTS-MATCH-SPEC-RESULT");
    }
    if (flags & FLAG_BIT(FL_SCHEDULER_ID)) { /* OPTS-SCHEDULER-ID, value not deterministic */
        keys[n] = term_atom(a, "scheduler_id");
        /* a dirty scheduler has no scheduler id: 0 (erts_get_scheduler_id(), OPTS-SCHEDULER-ID-DIRTY) */
        vals[n++] = dirty ? term_int(a, 0) : term_placeholder(a, "_SchedulerId");
        buf_puts(rules, dirty ? " OPTS-SCHEDULER-ID OPTS-SCHEDULER-ID-DIRTY" : " OPTS-SCHEDULER-ID");
    }
    const char *kind = flags_timestamp_kind(flags);
    if (kind) { /* TS-KIND, TS-PRECEDENCE, TS-REMEMBERED */
        keys[n] = term_atom(a, "timestamp");
        vals[n++] = term_atom(a, kind);
        buf_puts(rules, " TS-KIND TS-PRECEDENCE");
        if (flags & FLAG_BIT(FL_CPU_TIMESTAMP) && flags_timestamp_flag(flags) == FL_TIMESTAMP)
            buf_puts(rules, " TS-CPU");
        if (flags_ts_remembered(flags, ts_cleared))
            buf_puts(rules, " TS-REMEMBERED");
    }
    return term_map(a, n, keys, vals); /* keys sorted in term order */
}
