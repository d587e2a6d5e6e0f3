import Foundation
import MarqueeCore
@testable import MarqueeFleet
import Testing

/// Keeping the cache within its bound: least recently used first, never a referenced file.
@Suite struct MediaCacheEvictionTests {
    let urls = ["a", "b", "c", "d"].map { URL(string: "https://cms.example.net/\($0).mp4")! }

    /// Four 1000-byte files stored one second apart (a oldest), then `a` looked up (newest).
    func filledCache(_ fixture: CacheFixture, maxBytes: Int64) throws -> (MediaCache, [String]) {
        let clock = TestClock()
        let cache = try fixture.cache(maxBytes: maxBytes, now: clock.now)
        var names = [String]()
        for (index, url) in urls.enumerated() {
            try fixture.writePart(CacheFixture.bytes(1_000, seed: UInt64(10 + index)), for: url, in: cache)
            let path = try cache.store(downloadOf: url, head: HTTPResponseHead(status: 200, effectiveURL: url), expectedSHA256: nil)
            names.append((path as NSString).lastPathComponent)
            clock.advance(1)
        }
        #expect(cache.cachedFile(for: urls[0]) != nil)
        return (cache, names)
    }

    @Test func removesLeastRecentlyUsedFirstDownToTheBound() throws {
        let fixture = CacheFixture()
        let (cache, names) = try filledCache(fixture, maxBytes: 2_500)

        let eviction = cache.evict(keeping: [])

        #expect(eviction.removedFiles == [names[1], names[2]])  // b, c; a was used last
        #expect(eviction.freedBytes == 2_000)
        #expect(eviction.totalBytes == 2_000)
        #expect(fixture.mediaFiles == [names[0], names[3]].sorted())
        #expect(cache.entry(for: urls[1]) == nil)
        #expect(cache.cachedFile(for: urls[0]) != nil)
        // What was freed is the caller's to say; within the bound there is nothing to warn of.
        #expect(fixture.logged.isEmpty, "\(fixture.logged)")
    }

    @Test func neverRemovesAReferencedFileEvenOverTheBound() throws {
        let fixture = CacheFixture()
        let (cache, names) = try filledCache(fixture, maxBytes: 500)

        let eviction = cache.evict(keeping: [urls[1], urls[2]])

        #expect(eviction.removedFiles == [names[3], names[0]])  // d, then a (the most recent)
        #expect(eviction.totalBytes == 2_000)
        #expect(fixture.mediaFiles == [names[1], names[2]].sorted())
        #expect(fixture.logged.contains { $0.contains("over the 0.0 MB bound") })
    }

    @Test func withinTheBoundNothingButUnreferencedPartialsGoes() throws {
        let fixture = CacheFixture()
        let (cache, _) = try filledCache(fixture, maxBytes: 1 << 20)
        let kept = try #require(URL(string: "https://cms.example.net/kept.mp4"))
        let dropped = try #require(URL(string: "https://cms.example.net/dropped.mp4"))
        try fixture.writePart(Data(count: 300), for: kept, in: cache)
        try fixture.writePart(Data(count: 700), for: dropped, in: cache)

        let eviction = cache.evict(keeping: [kept])

        #expect(eviction.removedFiles.isEmpty)
        #expect(eviction.removedPartials == 1)
        #expect(fixture.mediaFiles.count == 4)
        #expect(cache.partial(for: kept).size == 300)
        #expect(cache.partial(for: dropped).size == 0)
        #expect(fixture.partialFiles.count == 2)  // kept's .part and .json
        #expect(cache.totalBytes == 4_300 + Int64(DurableFile.size(of: cache.partial(for: kept).sidecarPath) ?? 0))
    }

    /// A download in progress (its part file kept) takes room on disk like any file: the media
    /// files make room for it, so the folder as a whole stays within `maxBytes`.
    @Test func keptPartialDownloadsCountAgainstTheBound() throws {
        let fixture = CacheFixture()
        let (cache, names) = try filledCache(fixture, maxBytes: 3_000)
        let downloading = try #require(URL(string: "https://cms.example.net/downloading.mp4"))
        try fixture.writePart(Data(count: 1_000), for: downloading, in: cache)
        let partial = 1_000 + Int64(DurableFile.size(of: cache.partial(for: downloading).sidecarPath) ?? 0)

        let eviction = cache.evict(keeping: [downloading])

        // 4,000 bytes of media and the part: b, c and d go (least recently used first), a stays.
        #expect(eviction.removedFiles == [names[1], names[2], names[3]], "\(eviction.removedFiles)")
        #expect(fixture.mediaFiles == [names[0]])
        #expect(cache.partial(for: downloading).size == 1_000)
        #expect(cache.totalBytes == 1_000 + partial)
        #expect(cache.totalBytes <= 3_000, "the cache holds \(cache.totalBytes) bytes against a 3,000-byte bound")
    }

    @Test func unindexedFilesGoBeforeAnyIndexedOne() throws {
        let fixture = CacheFixture()
        let (cache, names) = try filledCache(fixture, maxBytes: 4_000)
        let stray = String(repeating: "f", count: 64) + ".png"
        _ = FileManager.default.createFile(atPath: fixture.directory + "/media/" + stray, contents: Data(count: 1_000))

        #expect(cache.evict(keeping: []).removedFiles == [stray])
        #expect(fixture.mediaFiles == names.sorted())
    }
}
