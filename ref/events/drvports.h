/* drvports.h - ports of the suite's linked-in driver tcs_drv: its echo, port_control, the
 * busy state and the processes it suspends, its timer (PORTS-DRIVER-*, SYSMON-BUSY-PORT). */
#ifndef TCS_DRVPORTS_H
#define TCS_DRVPORTS_H
#include <stdbool.h>

#include "model.h"

/* Guarantees: the lines of `P port_command X Data` (via_send: `P port_send X Data`, its send line
 * written already) while driver port x is busy: P is suspended
 * (it can do no step until the port is not busy), and every live session monitoring busy_port
 * gets {monitor, <P>, busy_port, <port:x>}; false with err set where model v1 refuses it. */
bool drvports_suspend(Model *m, int p, int x, const Step *st, bool via_send);
/* Guarantees: the lines of `P port_control X busy | not_busy | timer N` (the control call, then
 * the command of a process it resumes, or the timeout the timer gives); false with err set where
 * model v1 refuses it. */
bool drvports_control(Model *m, int p, const Step *st);
/* Guarantees: false with err set (at the current step) when a process suspended on a busy port
 * could be resumed in a way model v1 does not follow: its port closed, or it ended (killed by an
 * exit signal) while suspended. */
bool drvports_consistent(Model *m);

#endif
