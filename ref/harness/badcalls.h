/* badcalls.h - `apply trace:FN(...)`: calls of module trace with bad arguments (C-280). */
#ifndef TCS_BADCALLS_H
#define TCS_BADCALLS_H
#include <stdbool.h>

#include "model.h"

/* Guarantees: the ctl line of an apply step (SO_APPLY) whose call raises badarg, with the rule
 * behind it; false (model_unsupported) for a call the model does not predict to raise. */
bool badcalls_step(Model *m, const Step *st);

#endif
