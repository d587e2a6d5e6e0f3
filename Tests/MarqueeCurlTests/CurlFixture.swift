import Foundation
import MarqueeCore
import MarqueeCurl
import MarqueeTestSupport

/// What the curl tests share: a client, a loopback server, bodies that differ at every offset, a
/// scratch folder, and a way to get the error out of a call that should fail. `stop()` when done.
struct CurlFixture {
    let client = CurlHTTPClient()
    let server: LoopbackHTTPServer
    let folder: URL

    init(routes: [String: LoopbackHTTPServer.Route] = [:]) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("marquee-curl-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        server = try LoopbackHTTPServer(routes: routes)
    }

    func stop() {
        server.stop()
        try? FileManager.default.removeItem(at: folder)
    }

    /// A GET of `path` on the loopback server.
    func request(_ path: String) -> HTTPRequest { Self.request(server.url(path)) }

    /// The file `name` holding the first `count` bytes of `data`, as an interrupted download leaves
    /// it, and the request that resumes it.
    func resuming(_ path: String, into name: String, from count: Int, of data: Data) throws -> HTTPRequest {
        try data.prefix(count).write(to: URL(fileURLWithPath: self.path(name)))
        var request = request(path)
        request.resumeFrom = Int64(count)
        return request
    }

    func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    func contents(_ name: String) -> Data { FileManager.default.contents(atPath: path(name)) ?? Data() }

    /// `count` bytes whose pattern depends on `seed`, so two versions of a file never match.
    static func payload(_ count: Int, seed: UInt8 = 0) -> Data {
        Data((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 9) ^ seed })
    }

    static func request(_ url: String) -> HTTPRequest { HTTPRequest(url: URL(string: url)!) }

    /// The error a call threw, nil when it returned.
    static func failure<T>(_ call: () throws(HTTPTransferError) -> T) -> HTTPTransferError? {
        do {
            _ = try call()
            return nil
        } catch {
            return error
        }
    }

    /// Seconds `call` took, and what it returned.
    static func timed<T>(_ call: () throws -> T) rethrows -> (T, Double) {
        let start = ContinuousClock.now
        let value = try call()
        let elapsed = ContinuousClock.now - start
        return (value, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
    }

    /// A download with a progress callback that lets it run.
    func download(_ request: HTTPRequest, to name: String) throws(HTTPTransferError) -> HTTPResponseHead {
        try client.download(request, appendingTo: path(name), progress: { _, _ in true })
    }
}

extension HTTPTransferError {
    var isNetwork: Bool { if case .network = self { true } else { false } }
    var isRefused: Bool { if case .refused = self { true } else { false } }
}
