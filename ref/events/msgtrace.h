/* msgtrace.h - a send or receive tracepoint through each session's message pattern (MSGPAT-*). */
#ifndef TCS_MSGTRACE_H
#define TCS_MSGTRACE_H
#include <stdbool.h>

#include "model.h"

/* Guarantees: the tracepoint of a send (tag send or send_to_non_existing_process: peer is the
 * recipient) or a receive (tag receive: peer is the sender, NULL for a timeout) of process
 * proc during step st, through each session's message pattern; false with err set (at st)
 * if the model cannot run the match spec. */
bool msgtrace_event(Model *m, const Step *st, int proc, const char *tag, const Term *msg, const Term *peer,
                    const char *rules);

#endif
