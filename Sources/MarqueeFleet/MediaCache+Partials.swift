import Foundation

/// The partial folder: where a download's bytes collect until they are verified and stored.
extension MediaCache {
    /// `url`'s partial download as it is on disk (size 0 when none).
    public func partial(for url: URL) -> PartialDownload {
        PartialDownload(url: url, stem: CacheNaming.partialStem(for: url, digest: digest), partialDirectory: partialDirectory)
    }

    /// Starts `url`'s download over: an empty part file and a sidecar with `validators` (what is
    /// known of the response it will come from; nil fields when nothing is).
    public func startPartial(for url: URL, etag: String? = nil, lastModified: String? = nil) throws(MediaCacheError) -> PartialDownload {
        var partial = partial(for: url)
        partial.validators.etag = etag
        partial.validators.lastModified = lastModified
        let descriptor = open(partial.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw DurableFile.failure("create", partial.path, errno, cacheDirectory: directory) }
        close(descriptor)
        partial.size = 0
        let sidecar = (try? JSONEncoder().encode(partial.validators)) ?? Data()
        try DurableFile.writeAtomically(sidecar, to: partial.sidecarPath, cacheDirectory: directory)
        return partial
    }

    /// Removes `url`'s part file and sidecar.
    public func discardPartial(for url: URL) {
        let partial = partial(for: url)
        unlink(partial.path)
        unlink(partial.sidecarPath)
    }
}
