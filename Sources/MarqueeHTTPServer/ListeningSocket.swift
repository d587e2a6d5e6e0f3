import Glibc

/// A TCP socket bound to one address and listening, ready to be handed to the server that
/// accepts on it (which then owns and closes it).
struct ListeningSocket {
    let descriptor: Int32
    /// `127.0.0.1:9150`, `[::1]:9150`: what was bound, the kernel's port for port 0.
    let address: String
    let port: Int

    /// Enough for a scraper's burst; more wait in the kernel's queue.
    static let backlog: Int32 = 16

    /// `host` is resolved with getaddrinfo (numeric addresses and names such as localhost); the
    /// first address it gives is bound.
    init(host: String, port: Int) throws(HTTPServerError) {
        let given = Self.label(host: host, port: port)
        guard (0...65535).contains(port) else { throw HTTPServerError(address: given, cause: "port \(port) is out of range (0 to 65535)") }
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV
        var found: UnsafeMutablePointer<addrinfo>?
        let lookup = getaddrinfo(host, String(port), &hints, &found)
        guard lookup == 0, let first = found else {
            throw HTTPServerError(address: given, cause: "cannot resolve '\(host)': \(String(cString: gai_strerror(lookup)))")
        }
        defer { freeaddrinfo(found) }
        let descriptor = socket(first.pointee.ai_family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw HTTPServerError(address: given, cause: "socket: \(Self.lastError())") }
        // A restart right after a stop must not wait out the old connections' TIME_WAIT.
        var on: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
        guard bind(descriptor, first.pointee.ai_addr, first.pointee.ai_addrlen) == 0 else {
            let cause = Self.lastError()
            close(descriptor)
            throw HTTPServerError(address: given, cause: cause)
        }
        guard listen(descriptor, Self.backlog) == 0 else {
            let cause = Self.lastError()
            close(descriptor)
            throw HTTPServerError(address: given, cause: "listen: \(cause)")
        }
        var bound = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        _ = withUnsafeMutablePointer(to: &bound) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) } }
        let family = bound.ss_family
        let boundPort = withUnsafePointer(to: bound) { pointer -> Int in
            if family == sa_family_t(AF_INET6) {
                return pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { Int(UInt16(bigEndian: $0.pointee.sin6_port)) }
            }
            return pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { Int(UInt16(bigEndian: $0.pointee.sin_port)) }
        }
        self.descriptor = descriptor
        self.port = boundPort
        address = Self.label(host: host, port: boundPort)
    }

    /// `[::1]:9150` for an IPv6 address, `host:port` otherwise.
    static func label(host: String, port: Int) -> String {
        host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }

    private static func lastError() -> String { String(cString: strerror(errno)) }
}
