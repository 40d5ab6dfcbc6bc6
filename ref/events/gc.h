/* gc.h - garbage collection (GC-*). */
#ifndef TCS_GC_H
#define TCS_GC_H
#include <stdbool.h>

#include "model.h"

/* Guarantees: the lines of `P gc [minor|major]`. */
bool gc_step(Model *m, int p, const Step *st);

#endif
