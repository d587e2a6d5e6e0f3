import Foundation
import MarqueeCore
@testable import MarqueeFleet
import MarqueeMedia
import Synchronization

/// A fresh cache directory per test, removed at the end, with the lines the cache logged.
final class CacheFixture: Sendable {
    let directory: String
    let lines = Mutex<[String]>([])

    init() {
        directory = NSTemporaryDirectory() + "marquee-cache-test-\(UUID().uuidString)"
    }

    deinit { try? FileManager.default.removeItem(atPath: directory) }

    var log: @Sendable (String) -> Void { { [self] line in lines.withLock { $0.append(line) } } }

    var logged: [String] { lines.withLock { $0 } }

    func cache(maxBytes: Int64 = 1 << 30, now: @escaping @Sendable () -> Date = { Date() }) throws -> MediaCache {
        try MediaCache(directory: directory, maxBytes: maxBytes, digest: FileSHA256(), log: log, now: now)
    }

    var mediaFiles: [String] { files(in: "media") }
    var partialFiles: [String] { files(in: "partial") }

    func files(in folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory + "/" + folder)) ?? []).sorted()
    }

    /// Deterministic bytes that do not compress into anything a server or client could shortcut.
    static func bytes(_ count: Int, seed: UInt64) -> Data {
        var state = seed &* 0x9E37_79B9_7F4A_7C15 | 1
        return Data((0..<count).map { _ in
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return UInt8(truncatingIfNeeded: state)
        })
    }

    /// Their SHA-256, by the cache's own digester (checked against sha256sum in FileSHA256Tests).
    static func sha256(of data: Data) -> String {
        let path = NSTemporaryDirectory() + "marquee-sha-\(UUID().uuidString)"
        _ = FileManager.default.createFile(atPath: path, contents: data)
        defer { unlink(path) }
        return (try? FileSHA256().sha256(ofFileAt: path)) ?? ""
    }

    /// Writes `data` as `url`'s part file, as a download would have.
    func writePart(_ data: Data, for url: URL, in cache: MediaCache) throws {
        let partial = try cache.startPartial(for: url)
        try data.write(to: URL(fileURLWithPath: partial.path))
    }
}

/// A manual clock for the eviction order.
final class TestClock: Sendable {
    private let seconds = Mutex<Double>(1_000_000)
    var now: @Sendable () -> Date { { [self] in Date(timeIntervalSince1970: seconds.withLock { $0 }) } }
    func advance(_ by: Double) { seconds.withLock { $0 += by } }
}

/// Polls `condition` for up to `timeout`.
func eventually(within timeout: Duration = .seconds(10), _ condition: () -> Bool) -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if condition() { return true }
        usleep(5_000)
    }
    return condition()
}
