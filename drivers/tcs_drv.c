/* tcs_drv.c - the suite's linked-in driver (cases/README.md "Driver ports"): a port whose
 * driver callbacks a scenario provokes one at a time, so that their trace events are
 * deterministic.
 *
 * - output (port_command/2, Port ! {Pid, {command, Data}}): echoes Data to the port's owner
 *   at once, {Port, {data, Data}}, from inside the command callback.
 * - control (erlang:port_control/3): operation 1 sets the port busy (set_busy_port/2), 2
 *   clears it (which resumes the processes suspended sending to it), 3 arms the driver's timer
 *   (driver_set_timer/2) for the number of milliseconds written in decimal in Data. Every
 *   operation answers the empty binary; another operation raises badarg.
 * - timeout: sends {Port, {data, <<"timeout">>}} to the owner.
 *
 * Built against OTP 25's erl_driver.h (ERL_DRV_EXTENDED 3.3, unchanged in 27 and 29), it
 * loads on every release of the matrix, like the tracer NIFs. It keeps no global state: all
 * it knows of a port is in that port's own driver data. */
#include <stdlib.h>
#include <string.h>

#include "erl_driver.h"

enum { OP_BUSY = 1, OP_NOT_BUSY = 2, OP_TIMER = 3 };

typedef struct {
    ErlDrvPort port;
} TcsPort;

static ErlDrvData drv_start(ErlDrvPort port, char *command)
{
    (void)command;
    TcsPort *tp = driver_alloc(sizeof *tp);
    if (!tp)
        return ERL_DRV_ERROR_GENERAL;
    tp->port = port;
    /* port_control/3 answers binaries, as the port's data are */
    set_port_control_flags(port, PORT_CONTROL_FLAG_BINARY);
    return (ErlDrvData)tp;
}

static void drv_stop(ErlDrvData data)
{
    driver_free(data);
}

static void drv_output(ErlDrvData data, char *buf, ErlDrvSizeT len)
{
    TcsPort *tp = (TcsPort *)data;
    driver_output(tp->port, buf, len);
}

/* The milliseconds written in decimal in buf[0..len), or -1 if it is not such a number. */
static long parse_millis(const char *buf, ErlDrvSizeT len)
{
    if (len == 0 || len > 9)
        return -1;
    long ms = 0;
    for (ErlDrvSizeT i = 0; i < len; i++) {
        if (buf[i] < '0' || buf[i] > '9')
            return -1;
        ms = ms * 10 + (buf[i] - '0');
    }
    return ms;
}

static ErlDrvSSizeT drv_control(ErlDrvData data, unsigned int op, char *buf, ErlDrvSizeT len,
                                char **rbuf, ErlDrvSizeT rlen)
{
    (void)rbuf;
    (void)rlen;
    TcsPort *tp = (TcsPort *)data;
    switch (op) {
    case OP_BUSY:
        set_busy_port(tp->port, 1);
        return 0;
    case OP_NOT_BUSY:
        set_busy_port(tp->port, 0);
        return 0;
    case OP_TIMER: {
        long ms = parse_millis(buf, len);
        if (ms < 0)
            return -1;
        return driver_set_timer(tp->port, (unsigned long)ms) == 0 ? 0 : -1;
    }
    default:
        return -1; /* port_control/3 raises badarg */
    }
}

static void drv_timeout(ErlDrvData data)
{
    TcsPort *tp = (TcsPort *)data;
    static const char text[] = "timeout";
    driver_output(tp->port, (char *)text, sizeof text - 1);
}

static ErlDrvEntry tcs_drv_entry = {
    .start = drv_start,
    .stop = drv_stop,
    .output = drv_output,
    .driver_name = "tcs_drv",
    .control = drv_control,
    .timeout = drv_timeout,
    .extended_marker = ERL_DRV_EXTENDED_MARKER,
    .major_version = ERL_DRV_EXTENDED_MAJOR_VERSION,
    .minor_version = ERL_DRV_EXTENDED_MINOR_VERSION,
    .driver_flags = 0,
};

/* Guarantees: the driver's entry, as erl_ddll:load_driver/2 asks for it. */
DRIVER_INIT(tcs_drv)
{
    return &tcs_drv_entry;
}
