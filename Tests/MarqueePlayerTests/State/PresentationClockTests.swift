import MarqueeCore
import Testing
@testable import MarqueePlayer

@Suite struct PresentationClockTests {
    private func ms(_ value: Int64) -> MediaTime { MediaTime(value, per: 1000) }

    @Test func framesAreDueFromWhereTheTimelineStarted() {
        var clock = PresentationClock()
        clock.start(at: ms(500))
        #expect(clock.due(.zero) == ms(500))
        #expect(clock.due(ms(40)) == ms(540))
        #expect(clock.itemStart == ms(500))
    }

    @Test func aPauseMovesEverythingStillDueByItsLength() {
        var clock = PresentationClock()
        clock.start(at: .zero)
        clock.pause(at: ms(1000))
        #expect(clock.isPaused)
        // A step while paused moves the pause to when its frame showed: only the time after it counts.
        clock.pause(at: ms(1200))
        clock.resume(at: ms(1500))
        #expect(!clock.isPaused)
        #expect(clock.due(ms(1000)) == ms(1300))
        clock.resume(at: ms(9000))
        #expect(clock.due(ms(1000)) == ms(1300), "a resume without a pause changes nothing")
    }

    @Test func aStopForgetsThePauseWithoutMovingTheTimeline() {
        var clock = PresentationClock()
        clock.pause(at: ms(100))
        clock.forgetPause()
        clock.resume(at: ms(900))
        #expect(clock.due(.zero) == .zero)
    }

    @Test func aRestartPutsTheFrameShownNowAtNow() {
        var clock = PresentationClock()
        clock.start(at: ms(100))
        clock.restart(at: ms(2000), showing: ms(750))
        #expect(clock.due(ms(750)) == ms(2000))
        #expect(clock.due(ms(790)) == ms(2040))
        clock.restartItem(startingAt: ms(3000))
        #expect(clock.itemStart == ms(3000))
        clock.delayItem(by: ms(25))
        #expect(clock.itemStart == ms(3025))
    }

    @Test func theNextItemIsDueWhereTheLastOneEnds() {
        var clock = PresentationClock()
        clock.start(at: ms(100))
        clock.timeline.advance(pastItemOfLength: ms(4000))
        #expect(clock.itemStart == ms(4100))
        #expect(clock.due(.zero) == ms(4100))
    }

    @Test func theSoundAnchorsThePicturesAndThenTheyFollowIt() {
        var clock = PresentationClock()
        clock.start(at: .zero)
        // The device is heard at item time 0.1 s (its lead-in over) at 0.5 s: 0.1 s is due then.
        clock.anchor(heard: ms(100), at: ms(500))
        #expect(clock.due(ms(100)) == ms(500))
        // 0.2 s later the device has played 0.4 s: the pictures are 100 ms behind, taken at once.
        #expect(clock.error(heard: ms(400), at: ms(700)) == ms(-100))
        clock.follow(heard: ms(400), at: ms(700))
        #expect(clock.due(ms(400)) == ms(700))
        // A small drift (8 ms) is taken an eighth at a time; jitter under a millisecond is left alone.
        clock.follow(heard: ms(500), at: ms(808))
        #expect(clock.due(ms(500)) == ms(801))
        clock.follow(heard: ms(600), at: MediaTime(9015, per: 10000))
        #expect(clock.due(ms(600)) == ms(901))
    }
}
