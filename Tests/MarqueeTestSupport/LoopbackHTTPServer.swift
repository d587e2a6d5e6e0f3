import Foundation
import Glibc
import Synchronization

/// A tiny HTTP/1.1 server on 127.0.0.1 for tests: serves fixed routes, honours byte ranges (so FFmpeg
/// sees a seekable source), can answer with an error status, a redirect, or never answer at all, can
/// ask for Basic authentication, answer conditional requests (ETag, Last-Modified, If-Range), lie
/// about a body's length or reset the connection mid-body, and records every path it was asked for. One thread accepts; each
/// connection gets its own thread. The threads keep the server alive: call `stop()` when done (a
/// `defer` right after creating it). Shared by the media and the CLI tests.
public final class LoopbackHTTPServer: Sendable {
    public indirect enum Route: Sendable {
        /// Without ranges the server answers every request with the whole file and no `Accept-Ranges`,
        /// as simple servers (Python's http.server) do: FFmpeg then cannot seek.
        case file(Data, contentType: String, honoursRanges: Bool = true)
        case status(Int)
        case redirect(to: String)
        /// Accepts the request and never answers: a server that hangs.
        case stall
        /// Answers like `.file` (byte ranges honoured) but sends only the bytes before offset `after`
        /// of the file, then goes silent with the connection still open: a server that stalls mid-stream.
        /// A request starting at or past `after` gets its headers and nothing else.
        case stallingFile(Data, contentType: String, after: Int)
        /// Like `stallingFile` but without byte ranges (every request gets the file from its start, no
        /// `Accept-Ranges`), as a live or simple server answers: FFmpeg cannot seek, so opening reads
        /// only the file's start, never its end.
        case stallingStream(Data, contentType: String, after: Int)
        /// `route` for a request with these Basic credentials; anything else gets 401 and a
        /// `WWW-Authenticate: Basic` challenge, as a password-protected server answers.
        case basicAuth(user: String, password: String, route: Route)
        /// Answers like `.file` (byte ranges honoured) but sends the body at most `bytesPerSecond`, in
        /// slices a tenth of a second apart: a slow link (bad Wi-Fi, a saturated uplink).
        case throttledFile(Data, contentType: String, bytesPerSecond: Int)
        /// Like `throttledFile` but without byte ranges (every request gets the file from its start,
        /// no `Accept-Ranges`): FFmpeg cannot seek, so opening reads only the file's start.
        case throttledStream(Data, contentType: String, bytesPerSecond: Int)
        /// Answers like `.file` but closes the connection once the bytes before offset `after` are
        /// sent, and refuses any later request for a range starting at or past `after` (416): a server
        /// that dies mid-download, or a file cut short on the server while it is fetched.
        case closingFile(Data, contentType: String, after: Int)
        /// Answers like `.file` but closes a response that started before offset `after` once the
        /// bytes before `after` are sent; a request starting at or past `after` is answered in full:
        /// a connection that drops mid-download while the server stays up, so a reconnect resumes.
        case droppingFile(Data, contentType: String, after: Int)
        /// Answers like `.file` but closes every response once `every` bytes of it are sent: a link
        /// that drops every few minutes while the server stays up, each reconnect resuming and
        /// getting a little further.
        case choppedFile(Data, contentType: String, every: Int)
        /// 200 with no `Content-Length` and a body that does not end (64 KB chunks as fast as the
        /// client reads, until it closes, the server stops, or 1 GiB): a broken or hostile server.
        case endlessBody(contentType: String)
        /// Answers like `.file` (byte ranges honoured) with an `ETag` and a `Last-Modified`: 304 to an
        /// `If-None-Match` naming the ETag or an `If-Modified-Since` equal to the date, and the whole
        /// file (200) to a range whose `If-Range` names another ETag. `setRoute` with a new ETag is a
        /// file changed on the server.
        case taggedFile(Data, contentType: String, etag: String, lastModified: String)
        /// The whole file with a `Content-Length` of `announced` instead of its size, then the
        /// connection closes: a body cut short (announced more) or longer than said (announced fewer).
        /// nil: no `Content-Length` at all, the body ends when the connection does.
        case misannouncedFile(Data, contentType: String, announced: Int?)
        /// Announces the whole file, sends the bytes before offset `after`, then resets the connection
        /// (RST, not FIN): a middlebox or a crashed server killing the transfer.
        case resettingFile(Data, contentType: String, after: Int)
        /// `throttledFile` with an `ETag`, honouring `If-Range` (another ETag: the whole file): a
        /// slow download that a client killed mid-way can resume against.
        case throttledTaggedFile(Data, contentType: String, etag: String, bytesPerSecond: Int)
    }

