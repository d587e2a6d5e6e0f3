import Foundation
import MarqueeCore
import MarqueeCurl
import MarqueeHTTPServer
import MarqueeMetrics
import Synchronization
import Testing

/// The libmicrohttpd server on 127.0.0.1, asked over real HTTP: libcurl through the project's own
/// client for GETs, the curl tool for what that client never sends (another method, HEAD).
@Suite(.serialized) struct MetricsHTTPServerTests {
    private func get(_ url: String) -> Result<HTTPResponse, HTTPTransferError> {
        Result { () throws(HTTPTransferError) in try CurlHTTPClient().fetch(HTTPRequest(url: URL(string: url)!), maxBytes: 1 << 20) }
    }

    /// `curl` with `arguments`; its standard output.
    private func curl(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        process.arguments = ["--silent", "--max-time", "10"] + arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    @Test func getMetricsServesThePageAndEachScrapeMakesItAnew() throws {
        let scrapes = Atomic<Int>(0)
        let metrics = PlaybackMetrics(version: "1.2.3", lateness: nil, secondsSinceLaunch: { 0.5 })
        metrics.observe(.frame(item: 0, pts: .zero, time: .zero, dropped: false), at: 0)
        let server = try MetricsHTTPServer(host: "127.0.0.1", port: 0) {
            scrapes.add(1, ordering: .relaxed)
            return metrics.exposition(ScrapeReading(uptimeSeconds: 3))
        }
        defer { server.stop() }
        #expect(server.port > 0)
        #expect(server.address == "127.0.0.1:\(server.port)")
        let response = try get("http://127.0.0.1:\(server.port)/metrics").get()
        #expect(response.head.status == 200)
        let page = String(decoding: response.body, as: UTF8.self)
        #expect(page.contains(#"marquee_frames_presented_total{screen="main"} 1"# + "\n"), "\(page)")
        #expect(page.contains(#"marquee_build_info{version="1.2.3"} 1"#), "\(page)")
        _ = try get("http://127.0.0.1:\(server.port)/metrics").get()
        #expect(scrapes.load(ordering: .relaxed) == 2)
        let headers = try curl(["--include", "http://127.0.0.1:\(server.port)/metrics"])
        #expect(headers.contains("Content-Type: text/plain; version=0.0.4; charset=utf-8"), "\(headers)")
    }

    @Test func otherPathsAre404AndOtherMethods405() throws {
        let server = try MetricsHTTPServer(host: "127.0.0.1", port: 0) { "page\n" }
        defer { server.stop() }
        #expect(throws: HTTPTransferError.status(404)) { try get("http://127.0.0.1:\(server.port)/").get() }
        #expect(throws: HTTPTransferError.status(404)) { try get("http://127.0.0.1:\(server.port)/metrics/x").get() }
        let post = try curl(["--write-out", "%{http_code}", "--output", "/dev/null", "--data", "x=1", "http://127.0.0.1:\(server.port)/metrics"])
        #expect(post == "405")
        let delete = try curl(["--include", "--request", "DELETE", "http://127.0.0.1:\(server.port)/metrics"])
        #expect(delete.hasPrefix("HTTP/1.1 405"), "\(delete)")
        #expect(delete.contains("Allow: GET, HEAD"), "\(delete)")
        let head = try curl(["--head", "--write-out", "%{http_code}", "http://127.0.0.1:\(server.port)/metrics"])
        #expect(head.hasSuffix("200"), "\(head)")
    }

    @Test func aBusyAddressIsOneLineNamingItAndTheCause() throws {
        let first = try MetricsHTTPServer(host: "127.0.0.1", port: 0) { "" }
        defer { first.stop() }
        #expect(throws: HTTPServerError(address: "127.0.0.1:\(first.port)", cause: "Address already in use")) {
            try MetricsHTTPServer(host: "127.0.0.1", port: first.port) { "" }
        }
        // Not an address of this machine.
        #expect(throws: HTTPServerError(address: "192.0.2.1:9150", cause: "Cannot assign requested address")) {
            try MetricsHTTPServer(host: "192.0.2.1", port: 9150) { "" }
        }
        let error = #expect(throws: HTTPServerError.self) { try MetricsHTTPServer(host: "no such host.invalid", port: 9150) { "" } }
        #expect(error?.description.hasPrefix("cannot listen on no such host.invalid:9150: cannot resolve 'no such host.invalid'") == true,
                "\(String(describing: error))")
    }

    @Test func anIPv6LoopbackAddressIsServedToo() throws {
        let server: MetricsHTTPServer
        do {
            server = try MetricsHTTPServer(host: "::1", port: 0) { "six\n" }
        } catch {
            // A kernel without IPv6 (a container with it turned off) has no ::1 to listen on.
            #expect(error.cause.contains("Cannot assign requested address") || error.cause.contains("Address family not supported"), "\(error)")
            return
        }
        defer { server.stop() }
        #expect(server.address == "[::1]:\(server.port)")
        let page = try curl(["http://[::1]:\(server.port)/metrics"])
        #expect(page == "six\n")
    }
}
