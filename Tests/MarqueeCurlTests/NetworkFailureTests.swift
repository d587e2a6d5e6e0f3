import Foundation
import MarqueeCore
import MarqueeCurl
import MarqueeTestSupport
import Testing

/// Servers that die, lie, go silent or crawl, and the client's own rate limit.
@Suite struct NetworkFailureTests {
    let fixture: CurlFixture
    var server: LoopbackHTTPServer { fixture.server }

    init() throws {
        fixture = try CurlFixture()
    }

    private func download(_ path: String, _ configure: (inout HTTPRequest) -> Void = { _ in }) -> HTTPTransferError? {
        var request = fixture.request(path)
        configure(&request)
        return CurlFixture.failure { () throws(HTTPTransferError) in try fixture.download(request, to: "out") }
    }

    @Test func aResetMidBodyIsANetworkOrTruncatedError() {
        defer { fixture.stop() }
        server.setRoute("/reset", .resettingFile(CurlFixture.payload(200_000), contentType: "video/mp4", after: 20_000))
        let error = download("/reset")
        let cut: Bool = if case .truncated = error { true } else { false }
        #expect(error?.isNetwork == true || cut, "\(String(describing: error))")
        #expect(error?.isTransient == true)
        if case .network(let reason) = error {
            #expect(reason.lowercased().contains("reset") && !reason.contains("\n"), "\(reason)")
        }
    }

    @Test func aBodyShorterThanAnnouncedIsTruncated() {
        defer { fixture.stop() }
        server.setRoute("/short", .misannouncedFile(CurlFixture.payload(8_000), contentType: "video/mp4", announced: 10_000))
        #expect(download("/short") == .truncated(received: 8_000, expected: 10_000))
    }

    /// libcurl reads no further than the announced length: the rest never reaches the file (the
    /// caller's digest then tells the file is not the one expected).
    @Test func aBodyLongerThanAnnouncedStopsAtTheAnnouncedLength() throws {
        defer { fixture.stop() }
        let data = CurlFixture.payload(10_000)
        server.setRoute("/long", .misannouncedFile(data, contentType: "video/mp4", announced: 6_000))
        let head = try fixture.download(fixture.request("/long"), to: "out")
        #expect(head.contentLength == 6_000)
        #expect(fixture.contents("out") == data.prefix(6_000))
    }

    @Test func aServerGoneSilentIsAbandonedAfterTheStallTimeout() {
        defer { fixture.stop() }
        server.setRoute("/silent", .stallingFile(CurlFixture.payload(50_000), contentType: "video/mp4", after: 10_000))
        let (error, seconds) = CurlFixture.timed { download("/silent") { $0.stallTimeout = .seconds(1) } }
        #expect(error?.isNetwork == true, "\(String(describing: error))")
        #expect(seconds < 5)
        #expect(fixture.contents("out").count == 10_000)
    }

    @Test func aServerThatNeverAnswersIsAbandonedAfterTheStallTimeout() {
        defer { fixture.stop() }
        server.setRoute("/hang", .stall)
        let (error, seconds) = CurlFixture.timed { download("/hang") { $0.stallTimeout = .seconds(1) } }
        #expect(error == .network("no data for 1 s: the server went silent"))
        #expect(seconds < 5)
    }

    /// /dev/full answers every write with ENOSPC, as a full disk does.
    @Test func aFullDiskIsAFileErrorNamingENOSPC() {
        defer { fixture.stop() }
        server.setRoute("/clip", .file(CurlFixture.payload(20_000), contentType: "video/mp4"))
        let error = CurlFixture.failure { () throws(HTTPTransferError) in
            try fixture.client.download(fixture.request("/clip"), appendingTo: "/dev/full") { _, _ in true }
        }
        #expect(error == .file("cannot write /dev/full: no space left on device (ENOSPC)"))
        #expect(error?.isTransient == false)
    }

    @Test func aFolderThatIsNotThereIsAFileErrorBeforeConnecting() {
        defer { fixture.stop() }
        let path = fixture.path("missing/clip.mp4")
        let error = CurlFixture.failure { () throws(HTTPTransferError) in
            try fixture.client.download(fixture.request("/clip"), appendingTo: path) { _, _ in true }
        }
        #expect(error == .file("cannot open \(path): no such file or directory"))
        #expect(server.requestedPaths.isEmpty)
    }

    @Test func aRefusedConnectionIsANetworkError() throws {
        defer { fixture.stop() }
        let port = try LoopbackHTTPServer.unusedPort()
        let error = CurlFixture.failure { () throws(HTTPTransferError) in
            try fixture.client.fetch(CurlFixture.request("http://127.0.0.1:\(port)/config.json"), maxBytes: 1_000)
        }
        guard case .network(let reason) = error else {
            Issue.record("expected a network error, got \(String(describing: error))")
            return
        }
        #expect(reason.lowercased().contains("connect") && !reason.contains("\n"), "\(reason)")
    }

    /// A 10 KB/s server and a 20 KB/s limit: the server's pace, not slower.
    @Test func aLimitAboveTheServersPaceDoesNotSlowItFurther() throws {
        defer { fixture.stop() }
        let data = CurlFixture.payload(20_000)
        server.setRoute("/slow", .throttledFile(data, contentType: "video/mp4", bytesPerSecond: 10_000))
        var request = fixture.request("/slow")
        request.maxBytesPerSecond = 20_000
        let (_, seconds) = try CurlFixture.timed { try fixture.download(request, to: "out") }
        #expect(fixture.contents("out") == data)
        #expect(seconds > 1.5 && seconds < 6, "took \(seconds) s")
    }

    /// 100 KB from a fast server at 50 KB/s at most: about 2 s, not a blink.
    @Test func maxBytesPerSecondLimitsTheRate() throws {
        defer { fixture.stop() }
        let data = CurlFixture.payload(100_000)
        server.setRoute("/fast", .file(data, contentType: "video/mp4"))
        var request = fixture.request("/fast")
        request.maxBytesPerSecond = 50_000
        let (_, seconds) = try CurlFixture.timed { try fixture.download(request, to: "out") }
        #expect(fixture.contents("out") == data)
        #expect(seconds >= 1.5 && seconds < 8, "took \(seconds) s")
    }
}
