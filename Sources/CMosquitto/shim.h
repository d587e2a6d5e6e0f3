#ifndef MARQUEE_CMOSQUITTO_SHIM_H
#define MARQUEE_CMOSQUITTO_SHIM_H

#include <errno.h>
#include <mosquitto.h>

// errno is a macro over a thread-local; read it right after the call that set it, on the same thread.
static inline int marquee_mosquitto_errno(void) { return errno; }

#endif
