#ifndef MARQUEE_CALSA_SHIM_H
#define MARQUEE_CALSA_SHIM_H

#include <errno.h>
#include <alsa/asoundlib.h>

// ALSA reports xruns and suspends as negative errno values; these name the two that
// snd_pcm_recover handles, so Swift code does not spell raw negated constants.

static inline int marquee_alsa_error_underrun(void) { return -EPIPE; }
static inline int marquee_alsa_error_suspended(void) { return -ESTRPIPE; }
static inline int marquee_alsa_error_would_block(void) { return -EAGAIN; }

// alsa-lib prints its own diagnostics to stderr (e.g. "ALSA lib confmisc.c:...: Cannot get card
// index" on every retry of a missing device). Marquee reports each failure once, in its own words,
// from the return codes, so the library's printer is replaced by one that prints nothing. The
// handler is variadic, which Swift cannot define.
static inline void marquee_alsa_quiet_error_handler(const char *file, int line, const char *function,
                                                    int err, const char *fmt, ...) {
    (void)file; (void)line; (void)function; (void)err; (void)fmt;
}

static inline int marquee_alsa_silence_library_errors(void) {
    return snd_lib_error_set_handler(marquee_alsa_quiet_error_handler);
}

#endif
