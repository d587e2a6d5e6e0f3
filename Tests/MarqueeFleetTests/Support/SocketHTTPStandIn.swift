import Foundation
#if canImport(Glibc)
import Glibc
#endif
import MarqueeCore

/// TEST STAND-IN for the libcurl client (MarqueeCurl), written while that one is written in
/// parallel: a plain-socket HTTP/1.1 GET that speaks to `LoopbackHTTPServer` well enough for the
/// cache's tests (Range + If-Range resume, a 200 answer to a range truncating the file, statuses,
/// a body cut short, progress every 100 ms even while nothing arrives, cancellation through the
/// progress callback, a rate limit). http://127.0.0.1 only: no TLS, no redirects, no chunked
/// bodies. Tests reach it through `RecordingTransfer`, whose one default names it.
final class SocketHTTPStandIn: HTTPTransferring {
    func fetch(_ request: HTTPRequest, maxBytes: Int) throws(HTTPTransferError) -> HTTPResponse {
        let path = NSTemporaryDirectory() + "standin-fetch-\(UUID().uuidString)"
        defer { unlink(path) }
        let head = try download(request, appendingTo: path) { bytes, _ in bytes <= maxBytes }
        return HTTPResponse(head: head, body: (try? Data(contentsOf: URL(fileURLWithPath: path))) ?? Data())
    }

    func download(_ request: HTTPRequest, appendingTo path: String,
                  progress: (Int64, Int64?) -> Bool) throws(HTTPTransferError) -> HTTPResponseHead {
        try transfer(request, to: path, progress: progress)
    }

    private func transfer(_ request: HTTPRequest, to path: String,
                          progress: (Int64, Int64?) -> Bool) throws(HTTPTransferError) -> HTTPResponseHead {
        guard request.url.scheme == "http", let host = request.url.host, let port = request.url.port else {
            throw .refused("the stand-in speaks http://host:port only")
        }
        let connection = try Connection(host: host, port: UInt16(port), stallTimeout: request.stallTimeout)
        defer { connection.close() }
        var lines = ["GET \(request.url.path.isEmpty ? "/" : request.url.path) HTTP/1.1", "Host: \(host):\(port)", "Connection: close"]
        if request.resumeFrom > 0 { lines.append("Range: bytes=\(request.resumeFrom)-") }
        if let ifRange = request.ifRange { lines.append("If-Range: \(ifRange)") }
        try connection.send(lines.joined(separator: "\r\n") + "\r\n\r\n")

        let onDisk = { Int64((try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0) }
        var (head, leftover) = try connection.readHead { progress(onDisk(), nil) }
        guard head.status < 400 else { throw .status(head.status) }
        let appending = head.status == 206
        head.resumedFrom = appending ? request.resumeFrom : 0
        head.effectiveURL = request.url
        let file = open(path, O_WRONLY | O_CREAT | O_CLOEXEC | (appending ? O_APPEND : O_TRUNC), 0o644)
        guard file >= 0 else { throw .file("open \(path): \(String(cString: strerror(errno)))") }
        defer { Glibc.close(file) }

        let total = head.contentLength.map { $0 + head.resumedFrom }
        // The contract's bound on the file: refused on its announced length, or before a write past it.
        if let limit = request.maxFileBytes, let total, total > limit { throw .tooLarge(limit) }
        var received: Int64 = 0
        let started = ContinuousClock.now
        var lastProgress = ContinuousClock.now
        while true {
            if !leftover.isEmpty {
                if let limit = request.maxFileBytes, head.resumedFrom + received + Int64(leftover.count) > limit { throw .tooLarge(limit) }
                try write(leftover, to: file, path: path)
                received += Int64(leftover.count)
                leftover = []
            }
            if let length = head.contentLength, received >= length { break }
            if ContinuousClock.now - lastProgress >= .milliseconds(100) {
                lastProgress = ContinuousClock.now
                guard progress(head.resumedFrom + received, total) else { throw .cancelled }
            }
            if let rate = request.maxBytesPerSecond, rate > 0 {
                let due = started + .seconds(Double(received) / Double(rate))
                if due > ContinuousClock.now {
                    usleep(UInt32(min(100_000, max(1_000, (due - ContinuousClock.now).microseconds))))
                    continue
                }
            }
            guard let chunk = try connection.receive() else { continue }  // nothing within 100 ms
            if chunk.isEmpty { break }  // the server closed
            leftover = chunk
        }
        if let length = head.contentLength, received < length {
            throw .truncated(received: head.resumedFrom + received, expected: head.resumedFrom + length)
        }
        _ = progress(head.resumedFrom + received, total)
        return head
    }

    private func write(_ bytes: [UInt8], to file: Int32, path: String) throws(HTTPTransferError) {
        var offset = 0
        while offset < bytes.count {
            let count = bytes[offset...].withUnsafeBytes { Glibc.write(file, $0.baseAddress, $0.count) }
            guard count > 0 else { throw .file("write \(path): \(String(cString: strerror(errno)))") }
            offset += count
        }
    }
}

extension Duration {
    var microseconds: Int64 { components.seconds * 1_000_000 + components.attoseconds / 1_000_000_000_000 }
}
