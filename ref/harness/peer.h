/* peer.h - a second node started with module peer, and a process on it (DIST-*): the harness's
 * `peer R` step and what model v1 lets a case do with R. */
#ifndef TCS_PEER_H
#define TCS_PEER_H

#include "model.h"

/* Guarantees: R, the step's new name, is a live process of the model on the peer node: never
 * traced, its own events unseen by the case's tracers; writes no line. */
bool peer_start(Model *m, const Step *st);
/* Guarantees: T, the step's new name, is a live process of the model on the peer node, as
 * peer_start's, and that node's system seq tracer: the seq_trace messages of the processes there
 * are T's (DIST-SEQ-TRACER); the ctl line of its set_system_tracer/1. */
bool peer_seq_tracer(Model *m, const Step *st);
/* Guarantees: why model v1 refuses st in a case with a peer node (a step by or on R other than
 * messages, a process spec or a session step before or after a peer step, any step by or on
 * the peer node's seq tracer), or NULL; notes a
 * process spec or session step in m for the peer steps after it. */
const char *peer_refuses(Model *m, const Step *st);

#endif
