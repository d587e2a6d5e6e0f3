import Foundation
#if canImport(Glibc)
import Glibc
#endif
import MarqueeCore

/// The stand-in client's TCP connection: blocking connect to 127.0.0.1, then reads that wait at
/// most 100 ms (so the caller can run its progress callback and notice a cancel or a stall).
struct Connection {
    let socket: Int32
    let stallTimeout: Duration
    private let lastData = Clock()

    final class Clock: @unchecked Sendable { var instant = ContinuousClock.now }

    init(host: String, port: UInt16, stallTimeout: Duration) throws(HTTPTransferError) {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw .network("socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr(host)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            let reason = String(cString: strerror(errno))
            Glibc.close(socket)
            throw .network("connect to \(host):\(port): \(reason)")
        }
        self.socket = socket
        self.stallTimeout = stallTimeout
    }

    func close() { Glibc.close(socket) }

    func send(_ text: String) throws(HTTPTransferError) {
        let bytes = Array(text.utf8)
        guard bytes.withUnsafeBytes({ Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) == bytes.count else {
            throw .network("send: \(String(cString: strerror(errno)))")
        }
    }

    /// Up to 64 KiB; [] at the end of the stream; nil when nothing came within 100 ms.
    func receive() throws(HTTPTransferError) -> [UInt8]? {
        var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, 100) > 0 else {
            if ContinuousClock.now - lastData.instant > stallTimeout { throw .network("stalled: no data for \(stallTimeout)") }
            return nil
        }
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let count = recv(socket, &buffer, buffer.count, 0)
        guard count >= 0 else { throw .network("recv: \(String(cString: strerror(errno)))") }
        lastData.instant = ContinuousClock.now
        return Array(buffer[0..<count])
    }

    /// The status line and headers, and any body bytes that came with them. `tick` runs every
    /// 100 ms of waiting; false cancels.
    func readHead(tick: () -> Bool) throws(HTTPTransferError) -> (HTTPResponseHead, [UInt8]) {
        var received = [UInt8]()
        while true {
            guard let chunk = try receive() else {
                guard tick() else { throw .cancelled }
                continue
            }
            guard !chunk.isEmpty else { throw .network("connection closed before the response head") }
            received += chunk
            guard let end = Self.headEnd(in: received) else { continue }
            let text = String(decoding: received[0..<end], as: UTF8.self)
            let lines = text.components(separatedBy: "\r\n")
            let status = lines.first.flatMap { Int($0.split(separator: " ").dropFirst().first ?? "") } ?? 0
            var head = HTTPResponseHead(status: status, effectiveURL: URL(string: "http://127.0.0.1/")!)
            for line in lines.dropFirst() {
                guard let colon = line.firstIndex(of: ":") else { continue }
                let name = line[..<colon].lowercased()
                let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                switch name {
                case "content-length": head.contentLength = Int64(value)
                case "etag": head.etag = value
                case "last-modified": head.lastModified = value
                default: break
                }
            }
            return (head, Array(received[(end + 4)...]))
        }
    }

    private static func headEnd(in bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        return (0...(bytes.count - 4)).first { bytes[$0] == 13 && bytes[$0 + 1] == 10 && bytes[$0 + 2] == 13 && bytes[$0 + 3] == 10 }
    }
}
