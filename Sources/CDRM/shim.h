#ifndef MARQUEE_CDRM_SHIM_H
#define MARQUEE_CDRM_SHIM_H

#include <stdint.h>
#include <xf86drm.h>
#include <xf86drmMode.h>
#include <drm_fourcc.h>
#include <errno.h>
#include <sys/ioctl.h>

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

#endif
