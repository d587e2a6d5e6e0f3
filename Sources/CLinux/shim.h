#ifndef MARQUEE_CLINUX_SHIM_H
#define MARQUEE_CLINUX_SHIM_H


// The kernel interfaces more than one Marquee module uses, in one place: the headers Swift's Glibc
// module leaves out, and small wrappers for what Swift cannot import (variadic ioctl, constants
// that are macros over structs or function calls). Errors stay -1 with errno set, so callers
// run these through SystemCall like any other call.

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/inotify.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/timerfd.h>
#include <sys/timex.h>
#include <linux/kd.h>
#include <linux/netlink.h>
#include <linux/vt.h>

// timerfd: one CLOCK_REALTIME timer with TFD_TIMER_CANCEL_ON_SET hears of wall-clock jumps.
static inline int marquee_timerfd_abstime_cancel_on_set(void) {
    return TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET;
}

// adjtimex: whether a time daemon keeps the wall clock synchronized, for frame-locked playback.
// Read-only (modes 0): any user may call it.
static inline int marquee_clock_state(int *unsynchronized, long *esterror, long *maxerror) {
    struct timex state = {0};
    int result = adjtimex(&state);
    if (result < 0) return result;
    *unsynchronized = result == TIME_ERROR || (state.status & STA_UNSYNC) != 0;
    *esterror = state.esterror;
    *maxerror = state.maxerror;
    return result;
}

// The text console (linux/kd.h, linux/vt.h): a screen that boots into playback hides it while
// playing and takes part in VT switches. The ioctls are variadic and the constants macros.

static inline int marquee_vt_active_number(int fd) {
    struct vt_stat state;
    if (ioctl(fd, VT_GETSTATE, &state) < 0) return -1;
    return state.v_active;
}
static inline int marquee_kd_get_mode(int fd) {
    int mode = -1;
    if (ioctl(fd, KDGETMODE, &mode) < 0) return -1;
    return mode;
}
static inline int marquee_kd_set_graphics(int fd) { return ioctl(fd, KDSETMODE, KD_GRAPHICS); }
static inline int marquee_kd_set_text(int fd) { return ioctl(fd, KDSETMODE, KD_TEXT); }
static inline int marquee_kd_graphics(void) { return KD_GRAPHICS; }
static inline int marquee_kd_text(void) { return KD_TEXT; }
/// VT_PROCESS: the kernel asks (release_signal) before switching away and tells (acquire_signal)
/// when the VT is back, instead of switching under a program that owns the screen.
static inline int marquee_vt_set_process_mode(int fd, int release_signal, int acquire_signal) {
    struct vt_mode mode;
    memset(&mode, 0, sizeof mode);
    mode.mode = VT_PROCESS;
    mode.relsig = (short)release_signal;
    mode.acqsig = (short)acquire_signal;
    return ioctl(fd, VT_SETMODE, &mode);
}
static inline int marquee_vt_set_auto_mode(int fd) {
    struct vt_mode mode;
    memset(&mode, 0, sizeof mode);
    mode.mode = VT_AUTO;
    return ioctl(fd, VT_SETMODE, &mode);
}
static inline int marquee_vt_allow_release(int fd) { return ioctl(fd, VT_RELDISP, 1); }
static inline int marquee_vt_acknowledge_acquire(int fd) { return ioctl(fd, VT_RELDISP, VT_ACKACQ); }
// SIGRTMIN is a call into glibc (it reserves the first real-time signals), not a constant.
static inline int marquee_sigrtmin(void) { return SIGRTMIN; }

// Kernel uevents (netlink), which announce hotplug (drm connectors); no udev needed.
static inline int marquee_uevent_socket(void) {
    int fd = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, NETLINK_KOBJECT_UEVENT);
    if (fd < 0) return -1;
    struct sockaddr_nl address;
    memset(&address, 0, sizeof address);
    address.nl_family = AF_NETLINK;
    address.nl_groups = 1;  // the kernel's broadcast group
    if (bind(fd, (struct sockaddr *)&address, sizeof address) < 0) {
        int saved = errno;
        close(fd);
        errno = saved;
        return -1;
    }
    return fd;
}

// epoll, for the control-plane loop: struct epoll_event is packed on x86-64, which Swift does not
// import faithfully, so it never crosses into Swift; a source is named by a 64-bit token.
static inline int marquee_epoll_control(int epoll_fd, int operation, int fd, uint32_t events, uint64_t token) {
    struct epoll_event event;
    memset(&event, 0, sizeof event);
    event.events = events;
    event.data.u64 = token;
    return epoll_ctl(epoll_fd, operation, fd, &event);
}
static inline int marquee_epoll_wait(int epoll_fd, uint64_t *tokens, uint32_t *events, int capacity, int timeout) {
    struct epoll_event ready[64];
    if (capacity > 64) capacity = 64;
    int count = epoll_wait(epoll_fd, ready, capacity, timeout);
    for (int index = 0; index < count; index++) {
        tokens[index] = ready[index].data.u64;
        events[index] = ready[index].events;
    }
    return count;
}
static inline uint32_t marquee_epoll_in(void) { return EPOLLIN; }
static inline uint32_t marquee_epoll_out(void) { return EPOLLOUT; }
static inline uint32_t marquee_epoll_err(void) { return EPOLLERR; }
static inline uint32_t marquee_epoll_hup_only(void) { return EPOLLHUP; }

// signalfd: the signal numbers a control-plane loop takes as events. Returns the number of the
// signal read, 0 when none is queued, -1 with errno on failure.
static inline int marquee_signalfd_create(const int *numbers, int count) {
    sigset_t mask;
    sigemptyset(&mask);
    for (int index = 0; index < count; index++) sigaddset(&mask, numbers[index]);
    return signalfd(-1, &mask, SFD_NONBLOCK | SFD_CLOEXEC);
}
static inline int marquee_signalfd_next(int fd) {
    struct signalfd_siginfo info;
    ssize_t count = read(fd, &info, sizeof info);
    if (count < 0) return errno == EAGAIN ? 0 : -1;
    if (count != sizeof info) return 0;
    return (int)info.ssi_signo;
}
/// Blocks (or unblocks) signals for the calling thread; threads it starts afterwards inherit it.
static inline int marquee_block_signals(const int *numbers, int count, int block) {
    sigset_t mask;
    sigemptyset(&mask);
    for (int index = 0; index < count; index++) sigaddset(&mask, numbers[index]);
    return pthread_sigmask(block ? SIG_BLOCK : SIG_UNBLOCK, &mask, NULL);
}

// Names the calling thread as `ps -L` and /proc/PID/task/*/comm show it (the kernel keeps 15 bytes).
static inline int marquee_name_this_thread(const char *name) {
    return prctl(PR_SET_NAME, (unsigned long)name, 0, 0, 0);
}

// The calling thread's name (`buffer` holds at least 16 bytes).
static inline int marquee_this_thread_name(char *buffer) {
    return prctl(PR_GET_NAME, (unsigned long)buffer, 0, 0, 0);
}

#endif
