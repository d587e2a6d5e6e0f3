import Foundation
import MarqueeCore

/// The hand-off between the player and the CEC thread: the player posts what it wants the TV to be
/// (on or off) and returns at once; the thread takes the latest wish when it is free, since only
/// the last one matters to the TV. On the way out, `finish` waits for a wish not yet taken as well
/// as for one being sent: a displayOff just before quitting must still reach the TV.
final class CECWishHandOff: @unchecked Sendable {
    private let condition = MonotonicCondition()
    // Guarded by `condition`.
    /// What the player asked for last and the thread has not taken yet.
    private var wish: Bool?
    /// The thread is sending (a wish it took, or the claim at start).
    private var busy = true
    /// The thread has ended (the adapter could not be used, or `finish`).
    private var ended = false
    private var finishing = false

    /// From the player: the latest wish replaces one not taken yet.
    func post(_ on: Bool) {
        condition.withLock {
            wish = on
            condition.broadcast()
        }
    }

    /// On the way out: waits up to `seconds` for the thread to send what is being sent and what was
    /// posted and not taken yet, then tells it to end. A thread stuck in the driver is left behind.
    func finish(waitingAtMost seconds: Double) {
        let deadline = ContinuousClock.now + .seconds(seconds)
        condition.lock()
        while !ended && (busy || wish != nil) {
            if !condition.wait(until: deadline) { break }
        }
        finishing = true
        condition.broadcast()
        condition.unlock()
    }

    /// From the thread: waits for a wish and takes it (the thread is busy until it asks again);
    /// nil once `finish` is called.
    func take() -> Bool? {
        condition.lock()
        defer { condition.unlock() }
        busy = false
        condition.broadcast()
        while wish == nil && !finishing { condition.wait() }
        guard !finishing, let taken = wish else { return nil }
        wish = nil
        busy = true
        return taken
    }

    /// From the thread, as it ends (for good: wishes from then on are dropped).
    func end() {
        condition.withLock {
            ended = true
            busy = false
            condition.broadcast()
        }
    }

    /// The thread waits for a wish (for tests: a wish posted now is not taken at once).
    var isWaiting: Bool {
        condition.withLock { !busy && !ended && wish == nil }
    }
}
