import Dispatch
import Foundation
import MarqueeCore
import Synchronization

/// Makes a config's http(s) media cached: each wanted item that is not cached yet is downloaded
/// into its part file (resuming what a previous run left) and stored, a few at a time, on threads
/// of the filler's own (libcurl blocks: Swift concurrency's pool is no place for it). Transient
/// failures are retried with back-off for as long as the item is wanted; ones that will answer the
/// same (404, a hash mismatch) fail the item after `RetryPolicy.permanentAttempts`, and no item
/// holds back the others. `fill` never blocks; reports come on a serial queue of the filler's.
public final class CacheFiller: Sendable {
    public struct Options: Sendable {
        /// Downloads at a time (at least 1).
        public var concurrency: Int
        /// The whole cache's download rate, split across the downloads (see `rate(forOneOf:)`).
        public var maxBytesPerSecond: Int64?
        public var retry: RetryPolicy
        /// The least time between two progress reports of one download.
        public var progressInterval: Duration

        public init(concurrency: Int = 2, maxBytesPerSecond: Int64? = nil, retry: RetryPolicy = RetryPolicy(),
                    progressInterval: Duration = .milliseconds(500)) {
            self.concurrency = max(1, concurrency)
            self.maxBytesPerSecond = maxBytesPerSecond
            self.retry = retry
            self.progressInterval = progressInterval
        }
    }

    /// What a `fill` reports, in order, on the filler's serial report queue (never on the caller's
    /// thread, never under a lock of the filler's). Items a later `fill` no longer wants report
    /// nothing more; a replaced set's `settled` never comes.
    public struct Handlers: Sendable {
        /// A download's bytes so far: at most once per `progressInterval`, and once at completion.
        public var progress: @Sendable (CacheFillProgress) -> Void
        /// An item cached, or failed for good.
        public var item: @Sendable (URL, CacheFillResult) -> Void
        /// Every item of the set cached or failed for good: each URL's result.
        public var settled: @Sendable ([URL: CacheFillResult]) -> Void

        public init(progress: @escaping @Sendable (CacheFillProgress) -> Void = { _ in },
                    item: @escaping @Sendable (URL, CacheFillResult) -> Void = { _, _ in },
                    settled: @escaping @Sendable ([URL: CacheFillResult]) -> Void = { _ in }) {
            self.progress = progress
            self.item = item
            self.settled = settled
        }
    }

    let cache: MediaCache
    let transport: any HTTPTransferring
    let options: Options
    let log: @Sendable (String) -> Void
    /// A retry to come (the item is not given up on); `log` by default.
    let warn: @Sendable (String) -> Void
    let state = Mutex(State())
    let reports = DispatchQueue(label: "marquee-cache-reports")

    public init(cache: MediaCache, transport: any HTTPTransferring, options: Options = Options(),
                log: @escaping @Sendable (String) -> Void, warn: (@Sendable (String) -> Void)? = nil) {
        self.cache = cache
        self.transport = transport
        self.options = options
        self.log = log
        self.warn = warn ?? log
    }

    /// Replaces the wanted set (a newer config) and returns at once. Items already cached are
    /// reported done straight away; a download the new set still wants (same URL, hash and
    /// security) carries on; one it no longer wants is cancelled, its part file kept for later.
    /// `keeping` names URLs the player may still be showing (the playlist this set replaces): like
    /// the wanted ones, they are never evicted to make room on a full disk.
    public func fill(_ wants: [CacheWant], keeping: Set<URL> = [], handlers: Handlers = Handlers()) {
        let starts = state.withLock { state -> [Start] in
            guard !state.stopped else { return [] }
            var items = [URL: Item]()
            var order = [URL]()
            for want in wants where items[want.url] == nil {
                order.append(want.url)
                if let old = state.items[want.url], old.want == want, old.job != nil {
                    items[want.url] = old
                } else if let path = cache.cachedFile(for: want.url, sha256: want.sha256, size: want.size) {
                    items[want.url] = Item(want: want, result: .cached(path: path))
                    reports.async { handlers.item(want.url, .cached(path: path)) }
                } else {
                    items[want.url] = Item(want: want)
                }
            }
            for (url, old) in state.items where old.job != nil && items[url]?.job !== old.job {
                old.job?.cancelled.store(true, ordering: .relaxed)
            }
            state.items = items
            state.order = order
            state.keeping = keeping
            state.handlers = handlers
            state.isSettled = false
            return advance(&state)
        }
        start(starts)
    }

    /// Cancels every download and forgets the wanted set; waits up to `timeout` for the transfers
    /// to return (their part files closed, kept for the next run). True when they all did. No
    /// report follows, and a stopped filler ignores later fills (shutdown).
    @discardableResult
    public func stop(waitingUpTo timeout: Duration = .seconds(2)) -> Bool {
        let jobs = state.withLock { state -> [Job] in
            state.stopped = true
            state.items = [:]
            state.order = []
            return Array(state.liveJobs.values)
        }
        for job in jobs { job.cancelled.store(true, ordering: .relaxed) }
        let deadline = ContinuousClock.now + timeout
        while state.withLock({ !$0.liveJobs.isEmpty }) {
            guard ContinuousClock.now < deadline else { return false }
            usleep(5_000)
        }
        return true
    }

    /// Downloads running now (cancelled ones that have not returned yet included).
    public var activeDownloads: Int { state.withLock { $0.liveJobs.count } }
}