    /// Why the server could not start, or a port could not be found.
    public struct SetupError: Error, CustomStringConvertible {
        public let description: String
        init(_ description: String) { self.description = description }
    }

    public var port: UInt16 { listener.port }
    private let listener: LoopbackListener
    private let state: Mutex<State>

    private struct State {
        var routes: [String: Route]
        var requestedPaths: [String] = []
        var requests: [RecordedRequest] = []
    }

    /// On `port` when given (a server that comes up where a player already looks), else on one the
    /// kernel picks.
    public init(routes: [String: Route] = [:], port: UInt16 = 0) throws {
        listener = try LoopbackListener(port: port)
        self.state = Mutex(State(routes: routes))
        listener.start(name: "loopback-http") { [self] in serve($0) }
    }

    /// A listening socket on 127.0.0.1:`port` (0: one the kernel picks) and the port it got:
    /// shared with the other loopback servers of the tests.
    static func listeningSocket(on port: UInt16) throws -> (socket: Int32, port: UInt16) {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard listener >= 0 else { throw SetupError("socket: \(String(cString: strerror(errno)))") }
        var reuse: Int32 = 1
        setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian  // 0: the kernel picks a free port
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(listener, 16) == 0 else {
            let reason = String(cString: strerror(errno))
            close(listener)
            throw SetupError("bind/listen on 127.0.0.1: \(reason)")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        guard named == 0 else {
            close(listener)
            throw SetupError("getsockname: \(String(cString: strerror(errno)))")
        }
        return (listener, UInt16(bigEndian: address.sin_port))
    }

    public var baseURL: String { "http://127.0.0.1:\(port)" }

    public func url(_ path: String) -> String { baseURL + path }

    public func setRoute(_ path: String, _ route: Route) {
        state.withLock { $0.routes[path] = route }
    }

    /// Every request path so far, in arrival order.
    public var requestedPaths: [String] { state.withLock { $0.requestedPaths } }

    /// Every request so far, in order, with its headers by lower-cased name.
    public var requests: [RecordedRequest] { state.withLock { $0.requests } }

    /// A request as the server saw it: what a test checks conditional and range headers in.
    public struct RecordedRequest: Sendable {
        public let path: String
        public let headers: [String: String]
    }

    /// Closes the listener and every open connection (which ends stalled ones).
    public func stop() {
        listener.stop()
    }

    private func serve(_ connection: Int32) {
        guard let request = readRequest(connection) else { return }
        let route = state.withLock { state -> Route? in
            state.requestedPaths.append(request.path)
            state.requests.append(RecordedRequest(path: request.path, headers: request.headers))
            return state.routes[request.path]
        }
        respond(to: request, with: route, on: connection)
    }

    private func respond(to request: Request, with route: Route?, on connection: Int32) {
        switch route {
        case .file(let body, let contentType, let honoursRanges)?:
            sendFile(body, contentType: contentType, range: honoursRanges ? request.range : nil,
                     advertisesRanges: honoursRanges, on: connection)
        case .status(let code)?:
            send("HTTP/1.1 \(code) \(Self.reason(code))\r\nContent-Length: 0\r\nConnection: close\r\n\r\n", on: connection)
        case .redirect(let location)?:
            send("HTTP/1.1 302 Found\r\nLocation: \(location)\r\nContent-Length: 0\r\nConnection: close\r\n\r\n", on: connection)
        case .stall?:
            // Hold the connection until the client gives up (read returns 0) or the server stops.
            var byte: UInt8 = 0
            while recv(connection, &byte, 1, 0) > 0 {}
        case .stallingFile(let body, let contentType, let after)?:
            sendStalling(body, contentType: contentType, after: after, range: request.range, on: connection)
        case .stallingStream(let body, let contentType, let after)?:
            sendStalling(body, contentType: contentType, after: after, range: nil, advertisesRanges: false, on: connection)
        case .basicAuth(let user, let password, let inner)?:
            guard request.authorization == "Basic " + Data("\(user):\(password)".utf8).base64EncodedString() else {
                send("HTTP/1.1 401 Unauthorized\r\nWWW-Authenticate: Basic realm=\"marquee-test\"\r\nContent-Length: 0\r\n"
                     + "Connection: close\r\n\r\n", on: connection)
                return
            }
            respond(to: request, with: inner, on: connection)
        case .throttledFile(let body, let contentType, let bytesPerSecond)?:
            sendThrottled(body, contentType: contentType, bytesPerSecond: bytesPerSecond, range: request.range, on: connection)
        case .throttledStream(let body, let contentType, let bytesPerSecond)?:
            sendThrottled(body, contentType: contentType, bytesPerSecond: bytesPerSecond, range: nil, advertisesRanges: false,
                          on: connection)
        case .closingFile(let body, let contentType, let after)?:
            sendClosing(body, contentType: contentType, after: after, range: request.range, on: connection)
        case .droppingFile(let body, let contentType, let after)?:
            guard (request.range?.start ?? 0) < after else {
                sendFile(body, contentType: contentType, range: request.range, advertisesRanges: true, on: connection)
                return
            }
            sendClosing(body, contentType: contentType, after: after, range: request.range, on: connection)
        case .endlessBody(let contentType)?:
            guard send("HTTP/1.1 200 OK\r\nContent-Type: \(contentType)\r\nConnection: close\r\n\r\n", on: connection) else { return }
            let chunk = Data(repeating: 0x47, count: 65_536)
            // Bounded all the same (1 GiB): a test server stops by itself.
            for _ in 0..<16_384 where send(chunk, on: connection) {}
        case .choppedFile(let body, let contentType, let every)?:
            let start = request.range?.start ?? 0
            sendClosing(body, contentType: contentType, after: min(body.count, start + every), range: request.range, on: connection)
        case .throttledTaggedFile(let body, let contentType, let etag, let bytesPerSecond)?:
            let unchanged = request.headers["if-range"].map { $0 == etag } ?? true
            sendThrottled(body, contentType: contentType, bytesPerSecond: bytesPerSecond, range: unchanged ? request.range : nil,
                          extraHeaders: "ETag: \(etag)\r\n", on: connection)
        case .taggedFile(let body, let contentType, let etag, let lastModified)?:
            sendTagged(body, contentType: contentType, etag: etag, lastModified: lastModified,
                       headers: request.headers, range: request.range, on: connection)
        case .misannouncedFile(let body, let contentType, let announced)?:
            let length = announced.map { "Content-Length: \($0)\r\n" } ?? ""
            send("HTTP/1.1 200 OK\r\nContent-Type: \(contentType)\r\n\(length)Connection: close\r\n\r\n", on: connection)
            send(body, on: connection)
        case .resettingFile(let body, let contentType, let after)?:
            sendResetting(body, contentType: contentType, after: after, on: connection)
        case nil:
            send("HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n", on: connection)
        }
    }

    private struct Request {
        var path: String
        /// `bytes=START-` or `bytes=START-END`, inclusive.
        var range: (start: Int, end: Int?)?
        /// The `Authorization` header's value, when there is one.
        var authorization: String?
        /// Every header, by lowercased name (the last one wins).
        var headers: [String: String] = [:]
    }

    private func readRequest(_ connection: Int32) -> Request? {
        var received = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 4096)
        while !received.containsHeaderEnd, received.count < 65_536 {
            let count = recv(connection, &chunk, chunk.count, 0)
            guard count > 0 else { return nil }
            received.append(contentsOf: chunk[0..<count])
        }
        let text = String(decoding: received, as: UTF8.self)
        let lines = text.components(separatedBy: "\r\n")
        let requestLine = lines.first?.split(separator: " ") ?? []
        guard requestLine.count >= 2 else { return nil }
        var request = Request(path: String(requestLine[1]))
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            request.headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        for line in lines.dropFirst() where line.lowercased().hasPrefix("authorization:") {
            request.authorization = line.dropFirst("authorization:".count).trimmingCharacters(in: .whitespaces)
        }
        for line in lines.dropFirst() where line.lowercased().hasPrefix("range:") {
            let spec = line.dropFirst("range:".count).trimmingCharacters(in: .whitespaces)
            guard spec.hasPrefix("bytes=") else { continue }
            let bounds = spec.dropFirst("bytes=".count).split(separator: "-", omittingEmptySubsequences: false)
            if bounds.count == 2, let start = Int(bounds[0]) {
                request.range = (start, Int(bounds[1]))
            }
        }
        return request
    }

