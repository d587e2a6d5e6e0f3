import Testing
@testable import MarqueePlayer

@Suite struct FrameStepsTests {
    private func shown(_ steps: inout FrameSteps) -> FrameSteps.AfterShown { steps.frameShown() }
    private func takeBack(_ steps: inout FrameSteps) -> Bool { steps.takeBackStep() }

    @Test func aStepByThreeShowsThreeFramesAtOnceAndPausesOnTheLast() {
        var steps = FrameSteps()
        steps.stepForward(by: 3)
        #expect(steps.showsNextFrameNow && steps.pausesOnNextFrame)
        steps.showsNextFrameNow = false  // the player took it for the first frame
        #expect(shown(&steps) == .showNext)
        #expect(steps.showsNextFrameNow)
        steps.showsNextFrameNow = false
        #expect(shown(&steps) == .showNext)
        steps.showsNextFrameNow = false
        #expect(shown(&steps) == .pause)
        #expect(steps == FrameSteps(), "nothing is left pending after the pause")
        #expect(shown(&steps) == .playOn)
    }

    @Test func aSingleStepPausesOnTheFrameItShows() {
        var steps = FrameSteps()
        steps.stepForward(by: 1)
        #expect(shown(&steps) == .pause)
    }

    @Test func aPauseOnTheNextFrameAloneIsKeptUntilAFrameIsShown() {
        var steps = FrameSteps()
        steps.pausesOnNextFrame = true
        #expect(shown(&steps) == .pause)
        #expect(!steps.pausesOnNextFrame)
    }

    @Test func stepsBackAreTakenOneAtATimeAndCancelledTogether() {
        var steps = FrameSteps()
        steps.stepBack(by: 3)
        #expect(takeBack(&steps))
        #expect(takeBack(&steps))
        #expect(!takeBack(&steps), "the first of three was the caller's own seek")
        steps.stepBack(by: 5)
        steps.cancelBackSteps()
        #expect(!takeBack(&steps))
        steps.stepBack(by: 1)
        #expect(!takeBack(&steps))
    }

    @Test func aWallJoinCancelsEverything() {
        var steps = FrameSteps()
        steps.stepForward(by: 4)
        steps.stepBack(by: 2)
        steps.cancelAll()
        #expect(steps == FrameSteps())
    }
}
