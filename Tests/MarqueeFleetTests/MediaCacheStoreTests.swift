import Foundation
import MarqueeCore
@testable import MarqueeFleet
import MarqueeMedia
import Testing

/// Storing a finished download: only verified bytes become a media file, named by their hash.
@Suite struct MediaCacheStoreTests {
    let url = URL(string: "https://cms.example.net/media/Clip.MP4")!

    func head(_ length: Int64?) -> HTTPResponseHead {
        HTTPResponseHead(status: 200, etag: "\"v1\"", lastModified: "Tue, 01 Dec 2026 10:00:00 GMT",
                         contentLength: length, effectiveURL: url)
    }

    @Test func storesByContentHashAndIndexesDurably() throws {
        let fixture = CacheFixture()
        let cache = try fixture.cache()
        let body = CacheFixture.bytes(70_000, seed: 1)
        let sha = CacheFixture.sha256(of: body)
        try fixture.writePart(body, for: url, in: cache)

        let path = try cache.store(downloadOf: url, head: head(70_000), expectedSHA256: sha.uppercased())

        #expect(path == "\(fixture.directory)/media/\(sha).mp4")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == body)
        #expect(fixture.partialFiles.isEmpty)  // part renamed, sidecar removed
        #expect(cache.cachedFile(for: url) == path)
        #expect(cache.cachedFile(for: url, sha256: sha) == path)
        #expect(cache.cachedFile(for: url, sha256: String(repeating: "0", count: 64)) == nil)  // the config moved on
        // A second instance (a restart) reads the same index back.
        let reopened = try fixture.cache()
        #expect(reopened.cachedFile(for: url) == path)
        #expect(reopened.entry(for: url)?.etag == "\"v1\"")
        #expect(reopened.entry(for: url)?.size == 70_000)
        #expect(!FileManager.default.fileExists(atPath: fixture.directory + "/index.json.tmp"))
    }

    @Test func noPasswordIsWrittenIntoTheCacheFolder() throws {
        let fixture = CacheFixture()
        let cache = try fixture.cache()
        let secret = try #require(URL(string: "https://kiosk:s3cret@cms.example.net/a.png"))
        try fixture.writePart(Data("png".utf8), for: secret, in: cache)
        let sidecar = try String(contentsOfFile: cache.partial(for: secret).sidecarPath, encoding: .utf8)
        let path = try cache.store(downloadOf: secret, head: head(3), expectedSHA256: nil)

        let index = try String(contentsOfFile: fixture.directory + "/index.json", encoding: .utf8)
        #expect(!index.contains("s3cret") && !sidecar.contains("s3cret"))
        #expect(index.contains("kiosk:***@cms.example.net"))
        #expect(cache.cachedFile(for: secret) == path)
        // Another password, same resource: the same file.
        #expect(cache.cachedFile(for: try #require(URL(string: "https://kiosk:rotated@cms.example.net/a.png"))) == path)
    }

