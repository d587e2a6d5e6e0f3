import Foundation
import Testing
@testable import MarqueePlayer

@Suite struct RequestQueueTests {
    @Test func requestsAreTakenInOrderAsOneBatch() {
        let queue = RequestQueue<Int>()
        #expect(!queue.hasWork)
        queue.append(contentsOf: [1, 2])
        queue.append(contentsOf: [3])
        #expect(queue.hasWork)
        #expect(queue.takeAll() == [1, 2, 3])
        #expect(queue.takeAll().isEmpty)
        #expect(!queue.hasWork)
    }

    @Test func aRequestFromAnotherThreadEndsAWaitAtOnce() {
        let queue = RequestQueue<Int>()
        let start = ContinuousClock.now
        Thread.detachNewThread {
            Thread.sleep(forTimeInterval: 0.05)
            queue.append(contentsOf: [7])
        }
        #expect(queue.waitForWork(seconds: 10))
        #expect(ContinuousClock.now - start < .seconds(5))
        #expect(queue.takeAll() == [7])
        #expect(!queue.waitForWork(until: .now + .milliseconds(20)), "nothing more came")
    }

    @Test func aShutdownIsWorkForGoodAndBoundsTheWaitForTheEnd() {
        let queue = RequestQueue<Int>()
        queue.shutDown()
        #expect(queue.shouldStop && queue.hasWork)
        _ = queue.takeAll()
        #expect(queue.hasWork, "a shutdown is not taken with the requests")
        // A run loop stuck past the grace: the wait gives up and says so.
        #expect(!queue.waitUntilEnded(graceAfterShutDown: 0.05))
        queue.markEnded()
        #expect(queue.waitUntilEnded(graceAfterShutDown: 0.05))
        #expect(queue.waitUntilEnded(graceAfterShutDown: nil))
    }
}
