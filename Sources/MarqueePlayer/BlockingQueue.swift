import Foundation
import MarqueeCore

/// A bounded FIFO between two real-time threads: the producer blocks while it is full (so a decoder
/// runs only a few frames ahead and memory stays flat), the consumer blocks while it is empty.
/// Closing it wakes both for good: pending pushes are dropped, pops drain what is left, then nil;
/// discarding also drops what is left.
///
/// Besides its count, it may be bounded by what its elements weigh (`byteLimit`, each element's
/// `cost`): an element that would take the queue past the limit waits, unless the queue is empty,
/// so one element always fits however large.
final class BlockingQueue<Element>: @unchecked Sendable {
    private let condition = MonotonicCondition()
    private var elements: [Element] = []
    /// Each element's cost, in step with `elements`.
    private var costs: [Int] = []
    private var queuedBytes = 0
    private var closed = false
    /// Someone asked a waiting producer to look after its queued elements (`nudge`).
    private var nudged = false
    let capacity: Int
    let byteLimit: Int?
    private let cost: @Sendable (Element) -> Int

    init(capacity: Int, byteLimit: Int? = nil, cost: @escaping @Sendable (Element) -> Int = { _ in 0 }) {
        precondition(capacity > 0, "capacity must be positive")
        precondition(byteLimit.map { $0 > 0 } ?? true, "byteLimit must be positive")
        self.capacity = capacity
        self.byteLimit = byteLimit
        self.cost = cost
    }

    /// The queued elements' costs added up.
    var bytes: Int {
        condition.lock()
        defer { condition.unlock() }
        return queuedBytes
    }

    var count: Int {
        condition.lock()
        defer { condition.unlock() }
        return elements.count
    }

    /// Whether an element costing `bytes` fits now. Call under the lock.
    private func hasRoom(for bytes: Int) -> Bool {
        guard elements.count < capacity else { return false }
        guard let byteLimit, !elements.isEmpty else { return true }
        return queuedBytes + bytes <= byteLimit
    }

    /// Call under the lock.
    private func append(_ element: Element, costing bytes: Int) {
        elements.append(element)
        costs.append(bytes)
        queuedBytes += bytes
    }

    /// Call under the lock, with the queue not empty.
    private func removeFirst() -> Element {
        queuedBytes -= costs.removeFirst()
        return elements.removeFirst()
    }

    /// Call under the lock. Returns what was queued, to be let go only after the lock is: an
    /// element's last release may call back into this queue (a converted picture's buffer, given
    /// back, nudges its producer).
    private func removeAll() -> [Element] {
        defer {
            costs.removeAll()
            queuedBytes = 0
        }
        let all = elements
        elements = []
        return all
    }

    /// False once the queue is closed: the producer should stop.
    @discardableResult
    func push(_ element: Element) -> Bool {
        let bytes = cost(element)
        condition.lock()
        defer { condition.unlock() }
        while !hasRoom(for: bytes) && !closed { condition.wait() }
        guard !closed else { return false }
        append(element, costing: bytes)
        condition.broadcast()
        return true
    }

    /// `push`, running `whileWaiting` (outside the lock) each time it has waited `interval` seconds of
    /// real time for room: a producer held back that long can look after things meanwhile.
    @discardableResult
    func push(_ element: Element, checkingEvery interval: Double, whileWaiting: () -> Void, whenNudged: () -> Void = {}) -> Bool {
        let bytes = cost(element)
        condition.lock()
        defer { condition.unlock() }
        guard waitLockedForRoom(for: bytes, checkingEvery: interval, whileWaiting: whileWaiting, whenNudged: whenNudged) else { return false }
        append(element, costing: bytes)
        condition.broadcast()
        return true
    }

