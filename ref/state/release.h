/* release.h - the prediction for one OTP release where CONFORMANCE.md records that the release
 * deviates from the documents (`tcsref sim FILE --release N`); release 0 is the documents. */
#ifndef TCS_RELEASE_H
#define TCS_RELEASE_H
#include <stdbool.h>

#include "model.h"

/* Guarantees: true when m predicts a release that deviates by d (only the releases the
 * clarification names); the first step where d applied is kept for release_notes. */
bool release_deviates(Model *m, Deviation d);
/* Guarantees: the releases (first to last) that deviate by d and the clarification that defines it. */
void release_describe(Deviation d, int *first, int *last, const char **clarification);
/* Guarantees: true when p's collections are traced by two sessions or more (C-92's trigger). */
bool release_gc_in_two_sessions(const Model *m, int p);
/* Guarantees: true when OTP 25 holds p's silent flag without a tracer: a meta match spec's
 * {silent,true} ran in it while the legacy session did not trace it, and nothing cleared the flag
 * since (C-150's trigger). */
bool release_stray_silent(const Model *m, int p);
/* Guarantees: false when d did not apply; else true, and note holds (appended) "otp N follows
 * C-n at step S: what the release does" (PROTOCOLS.md, "Release predictions"). */
bool release_note(const Model *m, Deviation d, Buf *note);

#endif
