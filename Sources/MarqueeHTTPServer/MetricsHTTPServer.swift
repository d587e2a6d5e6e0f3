import CMicroHTTPD
import Foundation
import Glibc

/// `GET /metrics` over HTTP, served by libmicrohttpd on one thread of the library's own (its
/// internal polling thread, epoll): a scrape never runs on the present, decode or audio threads,
/// nor on the control-plane loop. Anything but `/metrics` is 404, any method but GET or HEAD 405.
/// The daemon is this object's one C handle: made in `init`, stopped in `stop` (or `deinit`).
///
/// The socket is bound here, before libmicrohttpd takes it, so a bad or busy address is the
/// kernel's own word for it (`Address already in use`), not a daemon that failed to start.
public final class MetricsHTTPServer: @unchecked Sendable {
    /// The address bound, `127.0.0.1:9150` or `[::1]:9150`, with the port the kernel gave for port 0.
    public let address: String
    public let port: Int
    private var daemon: OpaquePointer?
    private let page: Unmanaged<PageSource>
    private let lock = NSLock()

    /// More at once than any set of Prometheus servers scrapes with; a client that opens more waits.
    static let connectionLimit: UInt32 = 16
    /// A connection quiet this long is closed, so a client that never finishes holds nothing.
    static let idleTimeoutSeconds: UInt32 = 10

    /// Listens on `host` (a name or a numeric IPv4 or IPv6 address) and `port`; `page` makes the
    /// body of each scrape on the server's thread.
    public init(host: String, port: Int, page: @escaping @Sendable () -> String) throws(HTTPServerError) {
        let listening = try ListeningSocket(host: host, port: port)
        let source = Unmanaged.passRetained(PageSource(page))
        guard let daemon = marquee_mhd_start(listening.descriptor, answer, source.toOpaque(),
                                             Self.connectionLimit, Self.idleTimeoutSeconds) else {
            close(listening.descriptor)
            source.release()
            throw HTTPServerError(address: listening.address, cause: "libmicrohttpd could not start its server thread")
        }
        self.daemon = daemon
        self.page = source
        address = listening.address
        self.port = listening.port
    }

    deinit { stop() }

    /// Closes the socket and ends the server's thread, after the scrape in progress (if any).
    public func stop() {
        let running: OpaquePointer? = lock.withLock {
            defer { daemon = nil }
            return daemon
        }
        guard let running else { return }
        MHD_stop_daemon(running)
        page.release()
    }
}

/// The page's maker, as the C callback's context.
private final class PageSource {
    let make: @Sendable () -> String
    init(_ make: @escaping @Sendable () -> String) { self.make = make }
}

/// libmicrohttpd's request callback: it runs on the daemon's thread, once per request (a GET has
/// no body, and a body sent with another method is refused before it is read).
private func answer(_ context: UnsafeMutableRawPointer?, _ connection: OpaquePointer?, _ url: UnsafePointer<CChar>?,
                    _ method: UnsafePointer<CChar>?, _ version: UnsafePointer<CChar>?, _ uploadData: UnsafePointer<CChar>?,
                    _ uploadSize: UnsafeMutablePointer<Int>?, _ requestState: UnsafeMutablePointer<UnsafeMutableRawPointer?>?) -> MHD_Result {
    guard let context, let connection else { return .NO }
    let method = method.map { String(cString: $0) } ?? ""
    let path = url.map { String(cString: $0) } ?? ""
    let reply: (status: UInt32, body: String, headers: [(String, String)])
    if method != "GET" && method != "HEAD" {
        reply = (UInt32(MHD_HTTP_METHOD_NOT_ALLOWED), "only GET /metrics is served\n", [("Allow", "GET, HEAD")])
    } else if path != "/metrics" {
        reply = (UInt32(MHD_HTTP_NOT_FOUND), "not found: only /metrics is served\n", [])
    } else {
        let page = Unmanaged<PageSource>.fromOpaque(context).takeUnretainedValue().make()
        // The text exposition format's own content type (Prometheus reads it as version 0.0.4).
        reply = (UInt32(MHD_HTTP_OK), page, [("Content-Type", "text/plain; version=0.0.4; charset=utf-8")])
    }
    var body = Array(reply.body.utf8)
    guard let response = body.withUnsafeMutableBytes({ bytes in
        MHD_create_response_from_buffer(bytes.count, bytes.baseAddress, .RESPMEM_MUST_COPY)
    }) else { return .NO }
    defer { MHD_destroy_response(response) }
    for (name, value) in reply.headers { _ = MHD_add_response_header(response, name, value) }
    if reply.headers.isEmpty { _ = MHD_add_response_header(response, "Content-Type", "text/plain; charset=utf-8") }
    return MHD_queue_response(connection, reply.status, response)
}
