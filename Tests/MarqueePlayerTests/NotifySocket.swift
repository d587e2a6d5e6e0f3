import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The systemd side of the notify protocol for tests: a unix datagram socket bound in the test
/// process (abstract when the name starts with `@`), recording each message with when it came:
/// when the kernel queued it (SO_TIMESTAMPNS), not when the reader thread got to it, so a reader
/// held up on a busy machine does not bunch up messages that were sent apart.
final class NotifySocket: @unchecked Sendable {
    let name: String
    private let fd: Int32
    private let condition = NSCondition()
    private var received: [(time: ContinuousClock.Instant, text: String)] = []
    private var closed = false

    init(name: String = "@marquee-test-\(UUID().uuidString)") throws {
        self.name = name
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        var bytes = Array(name.utf8)
        if bytes.first == UInt8(ascii: "@") { bytes[0] = 0 }
        withUnsafeMutableBytes(of: &addr.sun_path) { path in for (i, b) in bytes.enumerated() { path[i] = b } }
        let length = MemoryLayout<sockaddr_un>.offset(of: \.sun_path)! + bytes.count + (bytes[0] == 0 ? 0 : 1)
        let status = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(length)) }
        }
        guard status == 0 else { throw POSIXError(.init(rawValue: errno) ?? .EINVAL) }
        // A receive timeout lets the reader thread notice `close()`.
        var timeout = timeval(tv_sec: 0, tv_usec: 100_000)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var on: Int32 = 1
        setsockopt(fd, SOL_SOCKET, Self.timestampOption, &on, socklen_t(MemoryLayout<Int32>.size))
        let thread = Thread { [self] in receive() }
        thread.start()
    }

    deinit { close() }

    func close() {
        condition.lock()
        let wasClosed = closed
        closed = true
        condition.unlock()
        if !wasClosed {
            Thread.sleep(forTimeInterval: 0.15)
            Glibc.close(fd)
            if !name.hasPrefix("@") { unlink(name) }
        }
    }

    private func receive() {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            condition.lock()
            let stop = closed
            condition.unlock()
            if stop { return }
            guard let (count, queuedAgo) = receiveStamped(into: &buffer) else { continue }
            let text = String(decoding: buffer[0..<count], as: UTF8.self)
            condition.lock()
            received.append((ContinuousClock.now - queuedAgo, text))
            condition.broadcast()
            condition.unlock()
        }
    }

    /// SO_TIMESTAMPNS (SO_TIMESTAMPNS_OLD with a 64-bit time_t); Glibc's macro does not import.
    private static let timestampOption: Int32 = 35

    /// One datagram, and how long ago the kernel queued it (zero when it came without its stamp).
    private func receiveStamped(into buffer: inout [UInt8]) -> (Int, Duration)? {
        var control = [UInt64](repeating: 0, count: 8)
        var controlLength = 0
        let count = buffer.withUnsafeMutableBytes { data in
            control.withUnsafeMutableBytes { controlBytes in
                var vector = iovec(iov_base: data.baseAddress, iov_len: data.count)
                return withUnsafeMutablePointer(to: &vector) { vectorPointer in
                    var header = msghdr()
                    header.msg_iov = vectorPointer
                    header.msg_iovlen = 1
                    header.msg_control = controlBytes.baseAddress
                    header.msg_controllen = controlBytes.count
                    defer { controlLength = Int(header.msg_controllen) }
                    return recvmsg(fd, &header, 0)
                }
            }
        }
        guard count > 0 else { return nil }
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        // struct cmsghdr { size_t len; int level; int type; } then a struct timespec, 8-byte aligned.
        let (level, type) = (Int32(truncatingIfNeeded: control[1]), Int32(truncatingIfNeeded: control[1] >> 32))
        guard controlLength >= 32, level == SOL_SOCKET, type == Self.timestampOption else { return (count, .zero) }
        let queued = Duration.seconds(Int64(bitPattern: control[2])) + .nanoseconds(Int64(bitPattern: control[3]))
        let current = Duration.seconds(Int64(now.tv_sec)) + .nanoseconds(Int64(now.tv_nsec))
        return (count, max(.zero, current - queued))
    }

    var messages: [(time: ContinuousClock.Instant, text: String)] {
        condition.lock()
        defer { condition.unlock() }
        return received
    }

    /// Times of the messages that are exactly `text` (or contain it as one line).
    func times(of text: String) -> [ContinuousClock.Instant] {
        messages.filter { $0.text.split(separator: "\n").contains(Substring(text)) }.map(\.time)
    }

    func wait(seconds: Double = 10, until done: ([(time: ContinuousClock.Instant, text: String)]) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        condition.lock()
        defer { condition.unlock() }
        while !done(received) {
            if !condition.wait(until: deadline) { return done(received) }
        }
        return true
    }
}
