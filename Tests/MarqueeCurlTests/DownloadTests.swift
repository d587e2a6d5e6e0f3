import Foundation
import MarqueeCore
import MarqueeCurl
import MarqueeTestSupport
import Testing

/// `download` into a file: whole, resumed (206), restarted (200), refused, with progress and cancel.
@Suite struct DownloadTests {
    static let etag = "\"clip-1\""
    let clip = CurlFixture.payload(64_000)
    let fixture: CurlFixture
    var server: LoopbackHTTPServer { fixture.server }

    init() throws {
        fixture = try CurlFixture(routes: [
            "/clip.mp4": .taggedFile(clip, contentType: "video/mp4", etag: Self.etag, lastModified: "Mon, 02 Nov 2026 10:00:00 GMT"),
        ])
    }

    @Test func aNewFileGetsTheWholeBody() throws {
        defer { fixture.stop() }
        let head = try fixture.download(fixture.request("/clip.mp4"), to: "clip.mp4")
        #expect(head.status == 200)
        #expect(head.resumedFrom == 0)
        #expect(head.etag == Self.etag)
        #expect(fixture.contents("clip.mp4") == clip)
    }

    /// A body with no end (no Content-Length) stops before the file passes `maxFileBytes`; one
    /// announced longer than that is refused before its first byte.
    @Test func aFileNeverGrowsPastItsBound() throws {
        let endless = try CurlFixture(routes: ["/endless.mp4": .endlessBody(contentType: "video/mp4"),
                                               "/clip.mp4": .file(clip, contentType: "video/mp4")])
        defer {
            endless.stop()
            fixture.stop()
        }
        var request = endless.request("/endless.mp4")
        request.maxFileBytes = 300_000
        #expect(throws: HTTPTransferError.tooLarge(300_000)) { try endless.download(request, to: "endless.mp4") }
        #expect(endless.contents("endless.mp4").count <= 300_000)
        var announced = endless.request("/clip.mp4")
        announced.maxFileBytes = 10_000
        #expect(throws: HTTPTransferError.tooLarge(10_000)) { try endless.download(announced, to: "clip.mp4") }
        #expect(endless.contents("clip.mp4").isEmpty)
    }

    /// A link planted where the body goes (symbolic or hard) is refused, its target untouched.
    @Test func aPlantedLinkIsNeverWrittenThrough() throws {
        defer { fixture.stop() }
        // A victim each: a hard link to the one a symlink points at would make it refused for its links.
        for (victim, kind) in [("soft-victim.txt", "soft"), ("hard-victim.txt", "hard")] {
            try "keep me\n".write(toFile: fixture.path(victim), atomically: true, encoding: .utf8)
            #expect((kind == "soft" ? symlink(fixture.path(victim), fixture.path("soft.mp4")) : link(fixture.path(victim), fixture.path("hard.mp4"))) == 0)
        }
        for name in ["soft.mp4", "hard.mp4"] {
            do {
                _ = try fixture.download(fixture.request("/clip.mp4"), to: name)
                Issue.record("\(name) was written through")
            } catch {
                #expect("\(error)".contains("refused"), "\(name): \(error)")
            }
        }
        for victim in ["soft-victim.txt", "hard-victim.txt"] {
            #expect(try String(contentsOfFile: fixture.path(victim), encoding: .utf8) == "keep me\n", "\(victim)")
        }
    }

    @Test func aResumeIsA206AppendedAfterThePartialFile() throws {
        defer { fixture.stop() }
        var request = try fixture.resuming("/clip.mp4", into: "clip.mp4", from: 25_000, of: clip)
        request.ifRange = Self.etag
        let head = try fixture.download(request, to: "clip.mp4")
        #expect(head.status == 206)
        #expect(head.resumedFrom == 25_000)
        #expect(head.contentLength == Int64(clip.count - 25_000))
        #expect(fixture.contents("clip.mp4") == clip)
    }

    @Test func aServerIgnoringRangesAnswers200AndTheFileStartsOver() throws {
        defer { fixture.stop() }
        server.setRoute("/simple.mp4", .file(clip, contentType: "video/mp4", honoursRanges: false))
        // Bytes that are not the clip's: a 200 must not be appended after them.
        try Data(repeating: 0xEE, count: 10_000).write(to: URL(fileURLWithPath: fixture.path("simple.mp4")))
        var request = fixture.request("/simple.mp4")
        request.resumeFrom = 10_000
        let head = try fixture.download(request, to: "simple.mp4")
        #expect(head.status == 200)
        #expect(head.resumedFrom == 0)
        #expect(fixture.contents("simple.mp4") == clip)
    }

