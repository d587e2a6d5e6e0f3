import Glibc
import MarqueeCore

/// One connection to a player's control socket, for `marquee ctl` and tests: blocking, one thread.
/// Errors are `ControlSocketError`s one line long, meant for a terminal:
/// `no player at /run/marquee/control.sock: connection refused`.
public final class ControlSocketClient {
    public let path: String
    private let timeout: Double
    /// -1 once closed.
    private var fd: Int32
    /// Bytes read past the last line returned.
    private var buffer: [UInt8] = []
    /// How much of `buffer` is known to hold no "\n": a long line is scanned once, not once per read.
    private var scanned = 0
    private var chunk = [UInt8](repeating: 0, count: 64 * 1024)
    private var reachedEnd = false

    /// Connects to `path`, waiting at most `timeout` seconds (a player whose backlog is full makes
    /// connect() wait); the same bound applies to every `send`.
    public init(path: String, timeout: Double = 5) throws {
        self.path = path
        self.timeout = timeout
        fd = UnixSocket.stream(nonBlocking: false)
        guard fd >= 0 else { throw ControlSocketError("\(path): cannot create a socket (\(ControlSocketError.reason(errno)))", code: errno) }
        // SO_SNDTIMEO bounds a Unix socket's connect() as well as its sends.
        var limit = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - timeout.rounded(.down)) * 1e6))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        let result = UnixSocket.connect(fd, to: path)
        guard result == 0 else {
            Glibc.close(fd)
            fd = -1
            throw Self.connectError(result, path: path, timeout: timeout)
        }
    }

    deinit { close() }

    static func connectError(_ code: Int32, path: String, timeout: Double) -> ControlSocketError {
        switch code {
        case ENOENT: ControlSocketError("no player at \(path): no such file", code: code)
        case ECONNREFUSED: ControlSocketError("no player at \(path): connection refused", code: code)
        case EACCES, EPERM: ControlSocketError("\(path): permission denied", code: code)
        case EAGAIN: ControlSocketError("\(path): the player did not accept the connection within \(timeout) s", code: code)
        case ENAMETOOLONG: ControlSocketError("\(path): path too long for a Unix socket", code: code)
        default: ControlSocketError("\(path): \(ControlSocketError.reason(code))", code: code)
        }
    }

    /// Writes `line` and "\n".
    public func send(_ line: String) throws {
        try write(Array(line.utf8) + [UInt8(ascii: "\n")])
    }

    /// Writes `bytes` as they are (tests use it to send what no String holds).
    public func write(_ bytes: [UInt8]) throws {
        guard fd >= 0 else { throw ControlSocketError("\(path): the connection is closed", code: EBADF) }
        var offset = 0
        while offset < bytes.count {
            let code: Int32
            do {
                let count = try SystemCall.retrying("send", path: path) {
                    bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
                }
                if count > 0 { offset += count; continue }
                code = EIO
            } catch {
                code = error.code
            }
            if code == EAGAIN || code == EWOULDBLOCK {
                throw ControlSocketError("\(path): the player read nothing for \(timeout) s", code: code)
            }
            throw ControlSocketError("\(path): \(ControlSocketError.reason(code))", code: code)
        }
    }

    /// Shuts down the writing side: the player sees the end of the requests and still answers them.
    public func finishSending() {
        if fd >= 0 { shutdown(fd, Int32(SHUT_WR)) }
    }

    /// The next line without its "\n" (and a "\r" before it); nil at the end of the stream (a last
    /// line without "\n" is returned first). Waits at most `timeout` seconds (nil: for ever), then
    /// throws. A connection reset after the player's last line counts as the end.
    public func readLine(timeout: Double?) throws -> String? {
        let deadline = timeout.map { Self.now() + $0 }
        while true {
            if let newline = buffer[scanned...].firstIndex(of: UInt8(ascii: "\n")) {
                var line = buffer[..<newline]
                if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
                let text = String(decoding: line, as: UTF8.self)
                buffer.removeSubrange(...newline)
                scanned = 0
                return text
            }
            scanned = buffer.count
            if reachedEnd || fd < 0 {
                guard !buffer.isEmpty else { return nil }
                defer { buffer.removeAll(); scanned = 0 }
                return String(decoding: buffer, as: UTF8.self)
            }
            if let deadline, deadline - Self.now() <= 0 {
                throw ControlSocketError("\(path): no reply within \(timeout ?? 0) s", code: ETIMEDOUT)
            }
            var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready: Int32
            do {
                // Asked again after a signal for what is left of the wait (0 once it is over).
                ready = try SystemCall.retrying("poll", path: path) {
                    let wait = deadline.map { Int32(clamping: Int((max(0, $0 - Self.now()) * 1000).rounded(.up))) }
                    return poll(&descriptor, 1, wait ?? -1)
                }
            } catch {
                throw ControlSocketError("\(path): \(ControlSocketError.reason(error.code))", code: error.code)
            }
            if ready == 0 { continue }  // the deadline check above throws
            do {
                let count = try SystemCall.retrying("recv", path: path) {
                    chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
                }
                if count > 0 {
                    buffer.append(contentsOf: chunk[..<count])
                } else {
                    reachedEnd = true
                }
            } catch {
                switch error.code {
                case ECONNRESET: reachedEnd = true
                case EAGAIN, EWOULDBLOCK: break
                default: throw ControlSocketError("\(path): \(ControlSocketError.reason(error.code))", code: error.code)
                }
            }
        }
    }

    public func close() {
        guard fd >= 0 else { return }
        Glibc.close(fd)
        fd = -1
    }

    private static func now() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}
