import CALSA
import CCEC
import CDRM
import CEvdev
import CFFmpeg
import CLinux
import Glibc
import MarqueeCore
import Testing

/// The shim headers exist to carry C macros into Swift; these pin each wrapper to the value the
/// C headers define and prove every system library links.
@Suite struct FFmpegShimTests {
    @Test func errorCodesMatchTheHeaders() {
        #expect(marquee_averror_eagain() == -EAGAIN)
        #expect(marquee_averror(ENOMEM) == -ENOMEM)
        // AVERROR_EOF is FFERRTAG('E','O','F',' '): the negated little-endian tag.
        let eofTag = Int32(bitPattern: UInt32(0x45) | UInt32(0x4F) << 8 | UInt32(0x46) << 16 | UInt32(0x20) << 24)
        #expect(marquee_averror_eof() == -eofTag)
        #expect(marquee_averror_invaliddata() != marquee_averror_eof())
    }

    @Test func timeConstantsMatchTheHeaders() {
        #expect(marquee_av_nopts_value() == Int64.min)
        let q = marquee_av_time_base_q()
        #expect(q.num == 1 && q.den == AV_TIME_BASE)
        #expect(AV_TIME_BASE == 1_000_000)
    }

    @Test func librariesLinkAndReportTheirVersions() {
        #expect(avformat_version() >> 16 >= 59)
        #expect(avcodec_version() >> 16 >= 59)
        #expect(avutil_version() >> 16 >= 57)
        #expect(swscale_version() >> 16 >= 6)
        #expect(swresample_version() >> 16 >= 4)
        var message = [CChar](repeating: 0, count: Int(marquee_av_error_max_string_size()))
        #expect(av_strerror(marquee_averror_eof(), &message, message.count) == 0)
        let text = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        #expect(text == "End of file")
    }
}

@Suite struct DRMShimTests {
    private func fourcc(_ code: String) -> UInt32 {
        code.utf8.enumerated().reduce(0) { $0 | UInt32($1.element) << (8 * UInt32($1.offset)) }
    }

    @Test func pixelFormatsAreTheirFourCCs() {
        #expect(marquee_drm_format_xrgb8888() == fourcc("XR24"))
        #expect(marquee_drm_format_argb8888() == fourcc("AR24"))
        #expect(marquee_drm_format_nv12() == fourcc("NV12"))
        #expect(marquee_drm_format_yuv420() == fourcc("YU12"))
        #expect(marquee_drm_format_mod_linear() == 0)
    }

    @Test func rotationsAreDistinctBits() {
        let bits = [marquee_drm_mode_rotate_0(), marquee_drm_mode_rotate_90(),
                    marquee_drm_mode_rotate_180(), marquee_drm_mode_rotate_270()]
        #expect(bits == [1, 2, 4, 8])
        #expect(marquee_drm_mode_page_flip_event() == 0x01)
        #expect(marquee_drm_mode_atomic_allow_modeset() == 0x0400)
    }

    @Test func libdrmLinks() {
        // No /dev/dri on build machines: libdrm must say so rather than crash.
        #expect(drmAvailable() == 0 || drmAvailable() == 1)
    }
}

/// CLinux: the kernel interfaces several modules share.
@Suite struct LinuxShimTests {
    @Test func consoleModesAndSignalsHaveTheKernelsValues() {
        // linux/kd.h: KD_TEXT 0, KD_GRAPHICS 1; VT signals are real-time ones, past SIGUSR1/2.
        #expect(marquee_kd_text() == 0)
        #expect(marquee_kd_graphics() == 1)
        #expect(marquee_sigrtmin() >= 32 && marquee_sigrtmin() + 3 <= 64)
        // Without a console, the ioctls fail instead of crashing: /dev/null is no VT.
        let fd = open("/dev/null", O_RDWR)
        defer { close(fd) }
        #expect(marquee_vt_active_number(fd) == -1)
        #expect(marquee_kd_get_mode(fd) == -1)
    }

    @Test func ueventSocketOpensWithoutPrivileges() {
        let fd = marquee_uevent_socket()
        #expect(fd >= 0, "netlink uevent socket: errno \(errno)")
        if fd >= 0 { close(fd) }
    }

    @Test func inotifyMasksAreTheKernelABI() {
        // What DirectoryChange parses and the input monitor asks for, no longer copied by hand.
        #expect(UInt32(IN_ATTRIB) == 0x4 && UInt32(IN_CLOSE_WRITE) == 0x8)
        #expect(UInt32(IN_MOVED_FROM) == 0x40 && UInt32(IN_MOVED_TO) == 0x80)
        #expect(UInt32(IN_CREATE) == 0x100 && UInt32(IN_DELETE) == 0x200 && UInt32(IN_DELETE_SELF) == 0x400)
        #expect(UInt32(IN_Q_OVERFLOW) == 0x4000 && UInt32(IN_IGNORED) == 0x8000)
    }

    @Test func eventfdAndTimerfdOpen() {
        let wake = eventfd(0, Int32(EFD_CLOEXEC | EFD_NONBLOCK))
        #expect(wake >= 0, "eventfd: errno \(errno)")
        if wake >= 0 { close(wake) }
        let timer = timerfd_create(CLOCK_REALTIME, Int32(TFD_CLOEXEC))
        #expect(timer >= 0, "timerfd_create: errno \(errno)")
        if timer >= 0 { close(timer) }
        #expect(marquee_timerfd_abstime_cancel_on_set() == 0b11)
    }
}

