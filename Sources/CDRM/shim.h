#ifndef MARQUEE_CDRM_SHIM_H
#define MARQUEE_CDRM_SHIM_H

#include <stdint.h>
#include <xf86drm.h>
#include <xf86drmMode.h>
#include <drm_fourcc.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <linux/kd.h>
#include <linux/vt.h>
#include <linux/netlink.h>

// DRM_FORMAT_* are built by the fourcc_code() macro, which Swift cannot import.

static inline uint32_t marquee_drm_format_xrgb8888(void) { return DRM_FORMAT_XRGB8888; }
static inline uint32_t marquee_drm_format_argb8888(void) { return DRM_FORMAT_ARGB8888; }
static inline uint32_t marquee_drm_format_nv12(void) { return DRM_FORMAT_NV12; }
static inline uint32_t marquee_drm_format_yuv420(void) { return DRM_FORMAT_YUV420; }
static inline uint64_t marquee_drm_format_mod_linear(void) { return DRM_FORMAT_MOD_LINEAR; }

static inline uint64_t marquee_drm_mode_rotate_0(void) { return DRM_MODE_ROTATE_0; }
static inline uint64_t marquee_drm_mode_rotate_90(void) { return DRM_MODE_ROTATE_90; }
static inline uint64_t marquee_drm_mode_rotate_180(void) { return DRM_MODE_ROTATE_180; }
static inline uint64_t marquee_drm_mode_rotate_270(void) { return DRM_MODE_ROTATE_270; }

static inline uint32_t marquee_drm_mode_page_flip_event(void) { return DRM_MODE_PAGE_FLIP_EVENT; }
static inline uint32_t marquee_drm_mode_atomic_nonblock(void) { return DRM_MODE_ATOMIC_NONBLOCK; }
static inline uint32_t marquee_drm_mode_atomic_allow_modeset(void) { return DRM_MODE_ATOMIC_ALLOW_MODESET; }
static inline uint32_t marquee_drm_mode_atomic_test_only(void) { return DRM_MODE_ATOMIC_TEST_ONLY; }

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
static inline int marquee_sigrtmin(void) { return SIGRTMIN; }

// Kernel uevents (netlink), which announce connector hotplug on the drm subsystem; no udev needed.
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

static inline int marquee_wake_pipe(int fds[2]) { return pipe2(fds, O_CLOEXEC | O_NONBLOCK); }

#endif
