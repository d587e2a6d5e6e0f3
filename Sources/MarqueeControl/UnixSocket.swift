import Glibc
import MarqueeCore

/// The few socket calls the control socket needs that Swift's Glibc module does not spell out:
/// `sockaddr_un` from a path, `accept4` (a GNU extension the module hides) and `SO_PEERCRED`'s
/// `struct ucred` (hidden too).
enum UnixSocket {
    /// `sun_path` holds 108 bytes including the terminating NUL.
    static let maxPathBytes = MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1

    /// A new stream socket, close-on-exec from the start so a child the player spawns (a hook, a
    /// helper) never inherits it.
    static func stream(nonBlocking: Bool) -> Int32 {
        var type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        if nonBlocking { type |= Int32(SOCK_NONBLOCK.rawValue) }
        return socket(AF_UNIX, type, 0)
    }

    /// Calls `body` with the address of `path`, or returns nil when the path does not fit.
    static func withAddress<T>(_ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> T) -> T? {
        let bytes = Array(path.utf8)
        guard !bytes.isEmpty, bytes.count <= maxPathBytes else { return nil }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)  // the rest stays zero: the terminating NUL
        }
        let length = socklen_t(MemoryLayout<sockaddr_un>.offset(of: \.sun_path)! + bytes.count + 1)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, length) }
        }
    }

    static func connect(_ fd: Int32, to path: String) -> Int32 {
        withAddress(path) { address, length -> Int32 in
            do throws(SystemError) {
                try SystemCall.retrying("connect", path: path) { Glibc.connect(fd, address, length) }
                return 0
            } catch {
                return error.code
            }
        } ?? ENAMETOOLONG
    }

    private typealias Accept4 = @convention(c) (Int32, UnsafeMutablePointer<sockaddr>?, UnsafeMutablePointer<socklen_t>?, Int32) -> Int32

    /// glibc's `accept4`, looked up once. Without it the accepted fd would lack close-on-exec until a
    /// following fcntl, a window in which a fork on another thread inherits it.
    private static let accept4: Accept4? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0) /* RTLD_DEFAULT */, "accept4") else { return nil }
        return unsafeBitCast(symbol, to: Accept4.self)
    }()

    /// Accepts one connection as a non-blocking, close-on-exec fd; -1 with errno set when none.
    static func acceptNonBlocking(_ listener: Int32) -> Int32 {
        if let accept4 {
            return accept4(listener, nil, nil, Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue))
        }
        let fd = Glibc.accept(listener, nil, nil)
        guard fd >= 0 else { return -1 }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        return fd
    }

    /// Linux's `struct ucred`, which Glibc's module leaves out (it is behind _GNU_SOURCE).
    private struct PeerCredentials {
        var pid: Int32 = 0
        var uid: UInt32 = 0
        var gid: UInt32 = 0
    }

    /// The pid, uid and gid of the process that connected, as the kernel recorded them at connect().
    static func peerCredentials(_ fd: Int32) -> (pid: Int32, uid: UInt32, gid: UInt32)? {
        var credentials = PeerCredentials()
        var length = socklen_t(MemoryLayout<PeerCredentials>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0,
              length == socklen_t(MemoryLayout<PeerCredentials>.size) else { return nil }
        return (credentials.pid, credentials.uid, credentials.gid)
    }

    /// Reads and drops whatever the peer sent that is still unread, so that closing does not turn
    /// the last reply into ECONNRESET on its side (Linux resets a Unix stream closed with unread
    /// data instead of ending it cleanly).
    static func discardUnread(_ fd: Int32) {
        var scratch = [UInt8](repeating: 0, count: 4096)
        for _ in 0..<64 {
            let count = try? SystemCall.retrying("recv") {
                scratch.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            }
            if let count, count > 0 { continue }
            return
        }
    }

    /// `16 MiB`, `256 KiB` or `1000 bytes`, for log lines about limits.
    static func describeSize(_ bytes: Int) -> String {
        if bytes >= 1 << 20 && bytes % (1 << 20) == 0 { return "\(bytes >> 20) MiB" }
        if bytes >= 1 << 10 && bytes % (1 << 10) == 0 { return "\(bytes >> 10) KiB" }
        return "\(bytes) bytes"
    }
}