@Suite struct ALSAShimTests {
    @Test func recoverableErrorsAreNegatedErrno() {
        #expect(marquee_alsa_error_underrun() == -EPIPE)
        #expect(marquee_alsa_error_suspended() == -ESTRPIPE)
        #expect(marquee_alsa_error_would_block() == -EAGAIN)
    }

    @Test func alsaLibLinksAndExplainsErrors() {
        #expect(String(cString: snd_asoundlib_version()).hasPrefix("1."))
        #expect(String(cString: snd_strerror(marquee_alsa_error_underrun())) == "Broken pipe")
    }

    @Test func theLibraryPrinterCanBeSilenced() {
        #expect(marquee_alsa_silence_library_errors() == 0)
    }
}

@Suite struct EvdevShimTests {
    @Test func ioctlRequestsMatchTheKernelEncoding() {
        // _IOW('E', 0x90, int): direction write (1) << 30 | size 4 << 16 | 'E' << 8 | 0x90.
        #expect(marquee_eviocgrab() == (1 << 30) | (4 << 16) | (0x45 << 8) | 0x90)
        // _IOR('E', 0x01, int): direction read (2) << 30.
        #expect(marquee_eviocgversion() == (2 << 30) | (4 << 16) | (0x45 << 8) | 0x01)
    }

    /// The core carries its own copy of the kernel's key table (it may not import libevdev).
    /// libevdev omits kernel aliases (KEY_ZOOM for KEY_FULL_SCREEN) and keys newer than itself,
    /// so the check runs both ways: every name libevdev knows must agree with the core, and
    /// every key libevdev can name must be in the core.
    @Test func coreKeyNamesAgreeWithLibevdev() {
        var mismatches: [String] = []
        var knownToLibevdev = 0
        for name in KeyName.allNames {
            let code = libevdev_event_code_from_name(UInt32(EV_KEY), name)
            guard code >= 0 else { continue }
            knownToLibevdev += 1
            if code != Int32(KeyName(name)!.code) { mismatches.append("\(name): core \(KeyName(name)!.code), libevdev \(code)") }
        }
        for code in 1..<UInt32(KEY_MAX) { // KEY_RESERVED (0) is never a real key
            guard let cName = libevdev_event_code_get_name(UInt32(EV_KEY), code) else { continue }
            let name = String(cString: cName)
            if KeyName(name)?.code != UInt16(code) { mismatches.append("libevdev \(name)=\(code) missing from core") }
        }
        #expect(mismatches.isEmpty, "\(mismatches)")
        #expect(knownToLibevdev > 550)
    }

    @Test func libevdevNamesEveryDefaultMapCode() {
        for code in KeyMap.default.boundCodes {
            let name = libevdev_event_code_get_name(UInt32(EV_KEY), UInt32(code))
            #expect(name != nil, "code \(code)")
        }
    }
}

@Suite struct CECShimTests {
    /// _IOWR = 3 << 30, _IOR = 2 << 30, _IOW = 1 << 30; then the struct's size << 16, 'a' << 8, the number.
    @Test func ioctlRequestsMatchTheKernelEncoding() {
        func request(_ direction: UInt, _ size: Int, _ number: UInt) -> UInt { direction << 30 | UInt(size) << 16 | 0x61 << 8 | number }
        #expect(marquee_cec_adap_g_caps_request() == request(3, MemoryLayout<cec_caps>.size, 0))
        #expect(marquee_cec_adap_g_phys_addr_request() == request(2, 2, 1))
        #expect(marquee_cec_adap_g_log_addrs_request() == request(2, MemoryLayout<cec_log_addrs>.size, 3))
        #expect(marquee_cec_adap_s_log_addrs_request() == request(3, MemoryLayout<cec_log_addrs>.size, 4))
        #expect(marquee_cec_transmit_request() == request(3, MemoryLayout<cec_msg>.size, 5))
        #expect(marquee_cec_s_mode_request() == request(1, 4, 9))
        #expect(marquee_cec_adap_g_connector_info_request() == request(2, MemoryLayout<cec_connector_info>.size, 10))
        // Swift lays the imported structs out as C does (linux/cec.h on x86-64).
        #expect([MemoryLayout<cec_caps>.size, MemoryLayout<cec_log_addrs>.size, MemoryLayout<cec_msg>.size,
                 MemoryLayout<cec_connector_info>.size] == [76, 92, 56, 68])
        #expect(marquee_cec_adap_g_caps_request() == 0xC04C_6100)
    }

    /// MarqueeCEC spells the transmit status bits and the reserved addresses itself (pure, testable).
    @Test func constantsMatchTheHeader() {
        #expect(CEC_TX_STATUS_NACK == 1 << 2 && CEC_TX_STATUS_OK == 1 && CEC_TX_STATUS_TIMEOUT == 1 << 7)
        #expect(CEC_PHYS_ADDR_INVALID == 0xFFFF && CEC_LOG_ADDR_INVALID == 0xFF)
        #expect(marquee_cec_mode_initiator() == 1 && marquee_cec_mode_no_follower() == 0)
    }
}
