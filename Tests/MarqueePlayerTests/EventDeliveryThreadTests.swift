import Foundation
import MarqueeCore
import Testing
@testable import MarqueePlayer

/// What the delivery thread hands on, recorded under a lock.
private final class DeliveryRecord: @unchecked Sendable {
    private let lock = NSLock()
    private var delivered: [(PlayerEvent, Double)] = []
    private var losses: [Int] = []
    /// Held by the test to stand for a write that blocks (a busy SD card).
    let blocker = NSCondition()
    var isBlocked = false
    /// Deliveries begun, blocked or not.
    var entered = 0

    func deliver(_ event: PlayerEvent, _ seconds: Double) {
        blocker.withLock {
            entered += 1
            blocker.broadcast()
            while isBlocked { blocker.wait() }
        }
        lock.withLock { delivered.append((event, seconds)) }
    }

    func lose(_ count: Int) { lock.withLock { losses.append(count) } }

    var events: [(PlayerEvent, Double)] { lock.withLock { delivered } }
    var reportedLosses: [Int] { lock.withLock { losses } }

    /// True once a delivery has begun within five seconds.
    func waitForFirstDelivery() -> Bool {
        let deadline = Date().addingTimeInterval(5)
        return blocker.withLock {
            while entered == 0 { if !blocker.wait(until: deadline) { break } }
            return entered > 0
        }
    }

    func block() { blocker.withLock { isBlocked = true } }
    func unblock() {
        blocker.withLock {
            isBlocked = false
            blocker.broadcast()
        }
    }
}

@Suite struct EventDeliveryThreadTests {
    @Test func deliversEveryEventInOrderWithTheTimeItWasPostedAt() {
        let record = DeliveryRecord()
        let delivery = EventDeliveryThread(deliver: record.deliver, reportLoss: record.lose)
        for index in 0..<50 {
            delivery.post(.itemStarted(index: index, url: "item\(index).mp4"), at: Double(index) / 10)
        }
        delivery.finish()
        let events = record.events
        #expect(events.count == 50)
        for (index, (event, seconds)) in events.enumerated() {
            #expect(event == .itemStarted(index: index, url: "item\(index).mp4"))
            #expect(seconds == Double(index) / 10)
        }
        #expect(record.reportedLosses.isEmpty)
    }

    @Test func postingDoesNotWaitForABlockedWriteAndTheOverflowIsCountedOnce() throws {
        let record = DeliveryRecord()
        record.block()
        let delivery = EventDeliveryThread(capacity: 8, deliver: record.deliver, reportLoss: record.lose)
        // The thread takes the first event and blocks writing it; the rest queue up to capacity.
        delivery.post(.playbackStalled, at: 0)
        #expect(record.waitForFirstDelivery())

        let started = ContinuousClock.now
        for index in 0..<100 {
            delivery.post(.frame(item: 0, pts: MediaTime(Int64(index), per: 30), time: .zero, dropped: false), at: 1)
        }
        let postingTook = ContinuousClock.now - started
        // A blocked write would keep a waiting post here for as long as the test holds it (forever).
        #expect(postingTook < .seconds(1))
        #expect(record.events.isEmpty)

        record.unblock()
        delivery.finish()
        #expect(record.events.count == 1 + 8)
        #expect(record.reportedLosses == [92])
        // Nothing is delivered after finish, and posting then is harmless.
        delivery.post(.playbackStalled, at: 2)
        #expect(record.events.count == 9)
    }
}
