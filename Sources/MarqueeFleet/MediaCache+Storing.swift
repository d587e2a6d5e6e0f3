import Foundation
import MarqueeCore

/// Turning a finished download into a verified media file.
extension MediaCache {
    /// Stores `url`'s finished part file: fsyncs it, checks its size against what the server
    /// announced (`head.resumedFrom + head.contentLength`) and the config's `expectedSize`, hashes it and checks the hash against
    /// the config's `expectedSHA256`, then renames it to `media/<sha256>.<ext>` (same filesystem:
    /// atomic), fsyncs the folders and records it in the index. A part that fails a check is
    /// deleted: a file that does not match never reaches media/. When a file with that content is
    /// already there (another URL, same bytes), the URL shares it. Returns the media file's path.
    public func store(downloadOf url: URL, head: HTTPResponseHead, expectedSHA256: String?, expectedSize: Int64? = nil) throws(MediaCacheError) -> String {
        let partial = partial(for: url)
        try DurableFile.sync(partial.path, cacheDirectory: directory)
        let size = DurableFile.size(of: partial.path) ?? 0
        if let length = head.contentLength, size != head.resumedFrom + length {
            discardPartial(for: url)
            throw .sizeMismatch(got: size, expected: head.resumedFrom + length)
        }
        if let expectedSize, size != expectedSize {
            discardPartial(for: url)
            throw .sizeMismatch(got: size, expected: expectedSize)
        }
        let sha256: String
        do {
            sha256 = try digest.sha256(ofFileAt: partial.path)
        } catch {
            throw .file("\(error)")
        }
        if let expected = expectedSHA256?.lowercased(), expected != sha256 {
            discardPartial(for: url)
            throw .sha256Mismatch(got: sha256, expected: expected)
        }
        let target = mediaPath(sha256: sha256, url: url)
        try state.withLock { (state: inout State) throws(MediaCacheError) in
            if DurableFile.size(of: target) == size {
                unlink(partial.path)  // the same bytes are already stored
            } else {
                try DurableFile.makeDirectory(mediaDirectory)  // deleted while playing: made again
                guard rename(partial.path, target) == 0 else {
                    throw DurableFile.failure("rename", partial.path, errno, cacheDirectory: directory)
                }
                try DurableFile.sync(mediaDirectory, cacheDirectory: directory)
            }
            unlink(partial.sidecarPath)
            try DurableFile.sync(partialDirectory, cacheDirectory: directory)
            state.index.entries[CacheNaming.indexKey(for: url)] = MediaCacheEntry(
                sha256: sha256, size: size, etag: head.etag, lastModified: head.lastModified, lastUsed: now())
            writeIndex(&state)
        }
        return target
    }

    /// `url`'s file when media/ holds a file named by the config's `sha256` (under the name the URL
    /// would get) that no index entry names: one left unreferenced by a lost index. It is hashed
    /// again first (a file whose bytes are not its name is deleted), then recorded for `url`. A
    /// file another URL's entry names is not adopted: each URL is fetched from its own server, so
    /// one that serves other bytes than its config says fails, as it must, even when the right
    /// bytes are at hand from elsewhere. May hash a large file: call it from a download thread.
    public func adoptExisting(url: URL, sha256: String) -> String? {
        let sha256 = sha256.lowercased()
        guard CacheNaming.isSHA256(sha256) else { return nil }
        let target = mediaPath(sha256: sha256, url: url)
        guard let size = DurableFile.size(of: target), !isNamedByAnEntry(target) else { return nil }
        guard (try? digest.sha256(ofFileAt: target)) == sha256 else {
            log("cache: \(target) does not hold the content its name says, removing it")
            unlink(target)
            return nil
        }
        return state.withLock { state -> String? in
            guard DurableFile.size(of: target) == size else { return nil }  // evicted meanwhile
            state.index.entries[CacheNaming.indexKey(for: url)] = MediaCacheEntry(sha256: sha256, size: size, lastUsed: now())
            writeIndex(&state)
            return target
        }
    }

    private func isNamedByAnEntry(_ path: String) -> Bool {
        state.withLock { state in
            state.index.entries.contains { key, entry in
                URL(string: key).map { mediaPath(sha256: entry.sha256, url: $0) } == path
            }
        }
    }
}
