/* flags.c - flag names and sets, TS-PRECEDENCE, TS-REMEMBERED and TS-CPU. */
#include "flags.h"

#include <stddef.h>
#include <string.h>

static const char *const names[FL_COUNT] = {
    "send", "receive", "call", "procs", "arity", "timestamp", "monotonic_timestamp",
    "strict_monotonic_timestamp", "scheduler_id", "cpu_timestamp",
    "silent", "return_to", "set_on_spawn", "set_on_first_spawn", "set_on_link",
    "set_on_first_link", "running", "exiting", "running_procs", "running_ports",
    "garbage_collection", "ports", "all",
};

const char *flag_name(Flag f) { return names[f]; }

int flag_lookup(const char *name, Flag *out)
{
    for (int f = 0; f < FL_COUNT; f++)
        if (strcmp(names[f], name) == 0) {
            *out = (Flag)f;
            return 1;
        }
    return strcmp(name, "tracer") == 0 ? 0 : -1;
}

FlagSet flags_expand(Flag f)
{
    return f == FL_ALL ? FLAGS_ALL : FLAG_BIT(f); /* FLAGS-ALL */
}

/* Seen live on OTP 25 (erlang:trace(all, true, [F]) counts processes, ports or both):
 * ports and running_ports apply to ports only; send, 'receive', silent, the time stamps and
 * scheduler_id to both; every other flag but cpu_timestamp to processes only. */
static const FlagSet port_only = FLAG_BIT(FL_PORTS) | FLAG_BIT(FL_RUNNING_PORTS);
static const FlagSet port_and_process = FLAG_BIT(FL_SEND) | FLAG_BIT(FL_RECEIVE) |
                                        FLAG_BIT(FL_SILENT) | FLAGS_TIMESTAMPS |
                                        FLAG_BIT(FL_SCHEDULER_ID);

FlagSet flags_for_processes(FlagSet set)
{
    return set & FLAGS_ALL & ~port_only;
}

FlagSet flags_for_ports(FlagSet set)
{
    return set & (port_only | port_and_process);
}

bool flags_cover(FlagSet set, Category c)
{
    switch (c) {
    case CAT_SEND: return set & FLAG_BIT(FL_SEND);
    case CAT_RECEIVE: return set & FLAG_BIT(FL_RECEIVE);
    case CAT_CALL: return set & FLAG_BIT(FL_CALL);
    case CAT_PROCS: return set & FLAG_BIT(FL_PROCS);
    case CAT_PORTS: return set & FLAG_BIT(FL_PORTS);
    case CAT_RUNNING_PORTS: return set & FLAG_BIT(FL_RUNNING_PORTS);
    case CAT_GARBAGE_COLLECTION: return set & FLAG_BIT(FL_GARBAGE_COLLECTION);
    case CAT_RUNNING_PROCS:
        return set & (FLAG_BIT(FL_RUNNING) | FLAG_BIT(FL_RUNNING_PROCS) | FLAG_BIT(FL_EXITING));
    default: return false;
    }
}

bool flags_cover_tag(FlagSet set, Category c, const char *tag)
{
    if (c != CAT_RUNNING_PROCS)
        return flags_cover(set, c);
    if (strcmp(tag, "in") == 0 || strcmp(tag, "out") == 0)
        return set & (FLAG_BIT(FL_RUNNING) | FLAG_BIT(FL_RUNNING_PROCS));
    return set & FLAG_BIT(FL_EXITING);
}

/* TS-PRECEDENCE: timestamp > strict_monotonic_timestamp > monotonic_timestamp.
 * The flags are remembered individually (TS-REMEMBERED), so this is a pure function. */
Flag flags_timestamp_flag(FlagSet set)
{
    if (set & FLAG_BIT(FL_TIMESTAMP))
        return FL_TIMESTAMP;
    if (set & FLAG_BIT(FL_STRICT_MONOTONIC_TIMESTAMP))
        return FL_STRICT_MONOTONIC_TIMESTAMP;
    if (set & FLAG_BIT(FL_MONOTONIC_TIMESTAMP))
        return FL_MONOTONIC_TIMESTAMP;
    return FL_COUNT;
}

const char *flags_timestamp_kind(FlagSet set)
{
    switch (flags_timestamp_flag(set)) {
    case FL_TIMESTAMP: /* TS-CPU: cpu_timestamp turns `timestamp` time stamps into CPU time */
        return set & FLAG_BIT(FL_CPU_TIMESTAMP) ? "cpu_timestamp" : "timestamp";
    case FL_STRICT_MONOTONIC_TIMESTAMP: return "strict_monotonic";
    case FL_MONOTONIC_TIMESTAMP: return "monotonic";
    default: return NULL;
    }
}

int flags_timestamp_count(FlagSet set)
{
    return !!(set & FLAG_BIT(FL_TIMESTAMP)) + !!(set & FLAG_BIT(FL_STRICT_MONOTONIC_TIMESTAMP)) +
           !!(set & FLAG_BIT(FL_MONOTONIC_TIMESTAMP));
}

bool flags_ts_remembered(FlagSet active, FlagSet cleared)
{
    Flag f = flags_timestamp_flag(active);
    return f != FL_COUNT && flags_timestamp_flag(cleared | FLAG_BIT(f)) != f;
}
