/* portop.c - a port operation run at once or as a port task (CONFORMANCE.md section 2, "Ports",
 * PORT-OP-TASK-OR-IMMEDIATE). */
#include "enabled.h"
#include "order.h"
#include "portop.h"
#include "races.h"
#include "sched.h"
#include "tracepoint.h"

/* Of the tracepoint of ev for every session, the enabled line of each whose tracer answers other
 * than trace, and nothing else: what the comparison keeps of a tracepoint whose trace line is
 * informative and not predicted (PORTS-RUNNING-ZERO), the enabled line that asked for it being
 * informative too. */
static void fire_unpredicted(Model *m, int proc, const Event *ev)
{
    int *order;
    int n = order_by_attach(m, proc, &order);
    for (int i = 0; i < n; i++) {
        int s = order[i];
        if (!enabled_live(m, s, proc, ev->tag))
            continue;
        Captured asked;
        allow_capture_start(m, &asked);
        const char *rules = tracepoint_rules(m, s, n, ev->rules, "SESSION-ORDER-PROCESS");
        bool traced = tracepoint_accept(m, s, proc, ev->tag, rules);
        allow_capture_stop(m, &asked);
        if (!traced)
            allow_captured_write(m, &asked);
        allow_captured_free(&asked);
    }
}

/* The lines of the port's scheduling (tag in or out) around operation op in both alternatives:
 * run at once (immediate), or as a port task (task: scheduled with 0, PORTS-RUNNING-ZERO). */
static void port_op_sched(Model *m, int x, const char *tag, const char *op, Captured *immediate, Captured *task)
{
    allow_capture_start(m, immediate);
    tracepoint_event(m, x, tag, term_atom(m->a, op), NULL, "PORTS-RUNNING PORT-OP-TASK-OR-IMMEDIATE");
    allow_capture_stop(m, immediate);
    allow_capture_start(m, task);
    Event zero = {tag, term_int(m->a, 0), NULL, NULL, "PORTS-RUNNING-ZERO PORT-OP-TASK-OR-IMMEDIATE"};
    fire_unpredicted(m, x, &zero);
    allow_capture_stop(m, task);
}

/* RUN-PROCS-PORT-CONTEXT: the caller's scheduling out and back in around an immediate call, where
 * it names a function of its own; none in the harness's (caller_at NULL). Both lines stand before
 * the port's: nothing of the caller's comes between them, as the caller traces a message the port
 * sends it as received when it handles it, after its in. */
static void caller_sched(Model *m, const PortOpRace *op, Captured *lines)
{
    allow_capture_start(m, lines);
    if (op->caller_at) {
        sched_port_context(m, op->caller, "out", op->caller_at);
        sched_port_context(m, op->caller, "in", op->caller_at);
    }
    allow_capture_stop(m, lines);
}

bool portop_either(Model *m, int x, const PortOpRace *op)
{
    Captured caller, in_now, in_task, own, out_now, out_task, reply, none;
    caller_sched(m, op, &caller);
    port_op_sched(m, x, "in", op->name, &in_now, &in_task);
    allow_capture_start(m, &own);
    bool ok = op->events(m, x, op->events_arg);
    allow_capture_stop(m, &own);
    if (op->scheduled_out) /* C-67: a closed port is not scheduled out */
        port_op_sched(m, x, "out", op->name, &out_now, &out_task);
    allow_capture_start(m, &reply);
    ok = ok && op->reply(m, x, op->reply_arg);
    allow_capture_stop(m, &reply);
    allow_capture_start(m, &none);
    allow_capture_stop(m, &none);
    const Captured *const out_immediate = op->scheduled_out ? &out_now : &none;
    const Captured *const out_queued = op->scheduled_out ? &out_task : &none;
    const Captured *const immediate[] = {&caller, &in_now, &own, out_immediate, &none};
    const Captured *const task[] = {&none, &in_task, &own, out_queued, &reply};
    if (ok)
        races_either(m, RACE_PORT_OP, immediate, task, 5);
    Captured *const all[] = {&caller, &in_now, &in_task, &own, &reply, &none};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        allow_captured_free(all[i]);
    if (op->scheduled_out) {
        allow_captured_free(&out_now);
        allow_captured_free(&out_task);
    }
    return ok;
}
