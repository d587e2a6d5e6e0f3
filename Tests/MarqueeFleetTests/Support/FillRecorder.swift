import Foundation
import MarqueeFleet
import Synchronization

/// Everything a fill reported, and a wait for the set to settle.
final class FillRecorder: Sendable {
    private let state = Mutex(Events())

    struct Events {
        var progress: [CacheFillProgress] = []
        var items: [(URL, CacheFillResult)] = []
        var settled: [[URL: CacheFillResult]] = []
    }

    var handlers: CacheFiller.Handlers {
        CacheFiller.Handlers(
            progress: { [self] event in state.withLock { $0.progress.append(event) } },
            item: { [self] url, result in state.withLock { $0.items.append((url, result)) } },
            settled: { [self] results in state.withLock { $0.settled.append(results) } })
    }

    var events: Events { state.withLock { $0 } }

    /// The first settled report, waiting up to `timeout`.
    func settled(within timeout: Duration = .seconds(20)) -> [URL: CacheFillResult]? {
        wait(until: timeout) { $0.settled.first }
    }

    func wait<T>(until timeout: Duration, _ found: (Events) -> T?) -> T? {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let value = found(events) { return value }
            usleep(5_000)
        }
        return found(events)
    }
}
