/* release.h - the prediction for one OTP release where CONFORMANCE.md records that the release
 * deviates from the documents (`tcsref sim FILE --release N`); release 0 is the documents. The
 * deviations are one table (release.c): per deviation its kind, its releases, its clarification and
 * what the release does; `tcsref deviations` prints it (PROTOCOLS.md, "Release predictions"). */
#ifndef TCS_RELEASE_H
#define TCS_RELEASE_H
#include <stdbool.h>

#include "model.h"

/* What a deviation does to a run of the releases it names. */
typedef enum {
    DEVIATION_STREAM,    /* the stream differs from the documents' and the run goes on */
    DEVIATION_CRASH,     /* the node crashes at the step the deviation applies at: the run ends there */
    DEVIATION_MAY_CRASH, /* the node may crash at any step of a range of steps the note names, or not */
} DeviationKind;

/* The releases a deviation names, first to last; a bound RELEASE_OPEN is open: {26, RELEASE_OPEN}
 * is "from 26", {RELEASE_OPEN, 28} "up to 28". Release 0, the documents, is in no range. */
typedef struct {
    int first, last;
} ReleaseRange;
enum { RELEASE_OPEN = 0 };

/* Guarantees: true when release (from 1) is in range; false for release 0 (the documents). */
bool release_range_covers(ReleaseRange range, int release);
/* Guarantees: true when m predicts a release that d names; marks nothing (release_deviates does,
 * where d applies). */
bool release_has(const Model *m, Deviation d);
/* Guarantees: true when m predicts a release that deviates by d (only the releases d's range
 * names); the first and the last step where d applied are kept for release_note; when d is a DEVIATION_CRASH,
 * m->crashed is set: the run ends at this step. */
bool release_deviates(Model *m, Deviation d);
/* Guarantees: the smallest release greater than after at which a DEVIATION_CRASH applies, among
 * releases that stand for every set of deviations a release can have (so that trying each one
 * finds every crash the table predicts, open ranges included); 0 when there is none. */
int release_next_crashing(int after);
/* Guarantees: out holds (appended) the table, one line per deviation in Deviation's order:
 * "C-n<TAB>KIND<TAB>FIRST<TAB>LAST<TAB>WHAT\n", KIND one of stream, crash, may-crash, an open bound
 * "-" (PROTOCOLS.md, "Release predictions"). */
void release_deviations_print(Buf *out);
/* Guarantees: true when p's collections are traced by two sessions or more (C-92's trigger). */
bool release_gc_in_two_sessions(const Model *m, int p);
/* Guarantees: true when some live process's collections are traced by two sessions or more now
 * (to be passed to release_gc_range_step as `before`, read before the step runs). */
bool release_gc_range_before(const Model *m);
/* Guarantees: step (from 1) counts as a step at which the release's node may crash at a collection
 * the runtime starts (C-92, GC-RUNTIME) when before or after it some live process's collections are
 * traced by two sessions or more: it extends the open range or opens one; a step that does not
 * closes the open range. m->gc_two_sessions_seen is set at any release; ranges are kept only for
 * the releases DEV_GC_RUNTIME_MAY_CRASH names. */
void release_gc_range_step(Model *m, int step, bool before);
/* Guarantees: the open range (if any) is closed at its last step and kept for release_gc_range_note. */
void release_gc_range_close(Model *m);
/* Guarantees: false when m has fewer than i + 1 closed ranges; else true, and note holds (appended)
 * "otp N follows C-92 at steps FIRST-LAST: WHAT" with DEV_GC_RUNTIME_MAY_CRASH's WHAT (PROTOCOLS.md,
 * "Release predictions"). */
bool release_gc_range_note(const Model *m, int i, Buf *note);
/* Guarantees: the {M, F, Args} of a call message as a tracer process reads it after matching the
 * first byte of each binary argument with the bit syntax (CALL-MATCH-CONTEXT-READ): mfa itself,
 * unless m predicts a release DEV_MATCH_CONTEXT_ARG_CHANGES names and m->match_context_arg is a
 * binary of one byte or more among Args (by identity): then a copy in m's arena whose argument
 * lacks its first byte, and the deviation applies at this step (C-540). */
const Term *release_matched_call(Model *m, const Term *mfa);
/* Guarantees: true when OTP 25 holds p's silent flag without a tracer: a meta match spec's
 * {silent,true} ran in it while the legacy session did not trace it, and nothing cleared the flag
 * since (C-150's trigger; C-415: trace_info(P, flags) shows it). */
bool release_stray_silent(const Model *m, int p);
/* Guarantees: the MS-* rule that makes st's match spec badarg on m's release: st->ms_invalid when
 * set, else MS-UNKNOWN-FUNCTION when the spec calls a function OTP 26 added and the release is
 * older (C-12, the deviation applies at this step), else NULL. */
const char *release_ms_invalid(Model *m, const Step *st);
/* Guarantees: false when d did not apply; else true, and note holds (appended) "otp N follows
 * C-n at step S: WHAT", or "at steps S-L" for a DEVIATION_MAY_CRASH that applied up to a later
 * step L (PROTOCOLS.md, "Release predictions"). */
bool release_note(const Model *m, Deviation d, Buf *note);

#endif
