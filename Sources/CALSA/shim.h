#ifndef MARQUEE_CALSA_SHIM_H
#define MARQUEE_CALSA_SHIM_H

#include <errno.h>
#include <alsa/asoundlib.h>

// ALSA reports xruns and suspends as negative errno values; these name the two that
// snd_pcm_recover handles, so Swift code does not spell raw negated constants.

static inline int marquee_alsa_error_underrun(void) { return -EPIPE; }
static inline int marquee_alsa_error_suspended(void) { return -ESTRPIPE; }
static inline int marquee_alsa_error_would_block(void) { return -EAGAIN; }

#endif
