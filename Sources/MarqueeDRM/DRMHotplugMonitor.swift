import CDRM
import CLinux
import Foundation
import MarqueeCore
import Glibc

/// Watches for screens plugged in and out: the kernel's drm uevents (HOTPLUG=1) over netlink, and
/// a periodic check besides, for drivers and sandboxes where no uevent arrives. `check` runs on
/// the monitor's own thread, which blocks in poll and costs nothing between events.
final class DRMHotplugMonitor: @unchecked Sendable {
    /// How often the connector is looked at without a uevent.
    static let checkInterval: Int32 = 2000
    private let ueventFD: Int32
    private let wakeFDs: [Int32]
    private let check: @Sendable () -> Void
    private let finished = MonotonicCondition()
    private var isFinished = false

    /// Starts the thread; without a uevent socket (a seccomp filter, an old kernel) it only polls.
    init(check: @escaping @Sendable () -> Void) {
        self.check = check
        ueventFD = marquee_uevent_socket()
        var pipeFDs: [Int32] = [-1, -1]
        if marquee_wake_pipe(&pipeFDs) != 0 { pipeFDs = [-1, -1] }
        wakeFDs = pipeFDs
        let thread = Thread { [self] in
            run()
            finished.withLock {
                isFinished = true
                finished.broadcast()
            }
        }
        thread.name = "marquee.hotplug"
        thread.start()
    }

    private func run() {
        var descriptors = [pollfd(fd: wakeFDs[0], events: Int16(POLLIN), revents: 0),
                           pollfd(fd: ueventFD, events: Int16(POLLIN), revents: 0)]
        while true {
            do {
                try SystemCall.retrying("poll") { poll(&descriptors, nfds_t(descriptors.count), Self.checkInterval) }
            } catch {
                return
            }
            if descriptors[0].revents != 0 { return }
            if descriptors[1].revents != 0 {
                // Only drm hotplug uevents matter; the rest (USB, input, sound) are drained.
                guard drainUevents() else { continue }
            }
            check()
        }
    }

    /// Reads every queued uevent; true when one of them was a drm hotplug.
    private func drainUevents() -> Bool {
        var isHotplug = false
        var message = [UInt8](repeating: 0, count: 8192)
        while true {
            let count = recv(ueventFD, &message, message.count, Int32(MSG_DONTWAIT))
            if count <= 0 { return isHotplug }
            let fields = message[..<count].split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
            if fields.contains("SUBSYSTEM=drm") && fields.contains("HOTPLUG=1") { isHotplug = true }
        }
    }

    /// Ends the thread and waits for it, so `check` never runs after this returns.
    func stop() {
        guard wakeFDs[1] >= 0 else { return }
        var byte: UInt8 = 1
        _ = write(wakeFDs[1], &byte, 1)
        finished.withLock { while !isFinished { finished.wait() } }
    }

    deinit {
        if ueventFD >= 0 { close(ueventFD) }
        wakeFDs.filter { $0 >= 0 }.forEach { close($0) }
    }
}