    /// Waits, as `push(_:checkingEvery:whileWaiting:)` would, until an element costing `bytes`
    /// fits, and pushes nothing; false once the queue is closed. A producer whose elements are
    /// costly to hold (decoded pictures) waits here before making the next, rather than holding a
    /// made one while it waits.
    func waitForRoom(for bytes: Int, checkingEvery interval: Double, whileWaiting: () -> Void, whenNudged: () -> Void = {}) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        return waitLockedForRoom(for: bytes, checkingEvery: interval, whileWaiting: whileWaiting, whenNudged: whenNudged)
    }

    /// With the lock held: waits until `bytes` fit, running `whileWaiting` without the lock after
    /// each `interval` of waiting, and `whenNudged` (without the lock) after each `nudge`; false
    /// once the queue is closed. The lock is held again on return.
    private func waitLockedForRoom(for bytes: Int, checkingEvery interval: Double, whileWaiting: () -> Void,
                                   whenNudged: () -> Void) -> Bool {
        var deadline = ContinuousClock.now + .seconds(interval)
        while !hasRoom(for: bytes) && !closed {
            if nudged {
                nudged = false
                condition.unlock()
                whenNudged()
                condition.lock()
                continue
            }
            if !condition.wait(until: deadline) {
                condition.unlock()
                whileWaiting()
                condition.lock()
                deadline = ContinuousClock.now + .seconds(interval)
            }
        }
        return !closed
    }

    /// Wakes a producer waiting for room to run its `whenNudged` (a buffer to convert into came
    /// free); one waiting for nothing in particular runs it at its next wait.
    func nudge() {
        condition.lock()
        nudged = true
        condition.broadcast()
        condition.unlock()
    }

    /// Waits until `nudge` is called (true), `seconds` of real time pass, or the queue is emptied
    /// (false for both).
    @discardableResult
    func waitForNudge(seconds: Double) -> Bool {
        let deadline = ContinuousClock.now + .seconds(seconds)
        condition.lock()
        defer { condition.unlock() }
        while !nudged && !elements.isEmpty {
            if !condition.wait(until: deadline) { break }
        }
        defer { nudged = false }
        return nudged
    }

    /// The first queued element `match` maps to something, oldest first, without removing it.
    func firstQueued<Found>(_ match: (Element) -> Found?) -> Found? {
        condition.lock()
        defer { condition.unlock() }
        for element in elements {
            if let found = match(element) { return found }
        }
        return nil
    }

    /// The oldest element; nil only when the queue is closed and empty.
    func pop() -> Element? {
        condition.lock()
        defer { condition.unlock() }
        while elements.isEmpty && !closed { condition.wait() }
        guard !elements.isEmpty else { return nil }
        condition.broadcast()
        return removeFirst()
    }

    /// The oldest element without removing it or waiting; nil when there is none yet.
    func peekIfAvailable() -> Element? {
        condition.lock()
        defer { condition.unlock() }
        return elements.first
    }

    enum TimedPop {
        case element(Element)
        case timedOut
        /// Closed and empty.
        case closed
    }

    /// The oldest element, waiting at most `seconds` of real time.
    func pop(waitingAtMost seconds: Double) -> TimedPop {
        let deadline = ContinuousClock.now + .seconds(seconds)
        condition.lock()
        defer { condition.unlock() }
        while elements.isEmpty && !closed {
            if !condition.wait(until: deadline) { return elements.isEmpty && !closed ? .timedOut : popLocked() }
        }
        return popLocked()
    }

    private func popLocked() -> TimedPop {
        guard !elements.isEmpty else { return .closed }
        condition.broadcast()
        return .element(removeFirst())
    }

    /// Whether the producer is as far ahead as it may go: no room for another element, or, bounded
    /// by bytes, none for another costing what the newest did.
    var isFull: Bool {
        condition.lock()
        defer { condition.unlock() }
        return !hasRoom(for: costs.last ?? 0)
    }

    func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }

    /// Drops what is queued, leaving the queue open: the producer has found it worthless (frames of
    /// a file that changed under its reader) and pushes what replaces it.
    func dropQueued() {
        condition.lock()
        let dropped = removeAll()
        condition.broadcast()
        condition.unlock()
        withExtendedLifetime(dropped) {}
    }

    /// Closes and drops what is queued: the consumer sees nil at once (a cancelled item).
    func discard() {
        condition.lock()
        closed = true
        let dropped = removeAll()
        condition.broadcast()
        condition.unlock()
        withExtendedLifetime(dropped) {}
    }

    var isClosed: Bool {
        condition.lock()
        defer { condition.unlock() }
        return closed
    }
}
