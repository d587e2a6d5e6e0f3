import CEvdev
import Glibc
import MarqueeCore

/// One open evdev node: the only owner of its file descriptor and libevdev handle, both released
/// in deinit (closing the fd also releases a grab). Used from one thread at a time.
final class InputDevice {
    let info: InputDeviceInfo
    let fileDescriptor: Int32
    private let handle: OpaquePointer
    private(set) var isGrabbed = false

    /// Opens `path` non-blocking (the input thread waits in poll, never in read), reads what the
    /// device is and which keys it has, and has the kernel stamp events with CLOCK_MONOTONIC so
    /// numeric-entry timeouts do not jump with the wall clock.
    init(path: String) throws(SystemError) {
        let fd = try SystemCall.retrying("open", path: path) { Glibc.open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC) }
        var created: OpaquePointer?
        let result = libevdev_new_from_fd(fd, &created)
        guard result == 0, let created else {
            close(fd)
            throw SystemError(code: -result, operation: "libevdev_new_from_fd", path: path)
        }
        fileDescriptor = fd
        handle = created
        // Without it, timestamps are CLOCK_REALTIME; failing only costs that, so it is not fatal.
        _ = libevdev_set_clock_id(created, CLOCK_MONOTONIC)
        info = Self.describe(created, path: path)
    }

    deinit {
        libevdev_free(handle)
        close(fileDescriptor)
    }

    /// EVIOCGRAB: only this process receives the device's events (not the console behind the video).
    func grab() throws(SystemError) {
        let result = libevdev_grab(handle, LIBEVDEV_GRAB)
        guard result == 0 else { throw SystemError(code: -result, operation: "EVIOCGRAB", path: info.path) }
        isGrabbed = true
    }

    /// What one read pass got.
    enum ReadOutcome {
        /// Everything available now (possibly nothing); poll says when there is more.
        case reports([EvdevReport])
        /// The device is gone (ENODEV: unplugged) or unreadable; the caller closes it. Reports read
        /// before the failure come with it.
        case failed([EvdevReport], SystemError)
    }

    /// Most events one pass takes from one device, so a flooding device cannot starve the others.
    static let maximumEventsPerPass = 512

    /// Reads what is pending. After SYN_DROPPED, libevdev's sync mode restates the key states the
    /// lost events changed (its resync); those come back marked `isResync`, then normal reading goes on.
    func read() -> ReadOutcome {
        var reports: [EvdevReport] = []
        var event = input_event()
        var syncing = false
        for _ in 0..<Self.maximumEventsPerPass {
            let flags = syncing ? LIBEVDEV_READ_FLAG_SYNC.rawValue : LIBEVDEV_READ_FLAG_NORMAL.rawValue
            let status = libevdev_next_event(handle, flags, &event)
            if status == -EAGAIN {
                // In sync mode, -EAGAIN means the resync is complete: read normally again.
                if syncing { syncing = false; continue }
                break
            }
            if status < 0 {
                return .failed(reports, SystemError(code: -status, operation: "read", path: info.path))
            }
            let isSyncStatus = status == Int32(LIBEVDEV_READ_STATUS_SYNC.rawValue)
            if isSyncStatus && !syncing {
                // This event is the SYN_DROPPED itself; what follows in sync mode is the resync.
                reports.append(.eventsDropped)
                syncing = true
                continue
            }
            let time = EvdevReport.time(seconds: Int(event.time.tv_sec), microseconds: Int(event.time.tv_usec))
            if let report = EvdevReport.translate(type: event.type, code: event.code, value: event.value,
                                                  time: time, isResync: syncing) {
                reports.append(report)
            }
        }
        return .reports(reports)
    }

    private static func describe(_ handle: OpaquePointer, path: String) -> InputDeviceInfo {
        var keyCodes: Set<UInt16> = []
        if libevdev_has_event_type(handle, UInt32(EV_KEY)) != 0 {
            for code in 0..<UInt32(KEY_CNT) where libevdev_has_event_code(handle, UInt32(EV_KEY), code) != 0 {
                keyCodes.insert(UInt16(code))
            }
        }
        return InputDeviceInfo(path: path,
                               name: libevdev_get_name(handle).map { String(cString: $0) } ?? "",
                               physicalLocation: libevdev_get_phys(handle).map { String(cString: $0) } ?? "",
                               bus: UInt16(truncatingIfNeeded: libevdev_get_id_bustype(handle)),
                               vendor: UInt16(truncatingIfNeeded: libevdev_get_id_vendor(handle)),
                               product: UInt16(truncatingIfNeeded: libevdev_get_id_product(handle)),
                               keyCodes: keyCodes)
    }
}
