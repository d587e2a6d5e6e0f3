import Foundation
import MarqueeCore

/// A bounded FIFO between two real-time threads: the producer blocks while it is full (so a decoder
/// runs only a few frames ahead and memory stays flat), the consumer blocks while it is empty.
/// Closing it wakes both for good: pending pushes are dropped, pops drain what is left, then nil;
/// discarding also drops what is left.
final class BlockingQueue<Element>: @unchecked Sendable {
    private let condition = MonotonicCondition()
    private var elements: [Element] = []
    private var closed = false
    let capacity: Int

    init(capacity: Int) {
        precondition(capacity > 0, "capacity must be positive")
        self.capacity = capacity
    }

    /// False once the queue is closed: the producer should stop.
    @discardableResult
    func push(_ element: Element) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while elements.count >= capacity && !closed { condition.wait() }
        guard !closed else { return false }
        elements.append(element)
        condition.broadcast()
        return true
    }

    /// `push`, running `whileWaiting` (outside the lock) each time it has waited `interval` seconds of
    /// real time for room: a producer held back that long can look after things meanwhile.
    @discardableResult
    func push(_ element: Element, checkingEvery interval: Double, whileWaiting: () -> Void) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        var deadline = ContinuousClock.now + .seconds(interval)
        while elements.count >= capacity && !closed {
            if !condition.wait(until: deadline) {
                condition.unlock()
                whileWaiting()
                condition.lock()
                deadline = ContinuousClock.now + .seconds(interval)
            }
        }
        guard !closed else { return false }
        elements.append(element)
        condition.broadcast()
        return true
    }

    /// The oldest element; nil only when the queue is closed and empty.
    func pop() -> Element? {
        condition.lock()
        defer { condition.unlock() }
        while elements.isEmpty && !closed { condition.wait() }
        guard !elements.isEmpty else { return nil }
        condition.broadcast()
        return elements.removeFirst()
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
        return .element(elements.removeFirst())
    }

    /// Whether the producer is as far ahead as it may go.
    var isFull: Bool {
        condition.lock()
        defer { condition.unlock() }
        return elements.count >= capacity
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
        elements.removeAll()
        condition.broadcast()
        condition.unlock()
    }

    /// Closes and drops what is queued: the consumer sees nil at once (a cancelled item).
    func discard() {
        condition.lock()
        closed = true
        elements.removeAll()
        condition.broadcast()
        condition.unlock()
    }

    var isClosed: Bool {
        condition.lock()
        defer { condition.unlock() }
        return closed
    }
}