    private func sendFile(_ body: Data, contentType: String, range: (start: Int, end: Int?)?, advertisesRanges: Bool,
                          on connection: Int32) {
        var header: String
        var slice = body
        if let range {
            guard range.start < body.count else {
                send("HTTP/1.1 416 Range Not Satisfiable\r\nContent-Range: bytes */\(body.count)\r\nContent-Length: 0\r\nConnection: close\r\n\r\n", on: connection)
                return
            }
            let end = min(range.end ?? body.count - 1, body.count - 1)
            slice = body.subdata(in: range.start..<(end + 1))
            header = "HTTP/1.1 206 Partial Content\r\nContent-Range: bytes \(range.start)-\(end)/\(body.count)\r\n"
        } else {
            header = "HTTP/1.1 200 OK\r\n"
        }
        header += "Content-Type: \(contentType)\r\nContent-Length: \(slice.count)\r\n"
        header += advertisesRanges ? "Accept-Ranges: bytes\r\nConnection: close\r\n\r\n" : "Connection: close\r\n\r\n"
        send(header, on: connection)
        send(slice, on: connection)
    }

    @discardableResult
    fileprivate func send(_ text: String, on connection: Int32) -> Bool {
        send(Data(text.utf8), on: connection)
    }

    /// Writes everything unless the client hangs up first (FFmpeg closes early when it has enough).
    @discardableResult
    fileprivate func send(_ data: Data, on connection: Int32) -> Bool {
        data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let sent = Glibc.send(connection, buffer.baseAddress! + offset, buffer.count - offset, Int32(MSG_NOSIGNAL))
                guard sent > 0 else { return false }
                offset += sent
            }
            return true
        }
    }

    private static func reason(_ code: Int) -> String {
        switch code {
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 410: "Gone"
        case 500: "Internal Server Error"
        case 503: "Service Unavailable"
        default: "Status"
        }
    }

    /// A port nothing listens on: bound, then closed, so connecting is refused.
    public static func unusedPort() throws -> UInt16 {
        let server = try LoopbackHTTPServer()
        let port = server.port
        server.stop()
        // The accept thread closes the listener; wait until a connect is refused.
        for _ in 0..<100 {
            if !canConnect(to: port) { return port }
            usleep(10_000)
        }
        throw SetupError("port \(port) still accepts connections after the server stopped")
    }

    private static func canConnect(to port: UInt16) -> Bool {
        LoopbackPort.acceptsConnections(port)
    }
}

