/* msflags.h - what the trace flag functions of a match spec (enable_trace/1,2,
 * disable_trace/1,2, trace/2,3) and its seq_trace functions do to the processes of the model
 * (MS-TRACE-FLAGS, MS-SET-SEQ-TOKEN). */
#ifndef TCS_MSFLAGS_H
#define TCS_MSFLAGS_H
#include "matchspec.h"
#include "model.h"

/* The process whose match spec runs, and in which session. */
typedef struct MsFlagsCtx {
    Model *m;
    int s;     /* the session whose pattern runs the match spec */
    int p;     /* the calling process */
    MsHooks hooks;
} MsFlagsCtx;

/* Guarantees: the live process (not a port) a match spec names by id, a pid or a registered name;
 * -1 when there is none (get_proc in erl_db_util.c finds none). */
int msflags_named_process(const Model *m, const Term *id);
/* Guarantees: ctx set up for process p in session s; the hooks a MsCall takes (they point
 * into ctx, which must outlive the match spec's run). */
const MsHooks *msflags_hooks(MsFlagsCtx *ctx, Model *m, int s, int p);

#endif
