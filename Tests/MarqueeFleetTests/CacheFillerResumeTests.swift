import Foundation
import MarqueeCore
@testable import MarqueeFleet
import MarqueeMedia
import MarqueeTestSupport
import Testing

/// A download cut short continues where its part file ends, in this run or the next one.
@Suite struct CacheFillerResumeTests {
    @Test func aDroppedConnectionResumesFromThePart() throws {
        let body = CacheFixture.bytes(300_000, seed: 41)
        let sha = CacheFixture.sha256(of: body)
        let server = try LoopbackHTTPServer(routes: ["/drop.mp4": .droppingFile(body, contentType: "video/mp4", after: 100_000)])
        defer { server.stop() }
        let fixture = CacheFixture()
        let transport = RecordingTransfer()
        let filler = CacheFiller(cache: try fixture.cache(), transport: transport,
                                 options: .init(retry: CacheFillerTests.fastRetry), log: fixture.log)
        defer { filler.stop() }
        let recorder = FillRecorder()
        let url = try #require(URL(string: server.url("/drop.mp4")))

        filler.fill([CacheWant(url: url, sha256: sha)], handlers: recorder.handlers)

        let path = try #require(recorder.settled()?[url]?.path)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == body)
        #expect(transport.requests.map(\.resumeFrom) == [0, 100_000])
        #expect(transport.outcomes.first?.error == .truncated(received: 100_000, expected: 300_000))
        #expect(fixture.logged.contains { $0.contains("drop.mp4: body cut short") && $0.contains("retrying in") })
    }

    /// A link that drops every few minutes: each cut that got further counts as the first failure
    /// in a row, so a large file is fetched across as many cuts as it takes (here nine, more than
    /// twice the four failures in a row that give an item up).
    @Test func cutsThatEachMakeProgressNeverGiveTheFileUp() throws {
        let body = CacheFixture.bytes(300_000, seed: 43)
        let sha = CacheFixture.sha256(of: body)
        let server = try LoopbackHTTPServer(routes: ["/chopped.mp4": .choppedFile(body, contentType: "video/mp4", every: 30_000)])
        defer { server.stop() }
        let fixture = CacheFixture()
        let transport = RecordingTransfer()
        let retry = RetryPolicy(base: .milliseconds(10), cap: .milliseconds(20), jitter: 0, permanentAttempts: 2, transientAttempts: 4)
        let filler = CacheFiller(cache: try fixture.cache(), transport: transport, options: .init(retry: retry), log: fixture.log)
        defer { filler.stop() }
        let recorder = FillRecorder()
        let url = try #require(URL(string: server.url("/chopped.mp4")))

        filler.fill([CacheWant(url: url, sha256: sha)], handlers: recorder.handlers)

        let path = try #require(recorder.settled()?[url]?.path, "\(fixture.logged)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == body)
        #expect(transport.requests.map(\.resumeFrom) == stride(from: 0, to: 300_000, by: 30_000).map { Int64($0) })
        #expect(!fixture.logged.contains { $0.contains("times in a row") }, "\(fixture.logged)")
    }

    @Test func aLeftoverPartResumesInANewCacheInstance() throws {
        let body = CacheFixture.bytes(400_000, seed: 42)
        let sha = CacheFixture.sha256(of: body)
        let server = try LoopbackHTTPServer(routes: ["/big.mp4": .stallingFile(body, contentType: "video/mp4", after: 150_000)])
        defer { server.stop() }
        let fixture = CacheFixture()
        let url = try #require(URL(string: server.url("/big.mp4")))
        do {
            // First run: the server goes silent at 150 kB and the process dies (stop, no store).
            let cache = try fixture.cache()
            let filler = CacheFiller(cache: cache, transport: RecordingTransfer(), log: fixture.log)
            filler.fill([CacheWant(url: url, sha256: sha)])
            #expect(eventually { cache.partial(for: url).size == 150_000 })
            #expect(filler.stop())
        }
        #expect(fixture.mediaFiles.isEmpty)
        let stem = CacheNaming.partialStem(for: url, digest: FileSHA256())
        #expect(fixture.partialFiles == [stem + ".json", stem + ".part"])

        // Next run: a new cache over the same folder, the server healthy again.
        server.setRoute("/big.mp4", .file(body, contentType: "video/mp4"))
        let transport = RecordingTransfer()
        let filler = CacheFiller(cache: try fixture.cache(), transport: transport, log: fixture.log)
        defer { filler.stop() }
        let recorder = FillRecorder()
        filler.fill([CacheWant(url: url, sha256: sha)], handlers: recorder.handlers)

        let path = try #require(recorder.settled()?[url]?.path)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == body)
        #expect(transport.requests.map(\.resumeFrom) == [150_000])
        #expect(fixture.partialFiles.isEmpty)
    }

    /// Serves `body`, leaves `part` as the URL's partial download (its sidecar recording `etag`),
    /// and fills with `sha256`: what got stored and the resume offsets and `If-Range`s asked.
    func fill(over part: Data, etag: String? = nil, serving body: Data, sha256: String?) throws
        -> (stored: Data, resumes: [Int64], ifRanges: [String?], mediaFiles: [String]) {
        let server = try LoopbackHTTPServer(routes: ["/a.mp4": .file(body, contentType: "video/mp4")])
        defer { server.stop() }
        let fixture = CacheFixture()
        let url = try #require(URL(string: server.url("/a.mp4")))
        let cache = try fixture.cache()
        let partial = try cache.startPartial(for: url, etag: etag)
        try part.write(to: URL(fileURLWithPath: partial.path))
        let transport = RecordingTransfer()
        let filler = CacheFiller(cache: cache, transport: transport, log: fixture.log)
        defer { filler.stop() }
        let recorder = FillRecorder()

        filler.fill([CacheWant(url: url, sha256: sha256)], handlers: recorder.handlers)

        let path = try #require(recorder.settled()?[url]?.path)
        return (try Data(contentsOf: URL(fileURLWithPath: path)), transport.requests.map(\.resumeFrom),
                transport.requests.map(\.ifRange), fixture.mediaFiles)
    }

    @Test func aPartThatCannotBeCheckedStartsOver() throws {
        // No sha256 in the config and no validator recorded: continuing could splice two versions
        // of the file undetected, so the download starts from byte 0.
        let body = CacheFixture.bytes(50_000, seed: 43)
        let run = try fill(over: CacheFixture.bytes(20_000, seed: 99), serving: body, sha256: nil)
        #expect(run.stored == body)
        #expect(run.resumes == [0])
    }

    @Test func aResumeWithARecordedETagSendsIfRange() throws {
        let body = CacheFixture.bytes(50_000, seed: 44)
        let run = try fill(over: body.prefix(20_000), etag: "\"v7\"", serving: body, sha256: nil)
        #expect(run.stored == body)
        #expect(run.resumes == [20_000])
        #expect(run.ifRanges == ["\"v7\""])
    }

    @Test func aCorruptResumedPartIsDownloadedAfreshOnce() throws {
        // A part whose bytes do not belong to the file: the resumed result fails its hash, the
        // part is dropped and one fresh download stores the right file.
        let body = CacheFixture.bytes(60_000, seed: 45)
        let sha = CacheFixture.sha256(of: body)
        let run = try fill(over: CacheFixture.bytes(25_000, seed: 98), serving: body, sha256: sha)
        #expect(run.stored == body)
        #expect(run.resumes == [25_000, 0])
        #expect(run.mediaFiles == ["\(sha).mp4"])
    }
}