private extension [UInt8] {
    var containsHeaderEnd: Bool {
        guard count >= 4 else { return false }
        for index in 0...(count - 4) where self[index] == 13 && self[index + 1] == 10 && self[index + 2] == 13 && self[index + 3] == 10 {
            return true
        }
        return false
    }
}

// MARK: Stalling mid-stream

extension LoopbackHTTPServer {
    /// The headers of the whole requested range (so the client expects every byte of it), the part of
    /// it before `after`, then silence until the client hangs up or the server stops.
    fileprivate func sendStalling(_ body: Data, contentType: String, after: Int, range: (start: Int, end: Int?)?,
                                  advertisesRanges: Bool = true, on connection: Int32) {
        guard let (header, slice) = Self.rangeHeader(for: body, contentType: contentType, range: range,
                                                     advertisesRanges: advertisesRanges) else {
            refuseRange(of: body, on: connection)
            return
        }
        var sent = Data(header.utf8)
        if slice.lowerBound < after {
            sent += body.subdata(in: slice.lowerBound..<min(after, slice.upperBound))
        }
        send(sent, on: connection)
        // Hold the connection open, saying nothing, until the client gives up or the server stops.
        var byte: UInt8 = 0
        while recv(connection, &byte, 1, 0) > 0 {}
    }
}

// MARK: Slow and dying servers

