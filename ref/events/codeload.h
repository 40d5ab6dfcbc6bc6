/* codeload.h - what a process's first call of a module not loaded does besides the call: it loads
 * the module itself (error_handler, code, code_server), waiting for the code server and running
 * the load path's functions, where the runtime may schedule it out and in (CONFORMANCE.md
 * section 2, "Runtime additions": RUN-WAIT-CODE-LOAD, RUN-PREEMPT-CODE-LOAD, GC-RUNTIME-DELAYED). */
#ifndef TCS_CODELOAD_H
#define TCS_CODELOAD_H
#include <stdbool.h>

#include "model.h"

/* How many functions of the load path a process may be scheduled out at (codeload.c). */
#define CODELOAD_PATH_FUNCTIONS 12

/* The windows of one load, 0 for one not opened. */
typedef struct CodeLoad {
    unsigned wait;                              /* RUN-WAIT-CODE-LOAD */
    unsigned preempt[CODELOAD_PATH_FUNCTIONS];  /* RUN-PREEMPT-CODE-LOAD, one per function */
    unsigned delayed_gc[2];                     /* GC-RUNTIME-DELAYED */
} CodeLoad;

/* Guarantees: mod marked loaded, and, when p is traced for running, the windows of p's load of it
 * open in *load; false with the error set (the model refuses the step) when p is traced for send
 * or 'receive' (its messages with the code server) or a tracer would answer remove to a window. */
bool codeload_begin(Model *m, int p, FixtureModule mod, const Step *st, CodeLoad *load);
/* Guarantees: every window of load closed (the end of the loading step). */
void codeload_end(Model *m, const CodeLoad *load);

#endif
