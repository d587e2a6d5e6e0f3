import Foundation
import MarqueeCore
@testable import MarqueeDRM
import Testing

/// Several screens on one card share one fd, so one present thread reads the flip completions of
/// every CRTC. Each completion must reach its own CRTC's waiter, whoever read it.
@Suite struct FlipEventDemultiplexerTests {
    /// A card's event queue: completions are posted by the test and read as the fd would give
    /// them (all that is queued at once), after blocking up to the timeout for the first one.
    final class FakeEventQueue: @unchecked Sendable {
        private let condition = NSCondition()
        private var queued: [UInt32] = []
        private(set) var reads = 0

        func complete(_ crtcs: UInt32...) {
            condition.withLock {
                queued += crtcs
                condition.broadcast()
            }
        }

        func read(timeoutMilliseconds: Int32) -> Result<[UInt32], SystemError> {
            condition.withLock {
                let deadline = Date(timeIntervalSinceNow: Double(timeoutMilliseconds) / 1000)
                while queued.isEmpty && condition.wait(until: deadline) {}
                reads += 1
                defer { queued.removeAll() }
                return .success(queued)
            }
        }
    }

    /// What the other thread saw: nil until it returned.
    final class Outcome: @unchecked Sendable {
        private let lock = NSLock()
        private var value: Bool??
        var result: Bool?? { lock.withLock { value } }
        func finish(_ arrived: Bool?) { lock.withLock { value = .some(arrived) } }
    }

    @Test func aCompletionReadByOneThreadReachesTheOther() throws {
        let queue = FakeEventQueue()
        let events = DRMFlipEventDemultiplexer { queue.read(timeoutMilliseconds: $0) }
        let outcome = Outcome()
        // The thread for CRTC 2 waits first and becomes the reader.
        let other = Thread { outcome.finish(try? events.waitForFlip(on: 2, timeoutMilliseconds: 2000)) }
        other.start()
        Thread.sleep(forTimeInterval: 0.05)
        // CRTC 1's completion comes first; CRTC 2's thread reads it and files it for CRTC 1.
        queue.complete(1)
        let started = Date()
        #expect(try events.waitForFlip(on: 1, timeoutMilliseconds: 2000))
        #expect(Date().timeIntervalSince(started) < 0.5, "CRTC 1 waited for an event already read")
        #expect(outcome.result == nil, "CRTC 2 returned on CRTC 1's completion")
        queue.complete(2)
        while outcome.result == nil { Thread.sleep(forTimeInterval: 0.01) }
        #expect(outcome.result == .some(true))
    }

    @Test func eventsReadTogetherAreEachKeptForTheirCrtc() throws {
        let queue = FakeEventQueue()
        let events = DRMFlipEventDemultiplexer { queue.read(timeoutMilliseconds: $0) }
        queue.complete(7, 9)
        #expect(try events.waitForFlip(on: 9, timeoutMilliseconds: 500))
        // 7's completion was read with 9's: its waiter returns without another read.
        let readsBefore = queue.reads
        #expect(try events.waitForFlip(on: 7, timeoutMilliseconds: 500))
        #expect(queue.reads == readsBefore)
    }

    @Test func anotherCrtcsCompletionNeverEndsTheWait() throws {
        let queue = FakeEventQueue()
        let events = DRMFlipEventDemultiplexer { queue.read(timeoutMilliseconds: $0) }
        queue.complete(3)
        #expect(try events.waitForFlip(on: 4, timeoutMilliseconds: 100) == false)
        // ... and the completion it read is still there for CRTC 3.
        #expect(try events.waitForFlip(on: 3, timeoutMilliseconds: 100))
    }

    @Test func aLateCompletionIsNotTakenForTheNextFlip() throws {
        let queue = FakeEventQueue()
        let events = DRMFlipEventDemultiplexer { queue.read(timeoutMilliseconds: $0) }
        queue.complete(5)
        // Read (and filed) by CRTC 6's waiter; then CRTC 5 queues a new flip before taking it.
        _ = try events.waitForFlip(on: 6, timeoutMilliseconds: 50)
        events.expectFlip(on: 5)
        #expect(try events.waitForFlip(on: 5, timeoutMilliseconds: 100) == false)
    }

    @Test func aReadErrorIsThrownToTheReader() {
        let events = DRMFlipEventDemultiplexer { _ in .failure(SystemError(code: EIO, operation: "read")) }
        #expect(throws: SystemError.self) { try events.waitForFlip(on: 1, timeoutMilliseconds: 100) }
    }
}
