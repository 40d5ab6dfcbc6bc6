/* portop.h - a port operation run at once by its caller or as a port task, which no step decides
 * (PORT-OP-TASK-OR-IMMEDIATE): the either-or of the two. */
#ifndef TCS_PORTOP_H
#define TCS_PORTOP_H
#include <stdbool.h>

#include "model.h"

/* One part of a port operation's lines on port x: false with the error set when the model
 * refuses it. */
typedef bool (*PortOpPart)(Model *m, int x, const void *arg);
/* A port operation's race: its name (the in and out lines of an immediate call name it), whether
 * the port is scheduled out after it (not after a close, C-67), its own events (events(m, x,
 * events_arg)), in both alternatives, and what follows a port task only (reply(m, x, reply_arg):
 * the caller's receive of the task's reply, PORT-OP-TASK-REPLY); the process that runs it and
 * where that process's scheduling in the port's context names it in an immediate call
 * (caller_at; NULL: in the harness's functions, informative, RUN-HARNESS). */
typedef struct PortOpRace {
    const char *name;
    bool scheduled_out;
    PortOpPart events;
    const void *events_arg;
    PortOpPart reply;
    const void *reply_arg;
    int caller;
    const Term *caller_at;
} PortOpRace;

/* Guarantees: the lines of operation op on port x as an either-or of an immediate call (in and
 * out named by the operation, PORTS-RUNNING, after the caller's out and in at caller_at when it
 * is traced for running_procs, RUN-PROCS-PORT-CONTEXT) and a port task (in and out with 0,
 * informative and not predicted, PORTS-RUNNING-ZERO, of which only an enabled line answered
 * other than trace is kept; then the reply), the operation's own events written once and
 * standing in both; one alternative only when the two are the same (PORT-OP-TASK-OR-IMMEDIATE);
 * false with the error set, and no line, when a part is refused. */
bool portop_either(Model *m, int x, const PortOpRace *op);

#endif
