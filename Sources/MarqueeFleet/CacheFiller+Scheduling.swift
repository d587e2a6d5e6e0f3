import Dispatch
import Foundation
import MarqueeCore
import Synchronization

/// The filler's bookkeeping: which item runs, waits for its back-off, or is done.
extension CacheFiller {
    /// One download thread's run. Cancelled by a `fill` that no longer wants it, or by `stop`.
    final class Job: Sendable {
        let want: CacheWant
        let cancelled = Atomic<Bool>(false)

        init(want: CacheWant) { self.want = want }

        var isCancelled: Bool { cancelled.load(ordering: .relaxed) }
    }

    struct Item {
        var want: CacheWant
        var result: CacheFillResult?
        var job: Job?
        /// Back-off: not started again before this.
        var notBefore: ContinuousClock.Instant?
        var failuresInARow = 0
        var permanentFailures = 0
    }

    struct State {
        var order: [URL] = []
        var items: [URL: Item] = [:]
        var keeping: Set<URL> = []
        var handlers = Handlers()
        /// Download threads not yet returned, by URL: cancelled ones still hold their slot, and no
        /// second thread may write the same part file.
        var liveJobs: [URL: Job] = [:]
        var isSettled = true
        var stopped = false
    }

    struct Start {
        var url: URL
        var job: Job
        var maxBytesPerSecond: Int64?
    }

    /// Starts what the free slots allow, in config order, and reports the set settled when it is.
    func advance(_ state: inout State) -> [Start] {
        var starts = [Start]()
        let now = ContinuousClock.now
        for url in state.order where state.liveJobs.count < options.concurrency {
            guard var item = state.items[url], item.result == nil, item.job == nil, state.liveJobs[url] == nil,
                  item.notBefore.map({ $0 <= now }) ?? true else { continue }
            let job = Job(want: item.want)
            item.job = job
            item.notBefore = nil
            state.items[url] = item
            state.liveJobs[url] = job
            starts.append(Start(url: url, job: job, maxBytesPerSecond: nil))
        }
        let othersWaiting = state.items.values.contains { $0.result == nil && $0.job == nil }
        for index in starts.indices {
            starts[index].maxBytesPerSecond = rate(sharedWithOthers: state.liveJobs.count > 1 || othersWaiting)
        }
        if !state.isSettled, state.items.values.allSatisfy({ $0.result != nil }) {
            state.isSettled = true
            let results = state.items.compactMapValues(\.result)
            let settled = state.handlers.settled
            reports.async { settled(results) }
        }
        return starts
    }

    /// A download's share of `maxBytesPerSecond`: all of it when it is the only one running and
    /// nothing waits, else an equal share of the slots, so the downloads together stay within the
    /// bound (the share is set when a transfer starts; a `fill` that adds items while a lone one
    /// runs at full rate can exceed it until that one ends).
    func rate(sharedWithOthers: Bool) -> Int64? {
        options.maxBytesPerSecond.map { sharedWithOthers ? max(1, $0 / Int64(options.concurrency)) : $0 }
    }

    func start(_ starts: [Start]) {
        for start in starts {
            let thread = Thread { [self] in run(start) }
            thread.name = "marquee-cache-download"
            thread.start()
        }
    }

    private func run(_ start: Start) {
        let job = start.job
        let download = CacheDownload(
            cache: cache, transport: transport, want: job.want, maxBytesPerSecond: start.maxBytesPerSecond,
            progressInterval: options.progressInterval, isCancelled: { job.isCancelled },
            report: { [self] progress in
                guard !job.isCancelled else { return }
                let handler = state.withLock { $0.handlers.progress }
                reports.async { handler(progress) }
            },
            makeRoom: { [self] in
                let keep = state.withLock { Set($0.items.keys).union($0.keeping) }
                cache.evict(keeping: keep, downTo: 0)
            })
        let outcome = download.run()
        let starts = state.withLock { state -> [Start] in
            if state.liveJobs[start.url] === job { state.liveJobs[start.url] = nil }
            if !state.stopped, var item = state.items[start.url], item.job === job {
                item.job = nil
                settle(&item, url: start.url, with: outcome, handlers: state.handlers)
                state.items[start.url] = item
            }
            return state.stopped ? [] : advance(&state)
        }
        self.start(starts)
    }

    /// What an attempt's outcome makes of its item: done, failed for good, or waiting to retry.
    private func settle(_ item: inout Item, url: URL, with outcome: CacheDownload.Outcome, handlers: Handlers) {
        let shownURL = CredentialRedaction.redacted(url.absoluteString)
        var failure: String?
        switch outcome {
        case .cached(let path):
            item.result = .cached(path: path)
        case .cancelled:
            // The client stopped without being asked to: retried like a cut connection.
            item.failuresInARow += 1
            retryLater(&item, line: "cache: \(shownURL): cancelled", quietly: true)
        case .transient(let reason, let madeProgress):
            item.failuresInARow = madeProgress ? 1 : item.failuresInARow + 1
            if item.failuresInARow >= options.retry.transientAttempts {
                failure = "cache: \(shownURL): \(reason) (\(item.failuresInARow) times in a row); left out until the config is next checked"
            } else {
                retryLater(&item, line: "cache: \(shownURL): \(reason)", quietly: true)
            }
        case .permanent(let reason):
            item.failuresInARow += 1
            item.permanentFailures += 1
            if item.permanentFailures >= options.retry.permanentAttempts {
                failure = "cache: \(shownURL): \(reason)"
            } else {
                retryLater(&item, line: "cache: \(shownURL): \(reason)")
            }
        case .oversized(let reason):
            failure = reason
        case .failedForGood(let reason):
            failure = reason.hasPrefix("cache: ") ? "\(reason); \(shownURL) not cached" : "cache: \(shownURL): \(reason)"
        case .leftOut(let reason):
            item.result = .failed(reason)
        }
        if let failure {
            log(failure)
            item.result = .failed(failure)
        }
        if let result = item.result {
            reports.async { handlers.item(url, result) }
        }
    }

    /// Schedules the next attempt after the back-off and logs why. `quietly` (transient failures,
    /// retried for as long as the item is wanted) logs only the 1st, 2nd, 4th, 8th… failure in a
    /// row: days offline with a full playlist stay a few lines an item, not thousands.
    private func retryLater(_ item: inout Item, line: String, quietly: Bool = false) {
        let delay = options.retry.delay(afterFailures: item.failuresInARow, random: Double.random(in: 0..<1))
        item.notBefore = ContinuousClock.now + delay
        let seconds = Double(delay.components.seconds) + Double(delay.components.attoseconds) / 1e18
        let failures = item.failuresInARow
        if !quietly || failures & (failures - 1) == 0 {
            warn(line + String(format: "; retrying in %.1f s (failure %d in a row)", seconds, failures))
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { [weak self] in
            guard let self else { return }
            start(state.withLock { $0.stopped ? [] : advance(&$0) })
        }
    }
}
