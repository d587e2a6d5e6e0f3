import Synchronization

/// How late each presented frame went on screen, handed from the present thread to whoever
/// counts it (the metrics' histogram) without a lock: a ring of fixed size with one writer (the
/// present thread) and one reader at a time. Writing is two atomic loads and a store; the present
/// thread never waits for a reader, however slow or preempted it is. When the ring is full (no one
/// reads, e.g. metrics are off) a sample is not kept, and the writer moves on.
///
/// The readers are the event delivery thread and a scrape: they take `readers` among themselves,
/// never a lock the writer knows of.
public final class LatenessSamples: @unchecked Sendable {
    /// Samples in nanoseconds; slots `[read, write)` modulo `capacity` hold the unread ones.
    private let slots: UnsafeMutablePointer<Int64>
    private let capacity: Int
    /// Counts of samples written and read since the start; they only grow.
    private let written = Atomic<Int>(0)
    private let read = Atomic<Int>(0)
    private let readers = Mutex(())

    /// 1024: about 17 s of 60 fps, far longer than the event delivery thread lets pass between reads.
    public init(capacity: Int = 1024) {
        precondition(capacity > 0, "capacity must be positive")
        self.capacity = capacity
        slots = .allocate(capacity: capacity)
        slots.initialize(repeating: 0, count: capacity)
    }

    deinit {
        slots.deallocate()
    }

    /// The present thread, after a flip: the frame went up `nanoseconds` after it was due.
    public func record(nanoseconds: Int64) {
        let next = written.load(ordering: .relaxed)
        guard next - read.load(ordering: .acquiring) < capacity else { return }
        slots[next % capacity] = nanoseconds
        written.store(next + 1, ordering: .releasing)
    }

    /// Hands every sample written so far to `take`, oldest first, and frees their slots.
    public func drain(_ take: (Int64) -> Void) {
        readers.withLock { _ in
            let first = read.load(ordering: .relaxed)
            let end = written.load(ordering: .acquiring)
            guard end > first else { return }
            for index in first..<end { take(slots[index % capacity]) }
            read.store(end, ordering: .releasing)
        }
    }
}
