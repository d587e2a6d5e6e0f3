import Foundation
import MarqueeCore
@testable import MarqueeFleet
import MarqueeTestSupport
import Testing

/// Items that cannot be cached fail for good, with one line, and hold back nothing else.
@Suite struct CacheFillerFailureTests {
    @Test func aHashMismatchFailsForGoodAndNeverBecomesAMediaFile() throws {
        let body = CacheFixture.bytes(30_000, seed: 51)
        let server = try LoopbackHTTPServer(routes: ["/a.mp4": .file(body, contentType: "video/mp4")])
        defer { server.stop() }
        let fixture = CacheFixture()
        let filler = CacheFiller(cache: try fixture.cache(), transport: RecordingTransfer(),
                                 options: .init(retry: CacheFillerTests.fastRetry), log: fixture.log)
        defer { filler.stop() }
        let recorder = FillRecorder()
        let url = try #require(URL(string: server.url("/a.mp4")))
        let wrong = String(repeating: "0", count: 64)

        filler.fill([CacheWant(url: url, sha256: wrong)], handlers: recorder.handlers)

        let expected = "cache: \(url.absoluteString): sha256 mismatch: got \(CacheFixture.sha256(of: body)), expected \(wrong)"
        #expect(recorder.settled() == [url: .failed(expected)])
        #expect(fixture.mediaFiles.isEmpty)
        #expect(!fixture.partialFiles.contains { $0.hasSuffix(".part") })
        #expect(server.requestedPaths == ["/a.mp4", "/a.mp4"])  // permanentAttempts: 2
        #expect(fixture.logged.last == expected)
    }

    @Test func aServerServingOtherBytesFailsEvenWhenTheRightOnesAreHeld() throws {
        let right = CacheFixture.bytes(30_000, seed: 57)
        let sha = CacheFixture.sha256(of: right)
        let server = try LoopbackHTTPServer(routes: [
            "/good.mp4": .file(right, contentType: "video/mp4"),
            "/lying.mp4": .file(CacheFixture.bytes(30_000, seed: 58), contentType: "video/mp4"),
        ])
        defer { server.stop() }
        let fixture = CacheFixture()
        let filler = CacheFiller(cache: try fixture.cache(), transport: RecordingTransfer(),
                                 options: .init(concurrency: 1, retry: CacheFillerTests.fastRetry), log: fixture.log)
        defer { filler.stop() }
        let recorder = FillRecorder()
        let good = try #require(URL(string: server.url("/good.mp4")))
        let lying = try #require(URL(string: server.url("/lying.mp4")))

        // The good one first: its bytes, the ones the lying URL's config names, are held before
        // the lying URL is tried.
        filler.fill([CacheWant(url: good, sha256: sha), CacheWant(url: lying, sha256: sha)], handlers: recorder.handlers)

        let results = try #require(recorder.settled())
        #expect(results[good] == .cached(path: "\(fixture.directory)/media/\(sha).mp4"))
        #expect(results[lying]?.path == nil)
        #expect(fixture.mediaFiles == ["\(sha).mp4"])
    }

    @Test func notFoundFailsForGoodWithoutHoldingBackTheOthers() throws {
        let server = try LoopbackHTTPServer(routes: [
            "/b.mp4": .file(CacheFixture.bytes(20_000, seed: 52), contentType: "video/mp4"),
            "/c.jpg": .file(CacheFixture.bytes(20_000, seed: 53), contentType: "image/jpeg"),
        ])
        defer { server.stop() }
        let fixture = CacheFixture()
        let filler = CacheFiller(cache: try fixture.cache(), transport: RecordingTransfer(),
                                 options: .init(concurrency: 1, retry: RetryPolicy(base: .milliseconds(300), permanentAttempts: 2)),
                                 log: fixture.log)
        defer { filler.stop() }
        let recorder = FillRecorder()
        let port = server.port
        let missing = try #require(URL(string: "http://kiosk:s3cret@127.0.0.1:\(port)/missing.mp4"))
        let others = ["/b.mp4", "/c.jpg"].map { URL(string: server.url($0))! }

        filler.fill([CacheWant(url: missing)] + others.map { CacheWant(url: $0) }, handlers: recorder.handlers)

        let results = try #require(recorder.settled())
        #expect(results[missing] == .failed("cache: http://kiosk:***@127.0.0.1:\(port)/missing.mp4: HTTP 404"))
        #expect(others.allSatisfy { results[$0]?.path != nil })
        // The others were cached while the 404 waited for its retry, not after it.
        let order = recorder.events.items.map(\.0)
        #expect(order == others + [missing])
        #expect(!fixture.logged.joined().contains("s3cret"))
    }