extension LoopbackHTTPServer {
    /// The headers for the requested range (or the whole body) and the slice of the body they cover.
    fileprivate static func rangeHeader(for body: Data, contentType: String, range: (start: Int, end: Int?)?,
                                        advertisesRanges: Bool = true) -> (header: String, slice: Range<Int>)? {
        let start = range?.start ?? 0
        guard start < body.count || body.isEmpty else { return nil }
        let end = min(range?.end ?? body.count - 1, body.count - 1)
        var header = range == nil
            ? "HTTP/1.1 200 OK\r\n"
            : "HTTP/1.1 206 Partial Content\r\nContent-Range: bytes \(start)-\(end)/\(body.count)\r\n"
        header += "Content-Type: \(contentType)\r\nContent-Length: \(max(0, end + 1 - start))\r\n"
        header += (advertisesRanges ? "Accept-Ranges: bytes\r\n" : "") + "Connection: close\r\n\r\n"
        return (header, start..<max(start, end + 1))
    }

    fileprivate func refuseRange(of body: Data, on connection: Int32) {
        send("HTTP/1.1 416 Range Not Satisfiable\r\nContent-Range: bytes */\(body.count)\r\nContent-Length: 0\r\n"
             + "Connection: close\r\n\r\n", on: connection)
    }

    /// A tenth of the rate every tenth of a second, until the range is sent or the client hangs up.
    fileprivate func sendThrottled(_ body: Data, contentType: String, bytesPerSecond: Int, range: (start: Int, end: Int?)?,
                                   advertisesRanges: Bool = true, extraHeaders: String = "", on connection: Int32) {
        guard let (header, slice) = Self.rangeHeader(for: body, contentType: contentType, range: range,
                                                     advertisesRanges: advertisesRanges) else {
            refuseRange(of: body, on: connection)
            return
        }
        guard send(header.replacingOccurrences(of: "Connection: close", with: extraHeaders + "Connection: close"), on: connection) else { return }
        let step = max(1, bytesPerSecond / 10)
        var offset = slice.lowerBound
        while offset < slice.upperBound {
            let next = min(offset + step, slice.upperBound)
            guard send(body.subdata(in: offset..<next), on: connection) else { return }
            offset = next
            if offset < slice.upperBound { usleep(100_000) }
        }
    }

    /// The headers of the whole requested range, its bytes before `after`, then the connection closes.
    fileprivate func sendClosing(_ body: Data, contentType: String, after: Int, range: (start: Int, end: Int?)?,
                                 on connection: Int32) {
        guard (range?.start ?? 0) < after,
              let (header, slice) = Self.rangeHeader(for: body, contentType: contentType, range: range) else {
            refuseRange(of: body, on: connection)
            return
        }
        guard send(header, on: connection) else { return }
        send(body.subdata(in: slice.lowerBound..<min(after, slice.upperBound)), on: connection)
    }
}

// MARK: Validators, lying lengths and resets

extension LoopbackHTTPServer {
    /// 304 when a validator matches; otherwise the file, ranged unless `If-Range` names another ETag.
    fileprivate func sendTagged(_ body: Data, contentType: String, etag: String, lastModified: String,
                                headers: [String: String], range: (start: Int, end: Int?)?, on connection: Int32) {
        let validators = "ETag: \(etag)\r\nLast-Modified: \(lastModified)\r\n"
        // RFC 9110 13.2.2: If-None-Match, when sent, decides alone; If-Modified-Since only without it.
        let notModified = headers["if-none-match"].map { $0 == etag } ?? (headers["if-modified-since"] == lastModified)
        if notModified {
            send("HTTP/1.1 304 Not Modified\r\n\(validators)Connection: close\r\n\r\n", on: connection)
            return
        }
        let fileUnchanged = headers["if-range"].map { $0 == etag } ?? true
        guard let (header, slice) = Self.rangeHeader(for: body, contentType: contentType, range: fileUnchanged ? range : nil) else {
            refuseRange(of: body, on: connection)
            return
        }
        send(header.replacingOccurrences(of: "Connection: close", with: validators + "Connection: close"), on: connection)
        send(body.subdata(in: slice), on: connection)
    }

    /// The bytes before `after`, a moment for them to arrive, then close with SO_LINGER 0: an RST.
    fileprivate func sendResetting(_ body: Data, contentType: String, after: Int, on connection: Int32) {
        guard let (header, _) = Self.rangeHeader(for: body, contentType: contentType, range: nil),
              send(header, on: connection), send(body.prefix(after), on: connection) else { return }
        usleep(100_000)
        var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
        setsockopt(connection, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
    }
}
