/* sessions.h - the steps of trace sessions (module trace, OTP 27+; SESSION-*). */
#ifndef TCS_SESSIONS_H
#define TCS_SESSIONS_H
#include <stdbool.h>

#include "model.h"

/* Guarantees: the effect and ctl lines of a trace session step (ST_SESSION). */
bool sessions_step(Model *m, const Step *st);

#endif
