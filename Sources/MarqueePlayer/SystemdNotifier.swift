import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// systemd's notify protocol without libsystemd: one datagram per message to the unix socket
/// named by `$NOTIFY_SOCKET` (an abstract socket when it starts with `@`). With `Type=notify` the
/// service is started once `READY=1` arrives; with `WatchdogSec=` it must send `WATCHDOG=1` at
/// least every `$WATCHDOG_USEC` or be killed and restarted.
public final class SystemdNotifier: Sendable {
    private let fd: Int32
    private let address: [UInt8]
    /// Half of `$WATCHDOG_USEC` (systemd's advice), when the watchdog is on for this process.
    public let watchdogInterval: Duration?

    /// Nil when `$NOTIFY_SOCKET` is unset (not started by systemd) or unusable.
    public convenience init?(environment: [String: String] = ProcessInfo.processInfo.environment) {
        guard let socketPath = environment["NOTIFY_SOCKET"], !socketPath.isEmpty else { return nil }
        var watchdog: Duration?
        if let text = environment["WATCHDOG_USEC"], let usec = Int64(text), usec > 0 {
            // WATCHDOG_PID, when set, names the process the watchdog is for (not a child of it).
            if let pid = environment["WATCHDOG_PID"].flatMap({ Int32($0) }), pid != getpid() {
                watchdog = nil
            } else {
                watchdog = .microseconds(usec / 2)
            }
        }
        self.init(socketPath: socketPath, watchdogInterval: watchdog)
    }

    /// `socketPath`: a file system path, or `@name` for an abstract socket.
    public init?(socketPath: String, watchdogInterval: Duration? = nil) {
        var bytes = Array(socketPath.utf8)
        if bytes.first == UInt8(ascii: "@") { bytes[0] = 0 }
        let capacity = MemoryLayout.size(ofValue: sockaddr_un().sun_path)
        guard !bytes.isEmpty, bytes.count < capacity else { return nil }
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return nil }
        self.fd = fd
        address = bytes
        self.watchdogInterval = watchdogInterval
    }

    deinit { close(fd) }

    /// Sends `state` (`READY=1`, `WATCHDOG=1`, `STATUS=...`, `STOPPING=1`; several separated by
    /// newlines); false if the datagram could not be sent (systemd gone: nothing to do about it).
    @discardableResult
    public func send(_ state: String) -> Bool {
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &addr.sun_path) { path in
            for (i, byte) in address.enumerated() { path[i] = byte }
        }
        // Abstract names are exactly their bytes long; paths include their terminating NUL.
        let length = MemoryLayout<sockaddr_un>.offset(of: \.sun_path)! + address.count + (address[0] == 0 ? 0 : 1)
        let bytes = Array(state.utf8)
        let sent = withUnsafePointer(to: &addr) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { sa in
                bytes.withUnsafeBytes { buffer in
                    sendto(fd, buffer.baseAddress, buffer.count, Int32(MSG_NOSIGNAL), sa, socklen_t(length))
                }
            }
        }
        return sent == bytes.count
    }
}

/// Turns the present thread's heartbeat (many calls a second) into `WATCHDOG=1` pings at the
/// watchdog interval. Called only from that thread, so a frozen present thread stops the pings.
public final class WatchdogPinger: @unchecked Sendable {
    private let interval: Duration
    private let ping: () -> Void
    private var last: ContinuousClock.Instant?
    private let lock = NSLock()

    public init(interval: Duration, ping: @escaping () -> Void) {
        self.interval = interval
        self.ping = ping
    }

    public convenience init(notifier: SystemdNotifier, interval: Duration) {
        self.init(interval: interval) { notifier.send("WATCHDOG=1") }
    }

    public func tick() {
        let now = ContinuousClock.now
        let due = lock.withLock {
            guard let last, now - last < interval else {
                self.last = now
                return true
            }
            return false
        }
        if due { ping() }
    }
}
