#ifndef MARQUEE_CCEC_SHIM_H
#define MARQUEE_CCEC_SHIM_H

// The kernel's HDMI-CEC uAPI (linux-libc-dev): /dev/cecN is driven with ioctls alone, no library.
#include <sys/ioctl.h>
#include <linux/cec.h>

// CEC_* ioctl request codes are built by the _IOR()/_IOW()/_IOWR() macros, which Swift cannot
// import, and ioctl() itself is variadic: each call gets a typed wrapper.

static inline unsigned long marquee_cec_adap_g_caps_request(void) { return CEC_ADAP_G_CAPS; }
static inline unsigned long marquee_cec_adap_g_phys_addr_request(void) { return CEC_ADAP_G_PHYS_ADDR; }
static inline unsigned long marquee_cec_adap_g_log_addrs_request(void) { return CEC_ADAP_G_LOG_ADDRS; }
static inline unsigned long marquee_cec_adap_s_log_addrs_request(void) { return CEC_ADAP_S_LOG_ADDRS; }
static inline unsigned long marquee_cec_adap_g_connector_info_request(void) { return CEC_ADAP_G_CONNECTOR_INFO; }
static inline unsigned long marquee_cec_transmit_request(void) { return CEC_TRANSMIT; }
static inline unsigned long marquee_cec_s_mode_request(void) { return CEC_S_MODE; }

static inline int marquee_cec_adap_g_caps(int fd, struct cec_caps *caps) {
    return ioctl(fd, CEC_ADAP_G_CAPS, caps);
}
static inline int marquee_cec_adap_g_phys_addr(int fd, __u16 *address) {
    return ioctl(fd, CEC_ADAP_G_PHYS_ADDR, address);
}
static inline int marquee_cec_adap_g_log_addrs(int fd, struct cec_log_addrs *addresses) {
    return ioctl(fd, CEC_ADAP_G_LOG_ADDRS, addresses);
}
/// Blocks while the addresses are claimed (polling the bus), unless the fd is O_NONBLOCK.
static inline int marquee_cec_adap_s_log_addrs(int fd, struct cec_log_addrs *addresses) {
    return ioctl(fd, CEC_ADAP_S_LOG_ADDRS, addresses);
}
static inline int marquee_cec_adap_g_connector_info(int fd, struct cec_connector_info *info) {
    return ioctl(fd, CEC_ADAP_G_CONNECTOR_INFO, info);
}
/// Blocks until the message is sent (and its reply received, with msg->timeout set).
static inline int marquee_cec_transmit(int fd, struct cec_msg *message) {
    return ioctl(fd, CEC_TRANSMIT, message);
}
static inline int marquee_cec_s_mode(int fd, __u32 mode) {
    return ioctl(fd, CEC_S_MODE, &mode);
}

// The connector info's anonymous union.
static inline __u32 marquee_cec_connector_drm_card(const struct cec_connector_info *info) { return info->drm.card_no; }
static inline __u32 marquee_cec_connector_drm_connector_id(const struct cec_connector_info *info) { return info->drm.connector_id; }

// Flags spelled with shifts, imported as plain numbers.
static inline __u32 marquee_cec_cap_log_addrs(void) { return CEC_CAP_LOG_ADDRS; }
static inline __u32 marquee_cec_cap_transmit(void) { return CEC_CAP_TRANSMIT; }
static inline __u32 marquee_cec_cap_connector_info(void) { return CEC_CAP_CONNECTOR_INFO; }
static inline __u32 marquee_cec_mode_initiator(void) { return CEC_MODE_INITIATOR; }
static inline __u32 marquee_cec_mode_no_follower(void) { return CEC_MODE_NO_FOLLOWER; }
static inline __u32 marquee_cec_log_addrs_fl_allow_unreg_fallback(void) { return CEC_LOG_ADDRS_FL_ALLOW_UNREG_FALLBACK; }
static inline __u8 marquee_cec_op_all_devtype_playback(void) { return CEC_OP_ALL_DEVTYPE_PLAYBACK; }

#endif