    @Test func aServerErrorIsRetriedWithBackOffLoggedSparinglyThenLeftOutForThisFill() throws {
        let server = try LoopbackHTTPServer(routes: ["/busy.mp4": .status(503), "/a.mp4": .file(Data(repeating: 7, count: 500), contentType: "video/mp4")])
        defer { server.stop() }
        let fixture = CacheFixture()
        let filler = CacheFiller(cache: try fixture.cache(), transport: RecordingTransfer(),
                                 options: .init(retry: RetryPolicy(base: .milliseconds(10), cap: .milliseconds(40), jitter: 0,
                                                                   transientAttempts: 10)),
                                 log: fixture.log)
        let recorder = FillRecorder()

        filler.fill([CacheWant(url: URL(string: server.url("/busy.mp4"))!), CacheWant(url: URL(string: server.url("/a.mp4"))!)],
                    handlers: recorder.handlers)

        // Nine retries, then the item is left out and the set settles without it.
        #expect(eventually { !recorder.events.settled.isEmpty })
        filler.stop()
        #expect(server.requestedPaths.filter { $0 == "/busy.mp4" }.count == 10)
        let settled = recorder.events.settled.first ?? [:]
        #expect(settled[URL(string: server.url("/a.mp4"))!]?.path != nil)
        let failure = settled[URL(string: server.url("/busy.mp4"))!]
        #expect(failure == .failed("cache: \(server.url("/busy.mp4")): HTTP 503 (10 times in a row); left out until the config is next checked"), "\(String(describing: failure))")
        let lines = fixture.logged.filter { $0.contains("/busy.mp4: HTTP 503; retrying in") }
        // Failures 1, 2, 4 and 8 are said, none in between.
        let counts = lines.compactMap { $0.split(separator: "(failure ").last?.split(separator: " ").first.flatMap { Int($0) } }
        #expect(counts == [1, 2, 4, 8], "\(lines)")
    }

    @Test func aSizeOtherThanAnnouncedIsAFailure() throws {
        let fixture = CacheFixture()
        let url = try #require(URL(string: "http://127.0.0.1:9/short.mp4"))
        let body = CacheFixture.bytes(1_000, seed: 54)
        let transport = ScriptedTransfer(real: RecordingTransfer(), script: [
            url: [.succeed(body: body, announced: 1_200), .succeed(body: body, announced: 1_200)],
        ])
        let filler = CacheFiller(cache: try fixture.cache(), transport: transport,
                                 options: .init(retry: CacheFillerTests.fastRetry), log: fixture.log)
        defer { filler.stop() }
        let recorder = FillRecorder()

        filler.fill([CacheWant(url: url)], handlers: recorder.handlers)

        #expect(recorder.settled() == [url: .failed("cache: \(url.absoluteString): size 1000, expected 1200")])
        #expect(fixture.mediaFiles.isEmpty)
    }

