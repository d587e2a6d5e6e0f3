// timerfd and adjtimex (glibc, <sys/timerfd.h>, <sys/timex.h>): Swift's Glibc module includes neither. Marquee uses one
// CLOCK_REALTIME timer with TFD_TIMER_CANCEL_ON_SET to hear of wall-clock jumps.
#include <sys/timerfd.h>
#include <time.h>

static inline int marquee_timerfd_abstime_cancel_on_set(void) {
    return TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET;
}

// adjtimex (glibc, <sys/timex.h>): whether a time daemon keeps the wall clock synchronized, for
// frame-locked playback. Read-only (modes 0): any user may call it.
#include <sys/timex.h>

static inline int marquee_clock_state(int *unsynchronized, long *esterror, long *maxerror) {
    struct timex state = {0};
    int result = adjtimex(&state);
    if (result < 0) return result;
    *unsynchronized = result == TIME_ERROR || (state.status & STA_UNSYNC) != 0;
    *esterror = state.esterror;
    *maxerror = state.maxerror;
    return result;
}
