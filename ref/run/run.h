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

#endif
