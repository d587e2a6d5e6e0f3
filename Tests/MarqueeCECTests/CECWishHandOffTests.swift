import Foundation
import Synchronization
import Testing
@testable import MarqueeCEC

/// The hand-off between the player and the CEC thread, with a thread that is slow to take a wish:
/// it waits on the hand-off, so a wish posted just before quitting is still waiting to be taken
/// when `finish` is called. The TV must still hear it.
@Suite struct CECWishHandOffTests {
    /// A CEC thread standing in for the adapter: it takes wishes until told to end, and records each.
    final class SendingThread: Sendable {
        let sent = Mutex<[Bool]>([])
        let done = Atomic<Bool>(false)

        init(_ wishes: CECWishHandOff, sendingFor seconds: Double = 0) {
            let thread = Thread { [self] in
                while let wish = wishes.take() {
                    Thread.sleep(forTimeInterval: seconds)
                    sent.withLock { $0.append(wish) }
                }
                wishes.end()
                done.store(true, ordering: .releasing)
            }
            thread.start()
        }
    }

    private func waitUntilWaiting(_ wishes: CECWishHandOff) -> Bool {
        let deadline = Date(timeIntervalSinceNow: 5)
        while !wishes.isWaiting && Date() < deadline { Thread.sleep(forTimeInterval: 0.001) }
        return wishes.isWaiting
    }

    /// A displayOff posted while the thread waits, and the quit right after it: `finish` waits for
    /// the wish to be taken and sent. Twenty times, since the thread may wake before `finish` looks.
    @Test func aWishPostedJustBeforeFinishIsSentBeforeTheThreadEnds() throws {
        for round in 0..<20 {
            let wishes = CECWishHandOff()
            let thread = SendingThread(wishes, sendingFor: 0.01)
            try #require(waitUntilWaiting(wishes), "round \(round): the thread never waited for a wish")
            wishes.post(false)
            wishes.finish(waitingAtMost: 5)
            #expect(thread.sent.withLock { $0 } == [false], "round \(round): the displayOff posted before quitting was dropped")
        }
    }

    /// Wishes posted while the thread sends another: only the latest is sent next.
    @Test func theLatestWishWinsWhileTheThreadIsBusy() throws {
        let wishes = CECWishHandOff()
        let thread = SendingThread(wishes, sendingFor: 0.2)
        #expect(waitUntilWaiting(wishes))
        wishes.post(false)
        Thread.sleep(forTimeInterval: 0.05)
        wishes.post(true)
        wishes.post(false)
        wishes.post(true)
        wishes.finish(waitingAtMost: 5)
        #expect(thread.sent.withLock { $0 } == [false, true])
    }

    /// `finish` gives up after its limit on a thread stuck in the driver.
    @Test func finishReturnsAfterItsLimitWhenTheThreadIsStuck() throws {
        let wishes = CECWishHandOff()
        _ = SendingThread(wishes, sendingFor: 3)
        #expect(waitUntilWaiting(wishes))
        wishes.post(false)
        Thread.sleep(forTimeInterval: 0.05)
        let start = ContinuousClock.now
        wishes.finish(waitingAtMost: 0.3)
        let waited = ContinuousClock.now - start
        #expect(waited >= .milliseconds(250) && waited < .seconds(2), "finish waited \(waited)")
    }
}
