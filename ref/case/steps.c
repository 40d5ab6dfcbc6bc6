/* steps.c - the step table's names and doers as data (steps.h); the runner expands its SETTLES
 * and HANDLER columns, seq_trace its TOKEN column. */
#include <stddef.h>

#include "steps.h"

typedef struct {
    const char *plan, *keyword;
    StepDoer by;
} StepRow;

#define STEP_ROW(kind, plan, keyword, by, settles, token, handler) \
    [kind] = {plan, keyword, by},
static const StepRow rows[STEP_KINDS] = {TCS_STEPS(STEP_ROW)};
#undef STEP_ROW

typedef struct { const char *plan, *keyword; } OpRow;

#define OP_ROW(op, plan, keyword) [op] = {plan, keyword},
static const OpRow ops[SESSION_OPS] = {TCS_SESSION_OPS(OP_ROW)};
#undef OP_ROW

const char *step_plan_name(StepKind kind) { return rows[kind].plan; }
const char *step_keyword(StepKind kind) { return rows[kind].keyword; }
bool step_by_process(StepKind kind) { return rows[kind].by == BY_PROCESS; }
const char *session_op_plan_name(SessionOp op) { return ops[op].plan; }
const char *session_op_keyword(SessionOp op) { return ops[op].keyword; }
