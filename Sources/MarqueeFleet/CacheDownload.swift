import Foundation
import MarqueeCore

/// One wanted item's turn on a download thread: done at once when cached; else it resumes or
/// starts its part file, downloads, and stores the result. Blocks until the item is cached, the
/// attempt failed, or it is cancelled. The filler decides what a failure leads to.
struct CacheDownload {
    enum Outcome: Equatable {
        case cached(path: String)
        case cancelled
        /// Worth another try soon; `madeProgress` when the part grew before the failure.
        case transient(String, madeProgress: Bool)
        /// Will likely fail the same way again: counts towards `RetryPolicy.permanentAttempts`.
        case permanent(String)
        /// No retry helps (the disk stays full after an eviction).
        case failedForGood(String)
        /// Its body outgrew the whole cache: said once, as it is, and not fetched again until the
        /// config changes.
        case oversized(String)
        /// Refused without a try, for a reason already logged (a body that outgrew the cache).
        case leftOut(String)
    }

    /// What one transfer led to, before the retries within this turn.
    private enum Step {
        case done(Outcome)
        case diskFull
        /// The part was bad (a size or hash mismatch after a resume, a refused range): try once
        /// more from byte 0 before calling it a failure.
        case startOver(String)
    }

    let cache: MediaCache
    let transport: any HTTPTransferring
    let want: CacheWant
    let maxBytesPerSecond: Int64?
    let progressInterval: Duration
    let isCancelled: () -> Bool
    let report: (CacheFillProgress) -> Void
    /// Frees space on a full disk (evicts what the filler's wanted set does not reference).
    let makeRoom: () -> Void

    func run() -> Outcome {
        if let sha256 = want.sha256, !CacheNaming.isSHA256(sha256) {
            return .failedForGood("sha256 \(sha256) is not 64 hex digits")  // no download could match it
        }
        if let path = cache.cachedFile(for: want.url, sha256: want.sha256, size: want.size) { return .cached(path: path) }
        if let sha256 = want.sha256, let path = cache.adoptExisting(url: want.url, sha256: sha256) { return .cached(path: path) }
        // Said once, when its body ran over; not fetched again until the config changes.
        if let reason = cache.oversizedReason(for: want.url) { return .leftOut(reason) }
        var madeRoom = false
        var startedOver = false
        while !isCancelled() {
            switch transfer() {
            case .done(let outcome):
                return outcome
            case .diskFull:
                if madeRoom {
                    // Its part would hold the space for good (nothing evicts a wanted item's part):
                    // dropped, the other items, and the config kept beside them, have room.
                    cache.discardPartial(for: want.url)
                    return .failedForGood(MediaCacheError.diskFull(directory: cache.directory).description)
                }
                madeRoom = true
                makeRoom()
            case .startOver(let reason):
                if startedOver { return .permanent(reason) }
                startedOver = true
            }
        }
        return .cancelled
    }

    private func transfer() -> Step {
        let url = want.url
        var partial = cache.partial(for: url)
        // A part that is not a plain file of ours (a link planted in the cache) is never written
        // through: it goes, and the download starts afresh.
        if partial.size > 0, !DurableFile.isPlainOwnFile(partial.path) {
            cache.log("cache: \(partial.path) is not a plain file of the player's own (a link?); removed, downloading afresh")
            cache.discardPartial(for: url)
            partial = cache.partial(for: url)
        }
        let resuming = partial.isResumable(verifiedBy: want.sha256)
        if !resuming {
            do { partial = try cache.startPartial(for: url) } catch { return step(for: error) }
        }
        var request = HTTPRequest(url: url, resumeFrom: partial.size, ifRange: resuming ? partial.validators.ifRange : nil,
                                  maxBytesPerSecond: maxBytesPerSecond, security: want.security)
        // A server that never ends a body (or lies about it) must not fill the disk: no file may
        // be larger than the whole cache, nor than the size its config gives.
        request.maxFileBytes = [cache.maxBytes, want.size].compactMap { $0 }.min()
        let clock = ContinuousClock()
        var lastReport: ContinuousClock.Instant?
        let head: HTTPResponseHead
        do {
            head = try transport.download(request, appendingTo: partial.path, onHead: { head in
                cache.recordValidators(of: head, for: url)
            }) { bytesOnDisk, expectedTotal in
                if isCancelled() { return false }
                let now = clock.now
                if lastReport.map({ now - $0 >= progressInterval }) ?? true {
                    lastReport = now
                    report(CacheFillProgress(url: url, bytesOnDisk: bytesOnDisk, expectedTotal: expectedTotal))
                }
                return true
            }
        } catch {
            if case .tooLarge(let limit) = error {
                cache.discardPartial(for: url)
                let bound = if let size = want.size, size == limit { "than its size: in the config (\(limit) bytes)" } else { "than the whole cache may hold (\(limit) bytes, cache.maxBytes)" }
                let reason = "cache: \(CredentialRedaction.redacted(url.absoluteString)): larger \(bound); left out until the config changes"
                cache.markOversized(url, reason: reason)
                return .done(.oversized(reason))
            }
            return step(for: error, resumedFrom: partial.size)
        }
        let path: String
        do {
            path = try cache.store(downloadOf: url, head: head, expectedSHA256: want.sha256, expectedSize: want.size)
        } catch {
            switch error {
            case .sizeMismatch where head.resumedFrom > 0, .sha256Mismatch where head.resumedFrom > 0:
                return .startOver(error.description)  // the part was deleted: the next transfer is fresh
            default:
                return step(for: error)
            }
        }
        let size = DurableFile.size(of: path) ?? 0
        report(CacheFillProgress(url: url, bytesOnDisk: size, expectedTotal: size))
        return .done(.cached(path: path))
    }

    private func step(for error: HTTPTransferError, resumedFrom: Int64) -> Step {
        if case .cancelled = error { return .done(.cancelled) }
        if error.isDiskFull { return .diskFull }
        if case .status(416) = error, resumedFrom > 0 {
            // The range starts at or past the server's end: the part is already whole (a crash
            // came between the last byte and the store), or the file on the server shrank.
            if want.sha256 != nil,
               let path = try? cache.store(downloadOf: want.url, head: HTTPResponseHead(status: 206, effectiveURL: want.url),
                                           expectedSHA256: want.sha256) {
                return .done(.cached(path: path))
            }
            cache.discardPartial(for: want.url)
            return .startOver(error.description)
        }
        let grew = cache.partial(for: want.url).size > resumedFrom
        return .done(error.isTransient ? .transient(error.description, madeProgress: grew) : .permanent(error.description))
    }

    private func step(for error: MediaCacheError) -> Step {
        if case .diskFull = error { return .diskFull }
        return .done(.permanent(error.description))
    }
}

extension HTTPTransferError {
    /// A write into the cache failed for want of space (the client names ENOSPC in `.file`).
    var isDiskFull: Bool {
        guard case .file(let reason) = self else { return false }
        let lowered = reason.lowercased()
        return lowered.contains("no space left") || lowered.contains("enospc")
    }
}
