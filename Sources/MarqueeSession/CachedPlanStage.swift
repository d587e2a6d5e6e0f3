import Foundation
import Logging
import MarqueeCore
import MarqueeFleet
import MarqueePlayer

/// Puts a plan's remote media in the cache before the player gets the plan: every cached item is
/// downloaded and verified first, then the plan goes to the player reading the verified copies
/// (at the item boundary, as a reload does). An item that fails for good is left out, with its
/// error line, and does not hold back the rest. A newer plan staged meanwhile replaces the one
/// waiting (its downloads still wanted carry on). Runs on the filler's threads, never the
/// present thread.
package final class CachedPlanStage: @unchecked Sendable {
    /// Where a staged plan goes once its media are in place.
    package typealias Delivery = @Sendable (PlaybackPlan) -> Void

    package let cache: MediaCache
    private let filler: CacheFiller
    private let security: @Sendable (URL) -> HTTPSecurity
    private let post: @Sendable (PlayerEvent) -> Void
    private let logger: Logger
    private let lock = NSLock()
    /// Under `lock`: which staging is current (a newer one makes older reports moot).
    private var generation = 0
    /// Under `lock`: the current set's downloads and results, for the status and the card.
    private var wanted: [URL] = []
    private var progress: [URL: (bytes: Int64, total: Int64?)] = [:]
    private var results: [URL: CacheFillResult] = [:]
    /// Under `lock`: the media the player may be reading (the plan delivered last, and the one
    /// before it, whose item on screen plays to its end): never evicted.
    private var inUse: [Set<URL>] = []
    /// Under `lock`: tells the player's status card how the downloads go while nothing plays.
    private var note: (@Sendable (String?) -> Void)?
    /// Under `lock`: the plan delivered last when some of its media were left out, and where it
    /// went: `retryFailed` stages it again.
    private var incomplete: (plan: PlaybackPlan, deliver: Delivery)?
    /// Under `lock`: told if the plan being staged now is replaced by a newer one before it is delivered.
    private var supersededCallback: (@Sendable () -> Void)?
    /// Under `lock`: the url of the item on screen. It may be from a playlist several changes
    /// old (an item plays to its end however often the playlist changes meanwhile): never evicted.
    private var playing: (@Sendable () -> String?)?

    package init(cache: MediaCache, filler: CacheFiller, security: @escaping @Sendable (URL) -> HTTPSecurity,
         post: @escaping @Sendable (PlayerEvent) -> Void, logger: Logger) {
        self.cache = cache
        self.filler = filler
        self.security = security
        self.post = post
        self.logger = logger
    }

    package func attach(note: @escaping @Sendable (String?) -> Void, playing: @escaping @Sendable () -> String?) {
        lock.withLock {
            self.note = note
            self.playing = playing
        }
    }

    /// Downloads what `plan` needs, then hands it to `deliver`; returns at once. `superseded` is
    /// called instead if a newer plan is staged before this one is delivered.
    package func stage(_ plan: PlaybackPlan, deliver: @escaping Delivery, superseded: (@Sendable () -> Void)? = nil,
                       retrying: Bool = false) {
        // A new config may name a body that outgrew the cache again: it is given another try.
        if !retrying { cache.forgetOversized() }
        let wants = plan.cacheWants(security: security)
        let (current, keeping, replaced) = lock.withLock { () -> (Int, Set<URL>, (@Sendable () -> Void)?) in
            let replaced = supersededCallback
            supersededCallback = superseded
            generation += 1
            incomplete = nil
            wanted = wants.map(\.url)
            progress = [:]
            results = [:]
            return (generation, inUse.reduce(into: Set<URL>()) { $0.formUnion($1) }, replaced)
        }
        replaced?()
        guard !wants.isEmpty else {
            settle(plan, results: [:], generation: current, deliver: deliver)
            return
        }
        logger.info("cache: \(wants.count) remote item\(wants.count == 1 ? "" : "s") to have in \(cache.directory) before the playlist plays")
        filler.fill(wants, keeping: keeping, handlers: CacheFiller.Handlers(
            progress: { [weak self] update in self?.record(update, generation: current) },
            item: { [weak self] url, result in self?.record(url, result, generation: current) },
            settled: { [weak self] results in self?.settle(plan, results: results, generation: current, deliver: deliver) }))
        updateNote()
    }

    private func record(_ update: CacheFillProgress, generation staged: Int) {
        guard lock.withLock({ () -> Bool in
            guard staged == generation else { return false }
            progress[update.url] = (update.bytesOnDisk, update.expectedTotal)
            return true
        }) else { return }
        post(.downloadProgress(url: CredentialRedaction.redacted(update.url.absoluteString), bytes: update.bytesOnDisk,
                               total: update.expectedTotal, state: .downloading))
        updateNote()
    }

    private func record(_ url: URL, _ result: CacheFillResult, generation staged: Int) {
        let bytes = lock.withLock { () -> Int64?? in
            guard staged == generation else { return nil }
            results[url] = result
            return .some(progress[url]?.bytes)
        }
        guard let bytes else { return }
        // Room is made as each file lands, so the cache is over its bound for moments only.
        if result.path != nil { makeRoom() }
        let size = result.path.flatMap { try? FileManager.default.attributesOfItem(atPath: $0)[.size] as? Int64 }
        let onDisk = size ?? bytes ?? 0
        post(.downloadProgress(url: CredentialRedaction.redacted(url.absoluteString), bytes: onDisk,
                               total: result.path == nil ? nil : onDisk, state: result.path == nil ? .failed : .cached))
        updateNote()
    }

    private func settle(_ plan: PlaybackPlan, results: [URL: CacheFillResult], generation staged: Int, deliver: @escaping Delivery) {
        let urls = Set(plan.cachedMedia.values.map(\.url))
        guard lock.withLock({ () -> Bool in
            guard staged == generation else { return false }
            supersededCallback = nil
            inUse = Array((inUse + [urls]).suffix(2))
            return true
        }) else { return }
        let failed = results.values.filter { $0.path == nil }.count
        if failed > 0 { lock.withLock { if staged == generation { incomplete = (plan, deliver) } } }
        if !urls.isEmpty {
            logger.info("cache: \(urls.count - failed) of \(urls.count) remote items in place\(failed == 0 ? "" : "; \(failed) left out")")
        }
        // The playlist before the one playing is no longer named: its files may go now.
        makeRoom()
        deliver(plan.readingCachedCopies(results))
        lock.withLock { note }?(nil)
    }

    /// Evicts what neither the playlist playing, the one it replaced, the one being downloaded
    /// (its part files included) nor the item on screen names, down to the bound.
    private func makeRoom() {
        var (keeping, playing) = lock.withLock { (inUse.reduce(into: Set(wanted)) { $0.formUnion($1) }, self.playing) }
        if let url = playing?().flatMap(URL.init(string:)) { keeping.insert(url) }
        let eviction = cache.evict(keeping: keeping)
        if !eviction.removedFiles.isEmpty {
            logger.info("cache: evicted \(eviction.removedFiles.count) file\(eviction.removedFiles.count == 1 ? "" : "s") no playlist names (\(eviction.freedBytes) bytes)")
        }
    }

    /// The config was checked and is unchanged: media left out of the playlist playing are tried
    /// again, and the playlist gains them once they are in. Returns at once.
    package func retryFailed() {
        guard let (plan, deliver) = lock.withLock({ incomplete }) else { return }
        logger.info("cache: trying again the media left out of the playlist playing")
        stage(plan, deliver: deliver, retrying: true)
    }

    /// "Downloading 2 of 5 files (34 of 120 MB)" on the card while the first playlist waits.
    private func updateNote() {
        let (text, note) = lock.withLock { () -> (String, (@Sendable (String?) -> Void)?) in
            let done = results.values.filter { $0.path != nil }.count
            let bytes = progress.values.reduce(Int64(0)) { $0 + $1.bytes }
            let totals = progress.values.compactMap(\.total)
            let megabytes = { (value: Int64) in String(format: "%.0f", Double(value) / 1_048_576) }
            var text = "Downloading: \(done) of \(wanted.count) files ready"
            if !progress.isEmpty {
                text += totals.count == progress.count ? " (\(megabytes(bytes)) of \(megabytes(totals.reduce(0, +))) MB)" : " (\(megabytes(bytes)) MB)"
            }
            if let failure = results.values.compactMap({ if case .failed(let why) = $0 { why } else { nil } }).first {
                text += "; \(failure)"
            }
            return (text, self.note)
        }
        note?(text)
    }

    /// `status`'s `cache` object.
    package func status() -> StatusDocument.CacheStatus {
        // Listing the cache's folders is I/O: done before the lock the download reports take.
        let bytes = cache.totalBytes
        return lock.withLock {
            StatusDocument.CacheStatus(
                dir: cache.directory, bytes: bytes, maxBytes: cache.maxBytes < Int64.max ? cache.maxBytes : nil,
                wanted: wanted.count, cached: results.values.filter { $0.path != nil }.count,
                downloading: wanted.filter { results[$0] == nil }.compactMap { url in
                    progress[url].map { StatusDocument.CacheStatus.Download(url: CredentialRedaction.redacted(url.absoluteString),
                                                                           bytes: $0.bytes, total: $0.total) }
                },
                failed: results.compactMap { url, result in
                    guard case .failed(let why) = result else { return nil }
                    return StatusDocument.CacheStatus.Failure(url: CredentialRedaction.redacted(url.absoluteString), error: why)
                })
        }
    }

    package func stop() {
        _ = filler.stop(waitingUpTo: .seconds(1))
    }
}
