/* plan.h - the plan and the meta JSON of a case (PROTOCOLS.md, sections 1 and 2). */
#ifndef TCS_PLAN_H
#define TCS_PLAN_H
#include "buf.h"
#include "scenario.h"

/* Guarantees: the scenario as file:consult/1 terms, pids as {'$tcs_pid',Name}; the tracer
 * answers list the written answers in file order, then always {default, Answer}. */
void plan_print(Buf *out, const Scenario *sc);
/* Guarantees: the plan term {step_lines, true} (PROTOCOLS.md section 2): the runner writes the
 * stream lines of each step to the progress file before the next step starts. */
void plan_print_step_lines(Buf *out);
/* Guarantees: one JSON object line {"id","rules","desc","otp","features","tracer","callbacks",
 * "sessions"} (PROTOCOLS.md section 1), callbacks in bit order (= sorted by name). */
void meta_print(Buf *out, const Scenario *sc);

#endif
