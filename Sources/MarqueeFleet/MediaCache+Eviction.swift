import Foundation
import MarqueeCore

/// What one `evict` call removed.
public struct CacheEviction: Sendable, Equatable {
    /// Names of the media files removed, in the order they went (least recently used first).
    public var removedFiles: [String] = []
    /// Partial downloads removed (their URLs were not referenced).
    public var removedPartials = 0
    public var freedBytes: Int64 = 0
    /// Bytes in media/ and partial/ afterwards: above `maxBytes` only when the referenced files
    /// alone exceed it.
    public var totalBytes: Int64 = 0
}

/// Keeping the cache within `maxBytes`.
extension MediaCache {
    /// Drops the partial downloads of URLs not in `referenced`, then, while media and partial
    /// files together exceed `bound` (`maxBytes` unless given; 0 to free all it may on a full
    /// disk), removes media files no referenced URL names, least recently used first (files no
    /// index entry names, e.g. after a lost index, go first). A referenced file is never removed,
    /// even when that leaves the cache over its bound. Logs one line when it freed anything, and
    /// one when the referenced files alone exceed `maxBytes`.
    @discardableResult
    public func evict(keeping referenced: Set<URL>, downTo bound: Int64? = nil) -> CacheEviction {
        let bound = bound ?? maxBytes
        return state.withLock { state in
            var eviction = CacheEviction()
            let keptStems = Set(referenced.map { CacheNaming.partialStem(for: $0, digest: digest) })
            var partialBytes: Int64 = 0
            for file in Self.regularFiles(in: partialDirectory) {
                let stem = String(file.name.prefix { $0 != "." })
                guard !keptStems.contains(stem) else {
                    partialBytes += file.size
                    continue
                }
                unlink((partialDirectory as NSString).appendingPathComponent(file.name))
                eviction.freedBytes += file.size
                if file.name.hasSuffix(".part") { eviction.removedPartials += 1 }
            }

            let media = Self.regularFiles(in: mediaDirectory)
            let usage = fileUsage(state.index, referenced: referenced)
            let plan = EvictionPlan(files: media.map { file in
                EvictionPlan.File(name: file.name, size: file.size, lastUsed: usage.lastUsed[file.name],
                                  isReferenced: usage.protected.contains(file.name))
            }, otherBytes: partialBytes, bound: bound)
            for name in plan.removals {
                unlink((mediaDirectory as NSString).appendingPathComponent(name))
            }
            eviction.removedFiles = plan.removals
            eviction.freedBytes += media.filter { plan.removals.contains($0.name) }.reduce(0) { $0 + $1.size }
            // Forget entries whose file is gone (evicted now, or removed by hand).
            let present = Set(media.map(\.name)).subtracting(eviction.removedFiles)
            let before = state.index.entries.count
            state.index.entries = state.index.entries.filter { key, _ in usage.fileName[key].map(present.contains) ?? false }
            if !eviction.removedFiles.isEmpty || eviction.removedPartials > 0 {
                try? DurableFile.sync(mediaDirectory, cacheDirectory: directory)
                try? DurableFile.sync(partialDirectory, cacheDirectory: directory)
            }
            if state.index.entries.count != before { writeIndex(&state) }
            eviction.totalBytes = plan.totalAfter
            report(eviction, bound: bound)
            return eviction
        }
    }

    /// For each media file name: whether a referenced URL names it, and when it was last used.
    private func fileUsage(_ index: MediaCacheIndex, referenced: Set<URL>)
        -> (protected: Set<String>, lastUsed: [String: Date], fileName: [String: String]) {
        let referencedKeys = Set(referenced.map(CacheNaming.indexKey(for:)))
        var protected = Set<String>()
        var lastUsed = [String: Date]()
        var fileName = [String: String]()
        for (key, entry) in index.entries {
            guard let url = URL(string: key) else { continue }
            let name = CacheNaming.mediaFileName(sha256: entry.sha256, url: url)
            fileName[key] = name
            if referencedKeys.contains(key) { protected.insert(name) }
            lastUsed[name] = max(lastUsed[name] ?? .distantPast, entry.lastUsed)
        }
        return (protected, lastUsed, fileName)
    }

    /// What was freed is the caller's to say (it knows why); a bound that cannot be kept is said here.
    private func report(_ eviction: CacheEviction, bound: Int64) {
        if eviction.totalBytes > bound, bound == maxBytes {
            warn("cache: \(Self.megabytes(eviction.totalBytes)) in use is over the \(Self.megabytes(maxBytes)) bound, "
                + "with only referenced files and their downloads left")
        }
    }

    static func megabytes(_ bytes: Int64) -> String {
        String(format: "%.1f MB", Double(bytes) / 1_000_000)
    }
}