    /// A body that never ends (no Content-Length, a broken or hostile server) is cut once it holds
    /// more than the whole cache may, its part dropped, in one line; the item is then left out
    /// without another request until the config changes, so each check of the config does not
    /// fill the disk again.
    @Test func aBodyThatNeverEndsIsCutAtTheCachesBoundAndNotFetchedAgainUntilTheConfigChanges() throws {
        let server = try LoopbackHTTPServer(routes: ["/endless.mp4": .endlessBody(contentType: "video/mp4")])
        defer { server.stop() }
        let fixture = CacheFixture()
        let cache = try fixture.cache(maxBytes: 1_000_000)
        let filler = CacheFiller(cache: cache, transport: RecordingTransfer(), options: .init(retry: CacheFillerTests.fastRetry), log: fixture.log)
        defer { filler.stop() }
        let url = try #require(URL(string: server.url("/endless.mp4")))
        let line = "cache: \(url.absoluteString): larger than the whole cache may hold (1000000 bytes, cache.maxBytes); left out until the config changes"

        let first = FillRecorder()
        filler.fill([CacheWant(url: url)], handlers: first.handlers)
        let result = try #require(first.settled()?[url])
        guard case .failed(let reason) = result else {
            Issue.record("the endless body was \(result)")
            return
        }
        #expect(reason == line, "\(reason)")
        #expect(fixture.partialFiles.isEmpty, "\(fixture.partialFiles)")
        #expect(fixture.logged.filter { $0.hasPrefix(line) }.count == 1, "\(fixture.logged)")

        // The next check of the same config: left out at once, no request, no new line.
        let requests = server.requestedPaths.count
        let again = FillRecorder()
        filler.fill([CacheWant(url: url)], handlers: again.handlers)
        #expect(again.settled()?[url] == .failed(reason))
        #expect(server.requestedPaths.count == requests)
        #expect(fixture.logged.filter { $0.hasPrefix(line) }.count == 1, "\(fixture.logged)")

        // A new config: tried again.
        cache.forgetOversized()
        let fresh = FillRecorder()
        filler.fill([CacheWant(url: url)], handlers: fresh.handlers)
        #expect(fresh.settled()?[url] == .failed(reason))
        #expect(server.requestedPaths.count == requests + 1)
    }

    /// The config's `size:` bounds a download more tightly than the cache: a body that runs past
    /// it is cut there, and a body that ends short of it is not kept; the right size is cached.
    @Test func aDownloadIsCutAtItsConfigsSizeAndAFileOfAnotherSizeIsNotKept() throws {
        let body = CacheFixture.bytes(20_000, seed: 71)
        let server = try LoopbackHTTPServer(routes: ["/endless.mp4": .endlessBody(contentType: "video/mp4"),
                                                     "/a.mp4": .file(body, contentType: "video/mp4")])
        defer { server.stop() }
        let fixture = CacheFixture()
        let cache = try fixture.cache(maxBytes: 1_000_000)
        let filler = CacheFiller(cache: cache, transport: RecordingTransfer(), options: .init(retry: CacheFillerTests.fastRetry), log: fixture.log)
        defer { filler.stop() }
        let endless = try #require(URL(string: server.url("/endless.mp4")))
        let file = try #require(URL(string: server.url("/a.mp4")))

        let cut = FillRecorder()
        filler.fill([CacheWant(url: endless, size: 50_000)], handlers: cut.handlers)
        #expect(cut.settled()?[endless] == .failed("cache: \(endless.absoluteString): larger than its size: in the config (50000 bytes); left out until the config changes"))
        #expect(fixture.partialFiles.isEmpty, "\(fixture.partialFiles)")

        let short = FillRecorder()
        filler.fill([CacheWant(url: file, size: 25_000)], handlers: short.handlers)
        let shortResult = try #require(short.settled()?[file])
        #expect(shortResult.path == nil && "\(shortResult)".contains("size 20000, expected 25000"), "\(shortResult)")
        #expect(cache.cachedFile(for: file) == nil)

        let long = FillRecorder()
        filler.fill([CacheWant(url: file, size: 19_999)], handlers: long.handlers)
        #expect(long.settled()?[file] == .failed("cache: \(file.absoluteString): larger than its size: in the config (19999 bytes); left out until the config changes"))

        cache.forgetOversized()
        let right = FillRecorder()
        filler.fill([CacheWant(url: file, size: 20_000)], handlers: right.handlers)
        let path = try #require(right.settled()?[file]?.path)
        #expect(FileManager.default.contents(atPath: path) == body)
        // Cached under one size, wanted under another (the CMS changed it): not the file wanted.
        #expect(cache.cachedFile(for: file, size: 20_001) == nil)
        #expect(cache.cachedFile(for: file, size: 20_000) == path)
    }

