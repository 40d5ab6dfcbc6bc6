/* flags.h - the trace flags of a process (erlang:trace/3) and time stamp precedence. */
#ifndef TCS_FLAGS_H
#define TCS_FLAGS_H
#include <stdbool.h>

#include "dispatch.h"

/* The documented flags of erlang:trace/3 (except {tracer, ...}, which the harness adds). */
typedef enum {
    FL_SEND, FL_RECEIVE, FL_CALL, FL_PROCS, FL_ARITY, FL_TIMESTAMP, FL_MONOTONIC_TIMESTAMP,
    FL_STRICT_MONOTONIC_TIMESTAMP, FL_SCHEDULER_ID, FL_CPU_TIMESTAMP,
    FL_SILENT, FL_RETURN_TO, FL_SET_ON_SPAWN, FL_SET_ON_FIRST_SPAWN, FL_SET_ON_LINK,
    FL_SET_ON_FIRST_LINK, FL_RUNNING, FL_EXITING, FL_RUNNING_PROCS, FL_RUNNING_PORTS,
    FL_GARBAGE_COLLECTION, FL_PORTS,
    FL_ALL,     /* `all`: shorthand for FLAGS_ALL, never itself a flag of a process */
    FL_COUNT    /* also "no flag": a term that is not a trace flag, or no time stamp flag */
} Flag;

/* A set of flags, bit f for flag f. */
typedef unsigned FlagSet;

#define FLAG_BIT(f) (1u << (f))

/* FLAGS-ALL: what `all` sets: every flag but cpu_timestamp (and `all` itself). */
#define FLAGS_ALL (FLAG_BIT(FL_ALL) - 1u - FLAG_BIT(FL_CPU_TIMESTAMP))
/* The three time stamp flags of TS-PRECEDENCE. */
#define FLAGS_TIMESTAMPS \
    (FLAG_BIT(FL_TIMESTAMP) | FLAG_BIT(FL_MONOTONIC_TIMESTAMP) | FLAG_BIT(FL_STRICT_MONOTONIC_TIMESTAMP))

/* Guarantees: the flag's atom name (e.g. "receive"). */
const char *flag_name(Flag f);
/* Guarantees: 1 and *out set for a documented trace flag; 0 for `tracer`, which only the
 * harness may give; -1 for a name that is no trace flag at all. */
int flag_lookup(const char *name, Flag *out);
/* Guarantees: the bits a flag of a trace step sets or clears (`all` is FLAGS_ALL). */
FlagSet flags_expand(Flag f);
/* Guarantees: the flags of the set that apply to processes: all but cpu_timestamp and
 * the port-only ones (PROCS-SPEC-COUNT, PROCS-SPEC-NEW). */
FlagSet flags_for_processes(FlagSet set);
/* Guarantees: the flags of the set that apply to ports (PROCS-SPEC-COUNT). */
FlagSet flags_for_ports(FlagSet set);
/* Guarantees: true iff the set enables some tag of category c. */
bool flags_cover(FlagSet set, Category c);
/* Guarantees: true iff the set enables tag of category c: like flags_cover, except that the
 * process scheduling tags need `running`/`running_procs` (in, out) or `exiting` (in_exiting,
 * out_exiting, out_exited) (RUN-FLAGS). */
bool flags_cover_tag(FlagSet set, Category c, const char *tag);
/* Guarantees: the time stamp kind by TS-PRECEDENCE ("timestamp", "strict_monotonic",
 * "monotonic"; "cpu_timestamp" instead of "timestamp" when the set also holds the node's
 * cpu_timestamp flag, TS-CPU), or NULL when no time stamp flag is set. */
const char *flags_timestamp_kind(FlagSet set);
/* Guarantees: the time stamp flag TS-PRECEDENCE selects (FL_COUNT if none). */
Flag flags_timestamp_flag(FlagSet set);
/* Guarantees: the number of time stamp flags in the set. */
int flags_timestamp_count(FlagSet set);
/* Guarantees: true iff a time stamp flag of higher precedence than the active one was
 * cleared earlier, so the active one shows through (TS-REMEMBERED). */
bool flags_ts_remembered(FlagSet active, FlagSet cleared);

#endif
