import MarqueeCore

/// What other threads ask of the present thread, in order, and the two facts every thread may
/// ask about it: a shutdown was asked for (sticky), and the run loop has ended. Any thread may
/// append and shut down; only the present thread takes and waits for work.
final class RequestQueue<Request>: @unchecked Sendable {
    // @unchecked: every field is read and written under `condition`'s lock.
    private let condition = MonotonicCondition()
    private var pending: [Request] = []
    private var isShutDown = false
    /// When the shutdown was first asked for: from then on, waiting for the run loop is bounded.
    private var shutDownAt: ContinuousClock.Instant?
    private var hasEnded = false

    /// Queues requests as one batch: the present thread takes none before the last is queued.
    func append(contentsOf requests: [Request]) {
        condition.withLock {
            pending.append(contentsOf: requests)
            condition.broadcast()
        }
    }

    /// The run loop is to stop for good; returns at once.
    func shutDown() {
        condition.withLock {
            isShutDown = true
            if shutDownAt == nil { shutDownAt = .now }
            condition.broadcast()
        }
    }

    var shouldStop: Bool { condition.withLock { isShutDown } }

    /// A request or a shutdown is waiting.
    var hasWork: Bool { condition.withLock { !pending.isEmpty || isShutDown } }

    /// Every request queued so far, oldest first; the queue is empty afterwards.
    func takeAll() -> [Request] {
        condition.withLock {
            defer { pending = [] }
            return pending
        }
    }

    /// Waits until there is work or `seconds` have passed; true when there is work.
    @discardableResult
    func waitForWork(seconds: Double) -> Bool {
        condition.withLock {
            if pending.isEmpty && !isShutDown { _ = condition.wait(seconds: seconds) }
            return !pending.isEmpty || isShutDown
        }
    }

    /// Waits until there is work or `deadline` has come; true when there is work.
    @discardableResult
    func waitForWork(until deadline: ContinuousClock.Instant) -> Bool {
        condition.withLock {
            if pending.isEmpty && !isShutDown { _ = condition.wait(until: deadline) }
            return !pending.isEmpty || isShutDown
        }
    }

    /// The run loop has ended (on the present thread, as its last act).
    func markEnded() {
        condition.withLock {
            hasEnded = true
            condition.broadcast()
        }
    }

    /// Blocks until the run loop has ended. With a `grace`, waits at most that long after a
    /// shutdown: false when the run loop is still stuck then (a driver call that never returns).
    func waitUntilEnded(graceAfterShutDown grace: Double?) -> Bool {
        condition.withLock {
            while !hasEnded {
                if let grace, let shutDownAt {
                    if !condition.wait(until: shutDownAt + .seconds(grace)) { return hasEnded }
                } else {
                    condition.wait()
                }
            }
            return true
        }
    }
}
