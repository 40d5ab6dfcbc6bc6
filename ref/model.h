/* model.h - the simulation state and the steps that change it (ref/model.c, ref/events.c). */
#ifndef TCS_MODEL_H
#define TCS_MODEL_H
#include <stdbool.h>

#include "arena.h"
#include "buf.h"
#include "flags.h"
#include "matchspec.h"
#include "scenario.h"
#include "stream.h"
#include "term.h"

enum { MAX_PROCS = 256, TARGET_FNS = 3 };

/* One process of the scenario. */
typedef struct Proc {
    const char *name;
    bool alive;
    bool attached;      /* the tracer is attached (set by `trace on`, cleared by remove) */
    FlagSet flags;      /* current trace flags */
    FlagSet ts_cleared; /* time stamp flags cleared by `trace off` (TS-REMEMBERED) */
    Term **mbox;        /* message queue, oldest at mhead */
    size_t mhead, mlen, mcap;
    int links[MAX_PROCS];
    int nlinks;
    const char *regname; /* registered name or NULL */
} Proc;

/* A trace pattern on one tcs_target function. */
typedef struct { bool set, local; const Term *ms; } Pattern;

/* The whole simulation. */
typedef struct Model {
    Arena *a;
    const Scenario *sc;
    Stream *out;
    Err *err;
    Proc procs[MAX_PROCS];
    int nprocs;
    Pattern pats[TARGET_FNS];
} Model;

/* An event at a tracepoint of a process. */
typedef struct Event {
    const char *tag;
    const Term *term;
    const Term *extra;     /* NULL when the trace tuple has no fifth element */
    const Term *ms_result; /* NULL unless a match spec gave a non-true result */
    const char *rules;     /* the EV-... rule IDs of this event */
} Event;

/* Guarantees: runs every step of sc in order, writing the stream to out; false with err set
 * (step position, "not supported by model v1" etc.) if the model cannot run the scenario. */
bool model_run(Arena *a, const Scenario *sc, Stream *out, Err *err);
/* Guarantees: the index of the process called name, or -1. */
int model_proc(const Model *m, const char *name);
/* Guarantees: a new alive, untraced process; its index. */
int model_add_proc(Model *m, const char *name);
/* Guarantees: false with err at (line,col) and a message ending in "not supported by model v1". */
bool model_unsupported(Model *m, int line, int col, const char *what);

/* enabled.c */
/* Guarantees: what the scenario's tracer answers to enabled*(tag, ...) (EV-EXAMPLE-TRACER). */
Answer enabled_answer(const Scenario *sc, const char *tag);
/* Guarantees: the informative trace_status probe line of `trace P on`; returns its answer. */
Answer enabled_probe(Model *m, int proc);
/* Guarantees: true iff the tracepoint is live: P alive, attached, with the category's flag. */
bool enabled_live(const Model *m, int proc, const char *tag);
/* Guarantees: the enabled*(tag) line of a live tracepoint; true iff it answered trace;
 * discard emits nothing more; remove also detaches the tracer (ENABLED-REMOVE-EVENT). */
bool enabled_consult(Model *m, int proc, const char *tag, const char *ev_rules);

/* opts.c */
/* Guarantees: the Opts map of a trace callback with only the keys that apply (OPTS-ONLY-SET);
 * the rule IDs behind each key are appended to rules. */
Term *opts_build(Arena *a, FlagSet flags, FlagSet ts_cleared, const Term *extra,
                 const Term *ms_result, Buf *rules);

/* events.c */
/* Guarantees: the trace*(tag, ...) line (and the msg line of the example tracer) of a
 * tracepoint already accepted; extra_rules name why (ENABLED-TRACE or ENABLED-RETURN-FROM). */
void events_trace(Model *m, int proc, const Event *ev, const char *extra_rules);
/* Guarantees: a full tracepoint: if live, enabled line, then trace line if answered trace. */
void events_tracepoint(Model *m, int proc, const Event *ev);
/* Guarantees: the effect and lines of one step; false with err set if unsupported. */
bool events_step(Model *m, const Step *st);

#endif
