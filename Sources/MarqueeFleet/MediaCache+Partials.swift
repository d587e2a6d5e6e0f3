import Foundation
import MarqueeCore

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
        close(try DurableFile.createFresh(partial.path, cacheDirectory: directory))
        partial.size = 0
        let sidecar = (try? JSONEncoder().encode(partial.validators)) ?? Data()
        try DurableFile.writeAtomically(sidecar, to: partial.sidecarPath, cacheDirectory: directory)
        return partial
    }

    /// Records the validators of the response the part's bytes now come from (a fresh 200, or a
    /// 206 that had none recorded), keeping the bytes: a transfer cut later resumes with `If-Range`.
    public func recordValidators(of head: HTTPResponseHead, for url: URL) {
        var partial = partial(for: url)
        guard head.etag != nil || head.lastModified != nil,
              head.resumedFrom == 0 || partial.validators.ifRange == nil else { return }
        partial.validators.etag = head.etag
        partial.validators.lastModified = head.lastModified
        let sidecar = (try? JSONEncoder().encode(partial.validators)) ?? Data()
        // Without the record the download still resumes when a sha256 checks it, else starts over.
        try? DurableFile.writeAtomically(sidecar, to: partial.sidecarPath, cacheDirectory: directory)
    }

    /// Removes `url`'s part file and sidecar.
    public func discardPartial(for url: URL) {
        let partial = partial(for: url)
        unlink(partial.path)
        unlink(partial.sidecarPath)
    }
}
