import Foundation
import MarqueeCore

/// Carries events from the present thread to a thread of their own, where they are written to the
/// events file, the journal and the terminal. Those writes can block: an SD card busy with garbage
/// collection, a network share, a terminal nobody reads. Measured in the QEMU guest, writing an
/// item's first frame event and journal line took 26 ms on the present thread, and the next frame
/// was dropped for it. Posting never waits for a write.
///
/// Events keep their order and the time they were stamped with when posted. If the writes fall
/// `capacity` events behind, newer events are discarded rather than waited for or held without
/// bound, and `reportLoss` is told how many once the events before them are written.
public final class EventDeliveryThread: @unchecked Sendable {
    public typealias Delivery = @Sendable (_ event: PlayerEvent, _ secondsSinceStart: Double) -> Void

    private let condition = MonotonicCondition()
    private var pending: [(event: PlayerEvent, seconds: Double)] = []
    private var discarded = 0
    private var isFinishing = false
    private var isFinished = false
    private let capacity: Int
    private let deliver: Delivery
    private let reportLoss: @Sendable (Int) -> Void

    public init(capacity: Int = 4096, deliver: @escaping Delivery, reportLoss: @escaping @Sendable (Int) -> Void) {
        precondition(capacity > 0, "capacity must be positive")
        self.capacity = capacity
        self.deliver = deliver
        self.reportLoss = reportLoss
        let thread = Thread { [self] in
            ThreadName.set("marquee.deliver")
            run()
        }
        thread.name = "marquee.deliver"
        thread.start()
    }

    /// Queues `event`; returns at once, whatever the delivery is doing.
    public func post(_ event: PlayerEvent, at secondsSinceStart: Double) {
        condition.withLock {
            guard !isFinishing else { return }
            if pending.count >= capacity {
                discarded += 1
                return
            }
            pending.append((event, secondsSinceStart))
            condition.signal()
        }
    }

    /// Delivers everything posted so far, then ends the thread; returns once it has, or after
    /// `seconds` when given (a write that never returns is not waited for). Events posted afterwards
    /// are ignored.
    public func finish(waitingAtMost seconds: Double? = nil) {
        let deadline = seconds.map { ContinuousClock.now + .seconds($0) }
        condition.withLock {
            isFinishing = true
            condition.broadcast()
            while !isFinished { if !condition.wait(orUntil: deadline) { return } }
        }
    }

    private func run() {
        while true {
            condition.lock()
            while pending.isEmpty && !isFinishing { condition.wait() }
            let batch = pending
            pending.removeAll(keepingCapacity: true)
            let lost = discarded
            discarded = 0
            let done = batch.isEmpty && isFinishing
            condition.unlock()

            for (event, seconds) in batch { deliver(event, seconds) }
            if lost > 0 { reportLoss(lost) }
            if done { break }
        }
        condition.withLock {
            isFinished = true
            condition.broadcast()
        }
    }
}