    @Test func aHashMismatchNeverBecomesAMediaFile() throws {
        let fixture = CacheFixture()
        let cache = try fixture.cache()
        let body = CacheFixture.bytes(10_000, seed: 2)
        try fixture.writePart(body, for: url, in: cache)
        let wrong = String(repeating: "ab", count: 32)

        #expect(throws: MediaCacheError.sha256Mismatch(got: CacheFixture.sha256(of: body), expected: wrong)) {
            try cache.store(downloadOf: url, head: head(10_000), expectedSHA256: wrong)
        }
        #expect(MediaCacheError.sha256Mismatch(got: "x", expected: "y").description == "sha256 mismatch: got x, expected y")
        #expect(fixture.mediaFiles.isEmpty)
        #expect(fixture.partialFiles.isEmpty)
        #expect(cache.cachedFile(for: url) == nil)
    }

    @Test func aSizeOtherThanAnnouncedIsRefused() throws {
        let fixture = CacheFixture()
        let cache = try fixture.cache()
        try fixture.writePart(CacheFixture.bytes(9_000, seed: 3), for: url, in: cache)

        #expect(throws: MediaCacheError.sizeMismatch(got: 9_000, expected: 10_000)) {
            try cache.store(downloadOf: url, head: head(10_000), expectedSHA256: nil)
        }
        #expect(MediaCacheError.sizeMismatch(got: 9_000, expected: 10_000).description == "size 9000, expected 10000")
        #expect(fixture.mediaFiles.isEmpty)
        #expect(fixture.partialFiles.isEmpty)
    }

    @Test func identicalContentFromTwoURLsSharesOneFile() throws {
        let fixture = CacheFixture()
        let cache = try fixture.cache()
        let body = CacheFixture.bytes(20_000, seed: 4)
        let other = try #require(URL(string: "https://mirror.example.net/copy.mp4"))
        try fixture.writePart(body, for: url, in: cache)
        let first = try cache.store(downloadOf: url, head: head(20_000), expectedSHA256: nil)
        try fixture.writePart(body, for: other, in: cache)
        let second = try cache.store(downloadOf: other, head: head(20_000), expectedSHA256: nil)

        #expect(first == second)
        #expect(fixture.mediaFiles == ["\(CacheFixture.sha256(of: body)).mp4"])
        #expect(fixture.partialFiles.isEmpty)
        #expect(cache.totalBytes == 20_000)
    }

    @Test func aCorruptIndexIsRebuiltEmptyWithOneLine() throws {
        let fixture = CacheFixture()
        let body = CacheFixture.bytes(5_000, seed: 5)
        let sha = CacheFixture.sha256(of: body)
        do {
            let cache = try fixture.cache()
            try fixture.writePart(body, for: url, in: cache)
            _ = try cache.store(downloadOf: url, head: head(5_000), expectedSHA256: nil)
        }
        try Data("{\"version\": 1, \"entries\": {\"https://h/a.mp4\": {\"sha2".utf8)
            .write(to: URL(fileURLWithPath: fixture.directory + "/index.json"))

        let cache = try fixture.cache(maxBytes: 0)

        #expect(fixture.logged.count == 1)
        #expect(fixture.logged.first?.contains("index.json is unreadable or corrupt") == true)
        #expect(cache.cachedFile(for: url) == nil)
        // The orphan is adopted again when a config names its hash (hashed to make sure)...
        #expect(cache.adoptExisting(url: url, sha256: sha) == "\(fixture.directory)/media/\(sha).mp4")
        #expect(cache.cachedFile(for: url, sha256: sha) != nil)
        // ...and, unreferenced, is evictable.
        cache.evict(keeping: [])
        #expect(fixture.mediaFiles.isEmpty)
    }

    @Test func aFileWhoseBytesAreNotItsNameIsNotAdopted() throws {
        let fixture = CacheFixture()
        let cache = try fixture.cache()
        let sha = String(repeating: "c", count: 64)
        _ = FileManager.default.createFile(atPath: "\(fixture.directory)/media/\(sha).mp4", contents: Data("junk".utf8))

        #expect(cache.adoptExisting(url: url, sha256: sha) == nil)
        #expect(fixture.mediaFiles.isEmpty)
    }

    @Test func aFileChangedBehindTheCacheIsNotServed() throws {
        let fixture = CacheFixture()
        let cache = try fixture.cache()
        try fixture.writePart(CacheFixture.bytes(3_000, seed: 6), for: url, in: cache)
        let path = try cache.store(downloadOf: url, head: head(nil), expectedSHA256: nil)
        try Data("cut".utf8).write(to: URL(fileURLWithPath: path))

        #expect(cache.cachedFile(for: url) == nil)
        #expect(cache.entry(for: url) == nil)
    }

    @Test func aFolderThatCannotBeMadeIsOneClearLine() throws {
        let fixture = CacheFixture()
        try FileManager.default.createDirectory(atPath: fixture.directory, withIntermediateDirectories: true)
        let blocker = fixture.directory + "/file"
        _ = FileManager.default.createFile(atPath: blocker, contents: Data())

        #expect(throws: MediaCacheError.cannotCreate(path: blocker + "/cache", reason: "Not a directory")) {
            try MediaCache(directory: blocker + "/cache", maxBytes: 1, digest: FileSHA256(), log: { _ in })
        }
        #expect(MediaCacheError.cannotCreate(path: "/x", reason: "Permission denied").description
            == "cache: cannot create /x: Permission denied")
    }
}
