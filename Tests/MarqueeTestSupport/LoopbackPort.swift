import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Ports on 127.0.0.1 for the servers tests start (HTTP, mosquitto): one the kernel hands out free,
/// and whether something accepts connections on one.
enum LoopbackPort {
    /// A port free now: bound to port 0, read back, closed; the reason when that fails.
    static func free() -> Result<UInt16, LoopbackPortError> {
        let probe = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard probe >= 0 else { return .failure(LoopbackPortError("socket: \(String(cString: strerror(errno)))")) }
        defer { close(probe) }
        var address = loopback(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(probe, $0, length) == 0 && getsockname(probe, $0, &length) == 0 }
        }
        guard bound else { return .failure(LoopbackPortError("bind on 127.0.0.1: \(String(cString: strerror(errno)))")) }
        return .success(UInt16(bigEndian: address.sin_port))
    }

    /// Whether a connect to 127.0.0.1:`port` is accepted now.
    static func acceptsConnections(_ port: UInt16) -> Bool {
        let probe = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard probe >= 0 else { return false }
        defer { close(probe) }
        var address = loopback(port: port)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(probe, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        } == 0
    }

    private static func loopback(port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }
}

struct LoopbackPortError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
