import Foundation
import Synchronization
import Testing
@testable import MarqueeCore

/// The condition every timed wait of the player uses. What makes it matter (a wall clock stepped
/// back does not stretch a wait) is proven in the guest, where the clock can be set:
/// Deploy/vm/clock-step-test.sh. Here: the waits keep their promises.
@Suite struct MonotonicConditionTests {
    @Test func aTimedWaitEndsAtItsDeadline() {
        let condition = MonotonicCondition()
        let start = ContinuousClock.now
        let woken = condition.withLock { condition.wait(seconds: 0.15) }
        let waited = ContinuousClock.now - start
        #expect(!woken)
        #expect(waited >= .milliseconds(150) && waited < .seconds(2), "\(waited)")
        // A deadline already past returns at once.
        #expect(condition.withLock { condition.wait(until: .now - .seconds(1)) } == false)
    }

    @Test func aSignalEndsTheWaitBeforeItsDeadline() {
        let condition = MonotonicCondition()
        let ready = Atomic<Bool>(false)
        let thread = Thread {
            Thread.sleep(forTimeInterval: 0.1)
            condition.withLock {
                ready.store(true, ordering: .releasing)
                condition.broadcast()
            }
        }
        let start = ContinuousClock.now
        thread.start()
        condition.withLock {
            while !ready.load(ordering: .acquiring) { _ = condition.wait(seconds: 10) }
        }
        #expect(ContinuousClock.now - start < .seconds(5))
    }

    @Test func aWaitWithoutADeadlineWaitsForTheSignal() {
        let condition = MonotonicCondition()
        let done = Atomic<Bool>(false)
        Thread {
            Thread.sleep(forTimeInterval: 0.05)
            condition.withLock {
                done.store(true, ordering: .releasing)
                condition.signal()
            }
        }.start()
        condition.withLock {
            while !done.load(ordering: .acquiring) { condition.wait(orUntil: nil) }
        }
        let finished = done.load(ordering: .acquiring)
        #expect(finished)
    }
}
