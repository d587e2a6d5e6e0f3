import Foundation
import Glibc
import MarqueeCore
@testable import MarqueeFleet
import MarqueeTestSupport
import Testing

/// The cache defends itself (issue 33, findings 4 and 7): links planted in its folder are never
/// written through, a folder others may write is refused, and folders deleted while playing are
/// made again at their next use.
@Suite struct MediaCacheDefenceTests {
    /// A file outside the cache that a planted link points at, and what it must still hold.
    private func victim(_ fixture: CacheFixture) throws -> String {
        let path = fixture.directory + "-victim"
        try "keep me\n".write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    private func fill(_ url: URL, sha: String, cache: MediaCache, fixture: CacheFixture) throws -> CacheFillResult? {
        let filler = CacheFiller(cache: cache, transport: RecordingTransfer(), options: .init(retry: CacheFillerTests.fastRetry), log: fixture.log)
        defer { filler.stop() }
        let recorder = FillRecorder()
        filler.fill([CacheWant(url: url, sha256: sha)], handlers: recorder.handlers)
        return recorder.settled()?[url]
    }

    @Test(arguments: ["symbolic", "hard"])
    func aLinkPlantedAsAPartFileIsNeverWrittenThrough(kind: String) throws {
        let body = CacheFixture.bytes(200_000, seed: 61)
        let sha = CacheFixture.sha256(of: body)
        let server = try LoopbackHTTPServer(routes: ["/clip.mp4": .file(body, contentType: "video/mp4")])
        defer { server.stop() }
        let fixture = CacheFixture()
        let cache = try fixture.cache()
        let victim = try victim(fixture)
        defer { unlink(victim) }
        let url = try #require(URL(string: server.url("/clip.mp4")))
        let part = cache.partial(for: url).path
        #expect((kind == "symbolic" ? symlink(victim, part) : link(victim, part)) == 0)

        let result = try fill(url, sha: sha, cache: cache, fixture: fixture)

        #expect(result == .cached(path: "\(fixture.directory)/media/\(sha).mp4"), "\(fixture.logged)")
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "keep me\n")
        #expect(fixture.logged.contains { $0.contains("is not a plain file of the player's own") }, "\(fixture.logged)")
    }

    /// A verified media file replaced by a link to another file (of the same size): the cache does
    /// not hand the player the link's target; the entry is forgotten and the link removed.
    @Test func aLinkPlantedInPlaceOfAMediaFileIsNeverPlayed() throws {
        let body = CacheFixture.bytes(40_000, seed: 64)
        let sha = CacheFixture.sha256(of: body)
        let server = try LoopbackHTTPServer(routes: ["/c.mp4": .file(body, contentType: "video/mp4")])
        defer { server.stop() }
        let fixture = CacheFixture()
        let cache = try fixture.cache()
        let url = try #require(URL(string: server.url("/c.mp4")))
        let path = "\(fixture.directory)/media/\(sha).mp4"
        #expect(try fill(url, sha: sha, cache: cache, fixture: fixture) == .cached(path: path))
        let secret = fixture.directory + "-secret.mp4"
        try Data(count: body.count).write(to: URL(fileURLWithPath: secret))
        defer { unlink(secret) }
        #expect(unlink(path) == 0 && symlink(secret, path) == 0)

        #expect(cache.cachedFile(for: url) == nil)
        var status = stat()
        #expect(lstat(path, &status) != 0, "the planted link is still there")
        #expect(FileManager.default.fileExists(atPath: secret))
    }

    @Test func aLinkPlantedForTheIndexesTemporaryFileIsRemovedNotFollowed() throws {
        let body = CacheFixture.bytes(50_000, seed: 62)
        let sha = CacheFixture.sha256(of: body)
        let server = try LoopbackHTTPServer(routes: ["/a.mp4": .file(body, contentType: "video/mp4")])
        defer { server.stop() }
        let fixture = CacheFixture()
        let cache = try fixture.cache()
        let victim = try victim(fixture)
        defer { unlink(victim) }
        #expect(symlink(victim, fixture.directory + "/index.json.tmp") == 0)
        let url = try #require(URL(string: server.url("/a.mp4")))

        #expect(try fill(url, sha: sha, cache: cache, fixture: fixture) == .cached(path: "\(fixture.directory)/media/\(sha).mp4"))

        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "keep me\n")
        #expect(MediaCacheIndex.load(from: fixture.directory + "/index.json").0.entries.count == 1)
    }

    @Test func aCacheFolderOthersMayWriteIsRefused() throws {
        let fixture = CacheFixture()
        #expect(mkdir(fixture.directory, 0o755) == 0)
        #expect(chmod(fixture.directory, 0o777) == 0)
        do {
            _ = try fixture.cache()
            Issue.record("a world-writable cache folder was used")
        } catch {
            #expect("\(error)".contains("cache: refusing \(fixture.directory) may be written by anyone (mode 777); chmod o-w"), "\(error)")
        }
        #expect(chmod(fixture.directory, 0o755) == 0)
        #expect(throws: Never.self) { _ = try fixture.cache() }
    }

    /// Someone deletes the whole cache while the player runs: the next download makes the folders
    /// again and is stored.
    @Test func aCacheFolderDeletedWhilePlayingIsMadeAgainAtItsNextUse() throws {
        let body = CacheFixture.bytes(50_000, seed: 63)
        let sha = CacheFixture.sha256(of: body)
        let server = try LoopbackHTTPServer(routes: ["/b.mp4": .file(body, contentType: "video/mp4")])
        defer { server.stop() }
        let fixture = CacheFixture()
        let cache = try fixture.cache()
        try FileManager.default.removeItem(atPath: fixture.directory)
        let url = try #require(URL(string: server.url("/b.mp4")))

        let result = try fill(url, sha: sha, cache: cache, fixture: fixture)

        #expect(result == .cached(path: "\(fixture.directory)/media/\(sha).mp4"), "\(fixture.logged)")
        #expect(FileManager.default.fileExists(atPath: fixture.directory + "/index.json"))
        #expect(cache.cachedFile(for: url) != nil)
    }
}
