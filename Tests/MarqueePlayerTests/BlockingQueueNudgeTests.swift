import Foundation
import Synchronization
import Testing
@testable import MarqueePlayer

/// A producer waiting for room is woken by a nudge to look after what it has queued (convert the
/// next picture into a buffer that came free), and goes on waiting for room afterwards.
@Suite struct BlockingQueueNudgeTests {
    @Test func aNudgeRunsTheWaitingProducersWorkAndItKeepsWaiting() {
        let queue = BlockingQueue<Int>(capacity: 1)
        queue.push(1)
        let nudged = DispatchSemaphore(value: 0)
        let pushed = DispatchSemaphore(value: 0)
        let nudges = Atomic<Int>(0)
        Thread {
            queue.push(2, checkingEvery: 60, whileWaiting: {}, whenNudged: {
                nudges.add(1, ordering: .relaxed)
                nudged.signal()
            })
            pushed.signal()
        }.start()

        queue.nudge()

        #expect(nudged.wait(timeout: .now() + 5) == .success, "the nudge ran long before the 60 s check")
        #expect(pushed.wait(timeout: .now() + 0.2) == .timedOut, "and the producer still waits for room")
        #expect(queue.pop() == 1)
        #expect(pushed.wait(timeout: .now() + 5) == .success)
        #expect(nudges.load(ordering: .relaxed) == 1)
    }

    @Test func theFirstMatchingQueuedElementIsFoundInOrderWithoutTakingIt() {
        let queue = BlockingQueue<Int>(capacity: 4)
        for value in [1, 4, 6, 8] { queue.push(value) }

        #expect(queue.firstQueued { $0.isMultiple(of: 2) ? $0 : nil } == 4)
        #expect(queue.firstQueued { $0 > 10 ? $0 : nil } == nil)
        #expect(queue.count == 4)
    }

    /// Dropping a converted picture gives its buffer back, which nudges the queue it was dropped
    /// from: the queue lets its elements go only after its lock (it was taken twice, and the player
    /// hung at its first cancelled item).
    @Test func discardingConvertedPicturesThatNudgeTheirQueueReturns() throws {
        let queue = BlockingQueue<StagedPicture>(capacity: 4)
        let pool = StagedPictureTests.pool()
        pool.whenGivenBack { queue.nudge() }
        for _ in 0..<2 {
            let staged = StagedPicture(StagedPictureTests.FilledPicture(StagedPictureTests.red))
            staged.convert(into: try #require(pool.lendForConversion()), placement: StagedPictureTests.placement, background: .black)
            queue.push(staged)
        }
        let discarded = DispatchSemaphore(value: 0)

        Thread {
            queue.discard()
            discarded.signal()
        }.start()

        #expect(discarded.wait(timeout: .now() + 5) == .success)
        #expect(pool.freeCount == 3)
    }
}
