import Foundation
import MarqueeCore
import Synchronization

/// The on-device media cache of fleet mode: remote media, downloaded and verified, so the screen
/// keeps playing offline for days. Layout of `directory` (e.g. /var/cache/marquee):
///
/// - `media/<sha256>.<ext>`: verified content, named by its hash (ext from the URL, see
///   `CacheNaming`); only a file that passed its size and hash checks is ever renamed in here.
/// - `partial/<sha256 of the URL>.part` and `.json`: downloads in progress and their validators,
///   kept across a crash so they resume (`PartialDownload`).
/// - `index.json`: URL → {sha256, size, etag, lastModified, lastUsed}, always replaced atomically.
///
/// Thread-safe: the filler's download threads store while the player looks files up. Slow work
/// (hashing) runs outside the lock; the index and the renames into media/ change under it.
public final class MediaCache: Sendable {
    public let directory: String
    /// The bound `evict` works towards: media and partial files together.
    public let maxBytes: Int64
    public let mediaDirectory: String
    public let partialDirectory: String
    let indexPath: String
    let digest: any FileDigesting
    let log: @Sendable (String) -> Void
    /// What is worth saying but not an error (a bound the playlist alone exceeds); `log` by default.
    let warn: @Sendable (String) -> Void
    let now: @Sendable () -> Date
    let state: Mutex<State>
    /// URLs whose body ran past what the cache may hold: not fetched again until the config changes
    /// (`forgetOversized`), so a body that never ends does not fill the disk at every check.
    private let oversized = Mutex<[URL: String]>([:])

    struct State {
        var index: MediaCacheIndex
        /// When the index was last written. Lookups only move `lastUsed`; they write it at most
        /// every `lastUsedWriteInterval`, so a looping playlist does not wear the flash.
        var writtenAt: Date
        var hasUnwrittenUse = false
    }

    /// How stale the `lastUsed` times on disk may get (in memory they are exact).
    static let lastUsedWriteInterval: TimeInterval = 600

    /// Creates the folders when missing and reads the index. `now` is injectable for tests of the
    /// eviction order. Throws `cache: cannot create /x: Permission denied` (or `cannot write`).
    public init(directory: String, maxBytes: Int64, digest: any FileDigesting,
                log: @escaping @Sendable (String) -> Void, warn: (@Sendable (String) -> Void)? = nil,
                now: @escaping @Sendable () -> Date = { Date() }) throws(MediaCacheError) {
        self.directory = directory
        self.maxBytes = maxBytes
        mediaDirectory = (directory as NSString).appendingPathComponent("media")
        partialDirectory = (directory as NSString).appendingPathComponent("partial")
        indexPath = (directory as NSString).appendingPathComponent("index.json")
        self.digest = digest
        self.log = log
        self.warn = warn ?? log
        self.now = now
        if let reason = DurableFile.unsafeFolderReason(directory) {
            throw .file("cache: refusing \(reason): anyone who can write there could plant links for the player to follow")
        }
        for folder in [directory, mediaDirectory, partialDirectory] {
            try DurableFile.makeDirectory(folder)
            guard access(folder, W_OK) == 0 else {
                throw .file("cache: cannot write to \(folder): \(String(cString: strerror(errno)))")
            }
        }
        unlink(indexPath + ".tmp")  // a write cut short by a crash
        var (index, problem) = MediaCacheIndex.load(from: indexPath)
        let mediaFiles = Self.regularFiles(in: mediaDirectory)
        if problem == nil, index.entries.isEmpty, !FileManager.default.fileExists(atPath: indexPath), !mediaFiles.isEmpty {
            problem = "cache: \(indexPath) is missing, starting an empty index"
        }
        if let problem {
            log(problem + " (\(mediaFiles.count) files in media/ are unreferenced until downloaded again)")
            index = MediaCacheIndex()
        }
        state = Mutex(State(index: index, writtenAt: now()))
    }

    /// The path of `url`'s verified file, or nil: its index entry exists, the file is there with
    /// the recorded size, and, when `sha256` (the config's) is given, the entry has that hash (a
    /// config naming another hash means the content changed). Marks the entry used. Cheap (a stat).
    public func cachedFile(for url: URL, sha256: String? = nil, size: Int64? = nil) -> String? {
        state.withLock { state -> String? in
            let key = CacheNaming.indexKey(for: url)
            guard let entry = state.index.entries[key] else { return nil }
            if let sha256, sha256.lowercased() != entry.sha256 { return nil }
            if let size, size != entry.size { return nil }
            let path = mediaPath(sha256: entry.sha256, url: url)
            let isPlain = DurableFile.isPlainOwnFile(path)
            guard isPlain, DurableFile.size(of: path) == entry.size else {
                // Removed or altered behind the cache's back (or a link planted in its place, which
                // would play whatever it points at): forget it, it is downloaded again.
                if !isPlain { unlink(path) }
                state.index.entries[key] = nil
                writeIndex(&state)
                return nil
            }
            state.index.entries[key]?.lastUsed = now()
            state.hasUnwrittenUse = true
            if now().timeIntervalSince(state.writtenAt) >= Self.lastUsedWriteInterval { writeIndex(&state) }
            return path
        }
    }

    /// `url`'s index entry, if any (for a conditional re-check with its ETag, and for tests).
    public func entry(for url: URL) -> MediaCacheEntry? {
        state.withLock { $0.index.entries[CacheNaming.indexKey(for: url)] }
    }

    /// Bytes in media/ and partial/ now.
    public var totalBytes: Int64 {
        (Self.regularFiles(in: mediaDirectory) + Self.regularFiles(in: partialDirectory)).reduce(0) { $0 + $1.size }
    }

    /// Writes lookups' `lastUsed` times not yet on disk (at shutdown).
    public func flush() {
        state.withLock { state in
            if state.hasUnwrittenUse { writeIndex(&state) }
        }
    }

    func mediaPath(sha256: String, url: URL) -> String {
        (mediaDirectory as NSString).appendingPathComponent(CacheNaming.mediaFileName(sha256: sha256, url: url))
    }

    /// Writes the index; a failure is logged, not thrown: the index in memory stays right and the
    /// next write carries it.
    func writeIndex(_ state: inout State) {
        do {
            try DurableFile.writeAtomically(state.index.encoded(), to: indexPath, cacheDirectory: directory)
            state.writtenAt = now()
            state.hasUnwrittenUse = false
        } catch {
            log("\(error)")
        }
    }

    /// Name and size of each regular file in `folder`.
    static func regularFiles(in folder: String) -> [(name: String, size: Int64)] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.sorted().compactMap { name in
            DurableFile.size(of: (folder as NSString).appendingPathComponent(name)).map { (name, $0) }
        }
    }

    /// Remembers that `url`'s body outgrew the cache, with the line that said so.
    func markOversized(_ url: URL, reason: String) {
        oversized.withLock { $0[url] = reason }
    }

    /// Why `url` is not fetched again (its body outgrew the cache); nil when it may be.
    func oversizedReason(for url: URL) -> String? {
        oversized.withLock { $0[url] }
    }

    /// A new config: every URL may be tried again.
    public func forgetOversized() {
        oversized.withLock { $0 = [:] }
    }
}
