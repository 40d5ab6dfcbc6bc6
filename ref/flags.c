/* flags.c - flag names, categories, TS-PRECEDENCE and TS-REMEMBERED. */
#include "flags.h"

#include <stddef.h>
#include <string.h>

static const char *const names[FL_COUNT] = {
    "send", "receive", "call", "procs", "arity", "timestamp", "monotonic_timestamp",
    "strict_monotonic_timestamp", "scheduler_id", "cpu_timestamp", "return_to", "silent",
    "ports", "running", "running_procs", "running_ports", "exiting", "garbage_collection",
};

/* Documented erlang:trace/3 flags that model v1 does not implement. */
static const char *const unsupported[] = {
    "all", "set_on_spawn", "set_on_first_spawn", "set_on_link",
    "set_on_first_link", "tracer",
};

const char *flag_name(Flag f) { return names[f]; }

int flag_lookup(const char *name, Flag *out)
{
    for (int f = 0; f < FL_COUNT; f++)
        if (strcmp(names[f], name) == 0) {
            *out = (Flag)f;
            return 1;
        }
    for (size_t i = 0; i < sizeof unsupported / sizeof unsupported[0]; i++)
        if (strcmp(unsupported[i], name) == 0)
            return 0;
    return -1;
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
    case FL_TIMESTAMP: return "timestamp";
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
