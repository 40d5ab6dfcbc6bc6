/* steptext.h - a step's arguments as the Erlang terms of the call it stands for. */
#ifndef TCS_STEPTEXT_H
#define TCS_STEPTEXT_H
#include "buf.h"
#include "scenario.h"

/* Guarantees: a pattern step's target as an Erlang term: on_load, send or 'receive', or
 * {M,F,A} with '_' quoted. */
void steptext_pattern_target(Buf *out, const Step *st);

#endif
