import Foundation
import MarqueeCore
@testable import MarqueeFleet
import MarqueeTestSupport
import Testing

/// Filling the cache from a real (loopback) HTTP server through the test stand-in client.
@Suite struct CacheFillerTests {
    static let fastRetry = RetryPolicy(base: .milliseconds(20), cap: .milliseconds(100), jitter: 0.2, permanentAttempts: 2)

    @Test func downloadsVerifiesAndStoresByContent() throws {
        let body = CacheFixture.bytes(300_000, seed: 21)
        let sha = CacheFixture.sha256(of: body)
        let server = try LoopbackHTTPServer(routes: ["/clip.mp4": .file(body, contentType: "video/mp4")])
        defer { server.stop() }
        let fixture = CacheFixture()
        let cache = try fixture.cache()
        let filler = CacheFiller(cache: cache, transport: RecordingTransfer(), options: .init(retry: Self.fastRetry), log: fixture.log)
        defer { filler.stop() }
        let recorder = FillRecorder()
        let url = try #require(URL(string: server.url("/clip.mp4")))

        filler.fill([CacheWant(url: url, sha256: sha)], handlers: recorder.handlers)

        let results = try #require(recorder.settled())
        let path = "\(fixture.directory)/media/\(sha).mp4"
        #expect(results == [url: .cached(path: path)])
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == body)
        #expect(fixture.partialFiles.isEmpty)
        #expect(recorder.events.items.map(\.0) == [url])
        #expect(recorder.events.progress.last == CacheFillProgress(url: url, bytesOnDisk: 300_000, expectedTotal: 300_000))
        // Cached now: a second fill is done at once, without asking the server.
        let asked = server.requestedPaths.count
        let again = FillRecorder()
        filler.fill([CacheWant(url: url, sha256: sha)], handlers: again.handlers)
        #expect(again.settled() == [url: .cached(path: path)])
        #expect(server.requestedPaths.count == asked)
    }

    @Test func twoURLsWithTheSameContentShareOneFileButAreEachFetched() throws {
        let body = CacheFixture.bytes(80_000, seed: 23)
        let sha = CacheFixture.sha256(of: body)
        let server = try LoopbackHTTPServer(routes: [
            "/a/loop.mp4": .file(body, contentType: "video/mp4"),
            "/b/same.mp4": .file(body, contentType: "video/mp4"),
        ])
        defer { server.stop() }
        let fixture = CacheFixture()
        let filler = CacheFiller(cache: try fixture.cache(), transport: RecordingTransfer(),
                                 options: .init(concurrency: 1, retry: Self.fastRetry), log: fixture.log)
        defer { filler.stop() }
        let recorder = FillRecorder()
        let urls = ["/a/loop.mp4", "/b/same.mp4"].map { URL(string: server.url($0))! }

        filler.fill(urls.map { CacheWant(url: $0, sha256: sha) }, handlers: recorder.handlers)

        let path = "\(fixture.directory)/media/\(sha).mp4"
        #expect(recorder.settled() == [urls[0]: .cached(path: path), urls[1]: .cached(path: path)])
        #expect(fixture.mediaFiles == ["\(sha).mp4"])
        // Each URL is asked of its server even though the bytes are at hand: a server that serves
        // other bytes than its config says must fail (CacheFillerFailureTests).
        #expect(server.requestedPaths == ["/a/loop.mp4", "/b/same.mp4"])
    }

    @Test func progressComesAtMostTwiceASecondPlusCompletion() throws {
        let body = CacheFixture.bytes(150_000, seed: 22)
        let server = try LoopbackHTTPServer(routes: ["/slow.mp4": .throttledFile(body, contentType: "video/mp4", bytesPerSecond: 100_000)])
        defer { server.stop() }
        let fixture = CacheFixture()
        let filler = CacheFiller(cache: try fixture.cache(), transport: RecordingTransfer(), options: .init(retry: Self.fastRetry), log: fixture.log)
        defer { filler.stop() }
        let recorder = FillRecorder()
        let url = try #require(URL(string: server.url("/slow.mp4")))

        let started = ContinuousClock.now
        filler.fill([CacheWant(url: url)], handlers: recorder.handlers)

        #expect(recorder.settled()?[url]?.path != nil)
        let elapsed = ContinuousClock.now - started
        let progress = recorder.events.progress
        // About 1.5 s of transfer (the client calls back every 100 ms): a report at the start, at
        // most one every 0.5 s, and one at the end.
        let most = Int(elapsed / .milliseconds(500)) + 2
        #expect((3...most).contains(progress.count), "\(progress.count) reports in \(elapsed)")
        #expect(progress.map(\.bytesOnDisk) == progress.map(\.bytesOnDisk).sorted())
        #expect(progress.last?.bytesOnDisk == 150_000)
    }

    @Test func concurrencyNeverExceedsTheLimit() throws {
        for limit in [1, 2] {
            var routes = [String: LoopbackHTTPServer.Route]()
            for index in 0..<5 {
                routes["/\(index).mp4"] = .throttledFile(CacheFixture.bytes(30_000, seed: UInt64(index)), contentType: "video/mp4",
                                                         bytesPerSecond: 150_000)
            }
            let server = try LoopbackHTTPServer(routes: routes)
            defer { server.stop() }
            let fixture = CacheFixture()
            let transport = RecordingTransfer()
            let filler = CacheFiller(cache: try fixture.cache(), transport: transport,
                                     options: .init(concurrency: limit, retry: Self.fastRetry), log: fixture.log)
            defer { filler.stop() }
            let recorder = FillRecorder()
            let wants = (0..<5).map { CacheWant(url: URL(string: server.url("/\($0).mp4"))!) }

            filler.fill(wants, handlers: recorder.handlers)

            let results = try #require(recorder.settled())
            #expect(results.values.allSatisfy { $0.path != nil })
            #expect(transport.mostInFlight == limit)
            #expect(transport.requests.count == 5)
        }
    }

    @Test func theRateIsSplitAcrossDownloads() throws {
        var routes = [String: LoopbackHTTPServer.Route]()
        for index in 0..<3 { routes["/\(index).mp4"] = .file(CacheFixture.bytes(40_000, seed: UInt64(index)), contentType: "video/mp4") }
        let server = try LoopbackHTTPServer(routes: routes)
        defer { server.stop() }
        let fixture = CacheFixture()
        let transport = RecordingTransfer()
        let filler = CacheFiller(cache: try fixture.cache(), transport: transport,
                                 options: .init(maxBytesPerSecond: 400_000, retry: Self.fastRetry), log: fixture.log)
        defer { filler.stop() }
        let recorder = FillRecorder()

        filler.fill((0..<3).map { CacheWant(url: URL(string: server.url("/\($0).mp4"))!) }, handlers: recorder.handlers)

        #expect(recorder.settled()?.count == 3)
        let rates = transport.requests.map(\.maxBytesPerSecond)
        #expect(rates.prefix(2) == [200_000, 200_000])  // two running, one waiting: half each
        #expect(rates.allSatisfy { ($0 ?? .max) <= 400_000 })
    }

    @Test func replacingTheWantedSetCancelsWhatIsNoLongerWanted() throws {
        let slow = CacheFixture.bytes(2_000_000, seed: 31)
        let small = CacheFixture.bytes(10_000, seed: 32)
        let server = try LoopbackHTTPServer(routes: [
            "/old.mp4": .throttledFile(slow, contentType: "video/mp4", bytesPerSecond: 100_000),
            "/new.png": .file(small, contentType: "image/png"),
        ])
        defer { server.stop() }
        let fixture = CacheFixture()
        let cache = try fixture.cache()
        let transport = RecordingTransfer()
        let filler = CacheFiller(cache: cache, transport: transport, options: .init(retry: Self.fastRetry), log: fixture.log)
        defer { filler.stop() }
        let old = try #require(URL(string: server.url("/old.mp4")))
        let new = try #require(URL(string: server.url("/new.png")))
        let first = FillRecorder()
        filler.fill([CacheWant(url: old)], handlers: first.handlers)
        #expect(eventually { cache.partial(for: old).size > 20_000 })

        let second = FillRecorder()
        filler.fill([CacheWant(url: new)], handlers: second.handlers)

        let results = try #require(second.settled())
        #expect(results == [new: .cached(path: "\(fixture.directory)/media/\(CacheFixture.sha256(of: small)).png")])
        #expect(eventually(within: .seconds(2)) { transport.outcomes.contains { $0.url == old && $0.error == .cancelled } })
        #expect(eventually(within: .seconds(2)) { filler.activeDownloads == 0 })
        let kept = cache.partial(for: old).size
        #expect(kept > 20_000 && kept < 2_000_000)  // the part stays for a later config
        #expect(first.events.items.isEmpty)
        #expect(first.events.settled.isEmpty)
        #expect(second.events.items.map(\.0) == [new])
    }

    @Test func anEmptySetSettlesAtOnce() throws {
        let fixture = CacheFixture()
        let filler = CacheFiller(cache: try fixture.cache(), transport: RecordingTransfer(), log: fixture.log)
        let recorder = FillRecorder()
        filler.fill([], handlers: recorder.handlers)
        #expect(recorder.settled(within: .seconds(2)) == [:])
    }
}