    @Test func anIfRangeWithAChangedETagBringsTheWholeNewFile() throws {
        defer { fixture.stop() }
        let newClip = CurlFixture.payload(50_000, seed: 0x5A)
        var request = try fixture.resuming("/clip.mp4", into: "clip.mp4", from: 30_000, of: clip)
        server.setRoute("/clip.mp4", .taggedFile(newClip, contentType: "video/mp4", etag: "\"clip-2\"", lastModified: "Tue, 03 Nov 2026 10:00:00 GMT"))
        request.ifRange = Self.etag
        let head = try fixture.download(request, to: "clip.mp4")
        #expect(head.status == 200)
        #expect(head.resumedFrom == 0)
        #expect(head.etag == "\"clip-2\"")
        #expect(fixture.contents("clip.mp4") == newClip)
    }

    @Test func aNotModifiedDownloadLeavesTheFileAlone() throws {
        defer { fixture.stop() }
        try clip.write(to: URL(fileURLWithPath: fixture.path("clip.mp4")))
        var request = fixture.request("/clip.mp4")
        request.ifNoneMatch = Self.etag
        #expect(try fixture.download(request, to: "clip.mp4").isNotModified)
        #expect(fixture.contents("clip.mp4") == clip)
    }

    @Test func anErrorStatusKeepsThePartialFileAsItWas() throws {
        defer { fixture.stop() }
        let request = try fixture.resuming("/gone.mp4", into: "gone.mp4", from: 12_000, of: clip)
        #expect(CurlFixture.failure { () throws(HTTPTransferError) in try fixture.download(request, to: "gone.mp4") } == .status(404))
        #expect(fixture.contents("gone.mp4") == clip.prefix(12_000))
    }

    @Test func aRedirectToFileWritesNothing() {
        defer { fixture.stop() }
        server.setRoute("/evil.mp4", .redirect(to: "file:///etc/passwd"))
        let error = CurlFixture.failure { () throws(HTTPTransferError) in
            try fixture.download(fixture.request("/evil.mp4"), to: "evil.mp4")
        }
        #expect(error == .refused("redirect to file: refused; only http and https are followed"))
        #expect(fixture.contents("evil.mp4").isEmpty)
    }

    @Test func progressComesWithGrowingCountsAtMostEvery100Milliseconds() throws {
        defer { fixture.stop() }
        let slow = CurlFixture.payload(30_000)
        server.setRoute("/slow.mp4", .throttledFile(slow, contentType: "video/mp4", bytesPerSecond: 30_000))
        var reports: [(bytes: Int64, total: Int64?, at: ContinuousClock.Instant)] = []
        _ = try fixture.client.download(fixture.request("/slow.mp4"), appendingTo: fixture.path("slow.mp4")) { bytes, total in
            reports.append((bytes, total, .now))
            return true
        }
        #expect(fixture.contents("slow.mp4") == slow)
        #expect(reports.count >= 3)
        #expect(zip(reports, reports.dropFirst()).allSatisfy { $0.bytes <= $1.bytes })
        #expect(zip(reports, reports.dropFirst()).allSatisfy { $1.at - $0.at >= .milliseconds(99) })
        #expect(reports.contains { $0.bytes > 0 && $0.bytes < Int64(slow.count) })
        #expect(reports.last.map { $0.total == Int64(slow.count) } == true)
    }

    @Test func returningFalseFromProgressCancels() throws {
        defer { fixture.stop() }
        let slow = CurlFixture.payload(100_000)
        server.setRoute("/slow.mp4", .throttledFile(slow, contentType: "video/mp4", bytesPerSecond: 20_000))
        let (error, seconds) = CurlFixture.timed {
            CurlFixture.failure { () throws(HTTPTransferError) in
                try fixture.client.download(fixture.request("/slow.mp4"), appendingTo: fixture.path("slow.mp4")) { bytes, _ in
                    bytes < 4_000
                }
            }
        }
        #expect(error == .cancelled)
        #expect(seconds < 3)
        #expect(fixture.contents("slow.mp4").count < slow.count)
    }
}
