// timerfd (glibc, <sys/timerfd.h>): Swift's Glibc module does not include it. Marquee uses one
// CLOCK_REALTIME timer with TFD_TIMER_CANCEL_ON_SET to hear of wall-clock jumps.
#include <sys/timerfd.h>
#include <time.h>

static inline int marquee_timerfd_abstime_cancel_on_set(void) {
    return TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET;
}