    @Test func aFullDiskEvictsUnreferencedFilesAndRetriesOnce() throws {
        let body = CacheFixture.bytes(20_000, seed: 55)
        let server = try LoopbackHTTPServer(routes: ["/a.mp4": .file(body, contentType: "video/mp4")])
        defer { server.stop() }
        let fixture = CacheFixture()
        let cache = try fixture.cache()
        let stale = try #require(URL(string: "https://cms.example.net/stale.mp4"))
        let playing = try #require(URL(string: "https://cms.example.net/playing.mp4"))
        for (index, old) in [stale, playing].enumerated() {
            try fixture.writePart(CacheFixture.bytes(5_000, seed: UInt64(60 + index)), for: old, in: cache)
            _ = try cache.store(downloadOf: old, head: HTTPResponseHead(status: 200, effectiveURL: old), expectedSHA256: nil)
        }
        let url = try #require(URL(string: server.url("/a.mp4")))
        let transport = ScriptedTransfer(real: RecordingTransfer(), script: [
            url: [.fail(.file("write /var/cache/marquee/partial/x.part: No space left on device"))],
        ])
        let filler = CacheFiller(cache: cache, transport: transport, options: .init(retry: CacheFillerTests.fastRetry), log: fixture.log)
        defer { filler.stop() }
        let recorder = FillRecorder()

        filler.fill([CacheWant(url: url)], keeping: [playing], handlers: recorder.handlers)

        #expect(recorder.settled()?[url]?.path != nil)
        #expect(transport.callCount[url] == 2)
        #expect(cache.entry(for: stale) == nil)
        #expect(cache.cachedFile(for: playing) != nil)  // what the screen shows stays
        #expect(fixture.mediaFiles.count == 2)
    }

    @Test func aDiskThatStaysFullFailsThatItemAndGoesOn() throws {
        let server = try LoopbackHTTPServer(routes: ["/b.mp4": .file(CacheFixture.bytes(20_000, seed: 56), contentType: "video/mp4")])
        defer { server.stop() }
        let fixture = CacheFixture()
        let full = try #require(URL(string: server.url("/a.mp4")))
        let fine = try #require(URL(string: server.url("/b.mp4")))
        let enospc = HTTPTransferError.file("write: No space left on device")
        let transport = ScriptedTransfer(real: RecordingTransfer(), script: [full: [.fail(enospc), .fail(enospc)]])
        let filler = CacheFiller(cache: try fixture.cache(), transport: transport,
                                 options: .init(concurrency: 1, retry: CacheFillerTests.fastRetry), log: fixture.log)
        defer { filler.stop() }
        let recorder = FillRecorder()

        filler.fill([CacheWant(url: full), CacheWant(url: fine)], handlers: recorder.handlers)

        let results = try #require(recorder.settled())
        #expect(results[full] == .failed("cache: \(fixture.directory) is full (no space left on device); \(full.absoluteString) not cached"))
        #expect(results[fine]?.path != nil)
        #expect(transport.callCount[full] == 2)
    }

    @Test func stopCancelsARunningDownloadPromptly() throws {
        let server = try LoopbackHTTPServer(routes: ["/stall.mp4": .stall])
        defer { server.stop() }
        let fixture = CacheFixture()
        let transport = RecordingTransfer()
        let filler = CacheFiller(cache: try fixture.cache(), transport: transport, log: fixture.log)
        let recorder = FillRecorder()
        filler.fill([CacheWant(url: URL(string: server.url("/stall.mp4"))!)], handlers: recorder.handlers)
        #expect(eventually { transport.inFlight == 1 })

        let started = ContinuousClock.now
        #expect(filler.stop(waitingUpTo: .seconds(2)))
        #expect(ContinuousClock.now - started < .milliseconds(500))
        #expect(transport.outcomes.map(\.error) == [.cancelled])
        #expect(recorder.events.items.isEmpty)
    }
}
