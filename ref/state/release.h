/* release.h - the prediction for one OTP release where CONFORMANCE.md records that the release
 * deviates from the documents (`tcsref sim FILE --release N`); release 0 is the documents. */
#ifndef TCS_RELEASE_H
#define TCS_RELEASE_H
#include <stdbool.h>

#include "model.h"

/* Guarantees: true when m predicts a release that deviates by d (only the releases the
 * clarification names); the first step where d applied is kept for release_notes. */
bool release_deviates(Model *m, Deviation d);
/* Guarantees: true when d is a crash: the releases it names end the run at its step. */
bool release_crashes(Deviation d);
/* Guarantees: the releases (first to last) that deviate by d and the clarification that defines it. */
void release_describe(Deviation d, int *first, int *last, const char **clarification);
/* Guarantees: true when p's collections are traced by two sessions or more (C-92's trigger). */
bool release_gc_in_two_sessions(const Model *m, int p);
/* Guarantees: true when some live process's collections are traced by two sessions or more now
 * (to be passed to release_gc_range_step as `before`, read before the step runs). */
bool release_gc_range_before(const Model *m);
/* Guarantees: step (from 1) counts as a step at which the release's node may crash at a collection
 * the runtime starts (C-92, GC-RUNTIME) when before or after it some live process's collections are
 * traced by two sessions or more: it extends the open range or opens one; a step that does not
 * closes the open range. m->gc_two_sessions_seen is set at any release; ranges are kept only for
 * the releases C-92 names. */
void release_gc_range_step(Model *m, int step, bool before);
/* Guarantees: the open range (if any) is closed at its last step and kept for release_gc_range_note. */
void release_gc_range_close(Model *m);
/* Guarantees: false when m has fewer than i + 1 closed ranges; else true, and note holds (appended)
 * "otp N follows C-92 at steps FIRST-LAST: the node may crash ..., or not crash" (PROTOCOLS.md,
 * "Release predictions"). */
bool release_gc_range_note(const Model *m, int i, Buf *note);
/* Guarantees: true when OTP 25 holds p's silent flag without a tracer: a meta match spec's
 * {silent,true} ran in it while the legacy session did not trace it, and nothing cleared the flag
 * since (C-150's trigger; C-415: trace_info(P, flags) shows it). */
bool release_stray_silent(const Model *m, int p);
/* Guarantees: false when d did not apply; else true, and note holds (appended) "otp N follows
 * C-n at step S: what the release does" (PROTOCOLS.md, "Release predictions"). */
bool release_note(const Model *m, Deviation d, Buf *note);

#endif
