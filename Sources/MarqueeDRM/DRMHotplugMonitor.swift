import CLinux
import Foundation
import MarqueeCore
import Glibc

/// Watches for screens plugged in and out: the kernel's drm uevents (HOTPLUG=1) over netlink, and
/// a periodic check besides, for drivers and sandboxes where no uevent arrives. Both are sources on
/// the control-plane loop, and `check` runs there. Stop rules: the uevent socket ends on a read
/// error other than "nothing queued" (the periodic check goes on); `stop` removes both.
final class DRMHotplugMonitor: @unchecked Sendable {
    /// How often the connector is looked at without a uevent.
    static let checkInterval: Duration = .seconds(2)
    private let events: ControlPlaneLoop
    private var sources: [EventSourceID] = []

    /// Starts watching; without a uevent socket (a seccomp filter, an old kernel) it only checks
    /// every `checkInterval`.
    init(events: ControlPlaneLoop, check: @escaping @Sendable () -> Void) {
        self.events = events
        let ueventFD = marquee_uevent_socket()
        if ueventFD >= 0 {
            sources.append(events.watch(ueventFD, named: "drm uevents", owning: true) { _ in
                // Only drm hotplug uevents matter; the rest (USB, input, sound) are drained.
                switch Self.drainUevents(ueventFD) {
                case .hotplug: check()
                case .other: break
                case .failed: return .end
                }
                return .keep
            })
        }
        if let timer = events.timer(named: "drm hotplug check", every: Self.checkInterval, handler: check) {
            sources.append(timer)
        }
    }

    private enum Drained { case hotplug, other, failed }

    /// Reads every queued uevent; whether one of them was a drm hotplug.
    private static func drainUevents(_ descriptor: Int32) -> Drained {
        var isHotplug = false
        var message = [UInt8](repeating: 0, count: 8192)
        while true {
            let count = recv(descriptor, &message, message.count, Int32(MSG_DONTWAIT))
            if count < 0 && errno != EAGAIN && errno != EINTR && errno != ENOBUFS { return .failed }
            if count <= 0 { return isHotplug ? .hotplug : .other }
            let fields = message[..<count].split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
            if fields.contains("SUBSYSTEM=drm") && fields.contains("HOTPLUG=1") { isHotplug = true }
        }
    }

    /// Ends both sources, so `check` never runs after this returns (unless called from `check`
    /// itself, on the loop's thread, where it is not called again once it returns).
    func stop() {
        for source in sources { events.remove(source, waiting: true) }
        sources.removeAll()
    }
}
