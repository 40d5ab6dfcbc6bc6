/* flags.h - the trace flags of a process (erlang:trace/3) and time stamp precedence. */
#ifndef TCS_FLAGS_H
#define TCS_FLAGS_H
#include <stdbool.h>

#include "dispatch.h"

/* The flags model v1 implements. */
typedef enum {
    FL_SEND, FL_RECEIVE, FL_CALL, FL_PROCS, FL_ARITY, FL_TIMESTAMP, FL_MONOTONIC_TIMESTAMP,
    FL_STRICT_MONOTONIC_TIMESTAMP, FL_SCHEDULER_ID, FL_CPU_TIMESTAMP, FL_RETURN_TO, FL_SILENT,
    FL_PORTS, FL_RUNNING, FL_RUNNING_PROCS, FL_RUNNING_PORTS, FL_EXITING, FL_GARBAGE_COLLECTION,
    FL_COUNT
} Flag;

/* A set of flags, bit f for flag f. */
typedef unsigned FlagSet;

#define FLAG_BIT(f) (1u << (f))

/* Guarantees: the flag's atom name (e.g. "receive"). */
const char *flag_name(Flag f);
/* Guarantees: 1 and *out set for a v1 flag; 0 for a documented flag v1 does not implement;
 * -1 for a name that is no trace flag at all. */
int flag_lookup(const char *name, Flag *out);
/* Guarantees: true iff the set enables some tag of category c. */
bool flags_cover(FlagSet set, Category c);
/* Guarantees: true iff the set enables tag of category c: like flags_cover, except that the
 * process scheduling tags need `running`/`running_procs` (in, out) or `exiting` (in_exiting,
 * out_exiting, out_exited) (RUN-FLAGS). */
bool flags_cover_tag(FlagSet set, Category c, const char *tag);
/* Guarantees: the time stamp kind by TS-PRECEDENCE ("timestamp", "strict_monotonic",
 * "monotonic"), or NULL when no time stamp flag is set. */
const char *flags_timestamp_kind(FlagSet set);
/* Guarantees: the time stamp flag TS-PRECEDENCE selects (FL_COUNT if none). */
Flag flags_timestamp_flag(FlagSet set);
/* Guarantees: the number of time stamp flags in the set. */
int flags_timestamp_count(FlagSet set);
/* Guarantees: true iff a time stamp flag of higher precedence than the active one was
 * cleared earlier, so the active one shows through (TS-REMEMBERED). */
bool flags_ts_remembered(FlagSet active, FlagSet cleared);

#endif
