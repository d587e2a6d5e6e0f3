import Foundation
import MarqueePlayer
import MarqueeSession

/// What the status card says about the device: its hostname and addresses, read when the card is
/// drawn (an address that came from DHCP since the player started shows).
enum DeviceFacts {
    static func read() -> OnScreenDisplay.DeviceFacts {
        OnScreenDisplay.DeviceFacts(hostname: hostname(), addresses: addresses())
    }

    static func hostname() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count) == 0 else { return "unknown host" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// IPv4 and global IPv6 addresses of the interfaces that are up, loopback and link-local left out.
    static func addresses() -> [String] {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0, let first = list else { return [] }
        defer { freeifaddrs(list) }
        var found: [String] = []
        var entry: UnsafeMutablePointer<ifaddrs>? = first
        while let current = entry {
            defer { entry = current.pointee.ifa_next }
            let flags = Int32(current.pointee.ifa_flags)
            guard flags & Int32(IFF_UP) != 0, flags & Int32(IFF_LOOPBACK) == 0, let address = current.pointee.ifa_addr else { continue }
            let family = Int32(address.pointee.sa_family)
            guard family == AF_INET || family == AF_INET6 else { continue }
            var host = [CChar](repeating: 0, count: Int(NI_MAXHOST))
            let length = socklen_t(family == AF_INET ? MemoryLayout<sockaddr_in>.size : MemoryLayout<sockaddr_in6>.size)
            guard getnameinfo(address, length, &host, socklen_t(host.count), nil, 0, NI_NUMERICHOST) == 0 else { continue }
            let text = String(decoding: host.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if family == AF_INET6 && text.lowercased().hasPrefix("fe80") { continue }
            let name = String(cString: current.pointee.ifa_name)
            let line = "\(name) \(text.split(separator: "%").first.map(String.init) ?? text)"
            if !found.contains(line) { found.append(line) }
        }
        return found
    }
}
