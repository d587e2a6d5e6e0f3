import Foundation

/// A bounded FIFO between two real-time threads: the producer blocks while it is full (so a decoder
/// runs only a few frames ahead and memory stays flat), the consumer blocks while it is empty.
/// Closing it wakes both for good: pending pushes are dropped, pops drain what is left, then nil.
final class BlockingQueue<Element>: @unchecked Sendable {
    private let condition = NSCondition()
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

    /// The oldest element; nil only when the queue is closed and empty.
    func pop() -> Element? {
        condition.lock()
        defer { condition.unlock() }
        while elements.isEmpty && !closed { condition.wait() }
        guard !elements.isEmpty else { return nil }
        condition.broadcast()
        return elements.removeFirst()
    }

    /// The oldest element without removing it, waiting for one; nil when closed and empty.
    func peek() -> Element? {
        condition.lock()
        defer { condition.unlock() }
        while elements.isEmpty && !closed { condition.wait() }
        return elements.first
    }

    func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }

    var isClosed: Bool {
        condition.lock()
        defer { condition.unlock() }
        return closed
    }
}
