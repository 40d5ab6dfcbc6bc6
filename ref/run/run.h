/* run.h - the runner of a scenario's steps: the one entry to the model (ref/LAYERS). */
#ifndef TCS_RUN_H
#define TCS_RUN_H
#include <stdbool.h>

#include "arena.h"
#include "scenario.h"
#include "stream.h"
#include "term.h"

/* Guarantees: runs every step of sc in order, writing the stream to out; false with err set
 * (step position, "not supported by model v1" etc.) if the model cannot run the scenario. */
bool run_scenario(Arena *a, const Scenario *sc, Stream *out, Err *err);
/* Guarantees: as run_scenario, for OTP `release` where a clarification records that it deviates
 * from the documents (0: the documents); a comment line per deviation applied ends the stream,
 * and a predicted crash ends the run at its step (ref/state/release.c). */
bool run_scenario_for(Arena *a, const Scenario *sc, int release, Stream *out, Err *err);

/* What a run of the model found beyond its stream. */
typedef struct {
    bool gc_two_sessions; /* at some step a process's collections were traced by two sessions or more:
                           * the node of a release C-92 names may crash then */
    bool may_crash;      /* at some step the harness did what may crash the node of a release: a
                          * call_time or call_memory counter reset under a busy loop (C-448),
                          * erlang:trace/3 on a process spec under a loop of a dirty NIF (C-590), a
                          * tracer port's owner killed with tracees in the gate's dirty NIF (C-502) */
    bool crashed;         /* the release's node is predicted to crash at some step: the run ended there */
} RunFacts;

/* Guarantees: as run_scenario_for, for a node that dies during step crash_at (from 1; 0 or past the
 * last step: none): only the steps before it run, the windows still open are closed, the notes
 * follow; facts (unless NULL) filled in. */
bool run_scenario_until(Arena *a, const Scenario *sc, int release, int crash_at, Stream *out, Err *err,
                        RunFacts *facts);
/* How a case file is run: for which release (0: the documents), up to which step (0: all; S: the
 * steps before S, of a node that dies during step S), with the rules of each line (explain), in
 * a bounded stream (stream_bound). */
typedef struct { int release; int crash_at; bool explain; bool bounded; } RunOptions;

/* Guarantees: as run_scenario_until, for the case file at path, read one step at a time: *sc its
 * header (no steps), *out its stream (made here). Each step runs as it is read, and the memory of
 * a send or a receive goes after it ran, so that the memory of a long case is its live state
 * (processes, mailboxes, sessions, windows), not its length. The whole file is read whatever
 * happens: false with err set and *out empty (nothing of the stream is given) if the model cannot
 * run the case or the file has a problem, which is then the one scenario_load reports. */
bool run_file(Arena *a, const char *path, RunOptions o, Scenario *sc, Stream *out, Err *err);
/* Guarantees: *may_crash is true when the prediction of some release a clarification names has
 * the node crash, or possibly crash, during some step of sc (the plan's step_lines: a node that
 * dies must leave the lines of the steps before); false with err set if the model cannot run sc. */
bool run_scenario_may_crash(Arena *a, const Scenario *sc, bool *may_crash, Err *err);

#endif
