#ifndef MARQUEE_CEVDEV_SHIM_H
#define MARQUEE_CEVDEV_SHIM_H

#include <sys/ioctl.h>
#include <linux/input.h>
#include <libevdev/libevdev.h>
#include <libevdev/libevdev-uinput.h>

// EVIOC* request codes are built by the _IOW()/_IOR() macros, which Swift cannot import.

static inline unsigned long marquee_eviocgrab(void) { return EVIOCGRAB; }
static inline unsigned long marquee_eviocgversion(void) { return EVIOCGVERSION; }

#endif
