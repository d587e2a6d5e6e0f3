import MarqueeCore
import Testing

@Suite struct WallSyncPlanTests {
    static let epoch: Int64 = 1_767_225_600 // 2026-01-01T00:00:00Z
    /// 2 s, 1.2 s and three NTSC frames: a cycle of 3.2 + 3003/30000 s.
    static let lengths = [MediaTime(seconds: 2), MediaTime(6, per: 5), MediaTime(3003, per: 30000)]
    static let plan = WallSyncPlan(epochUnixMilliseconds: epoch * 1000, lengths: lengths)!

    @Test func theCycleIsTheExactSumAndItemsStartWhereTheOnesBeforeEnd() {
        #expect(Self.plan.cycle == MediaTime(seconds: 2) + MediaTime(6, per: 5) + MediaTime(3003, per: 30000))
        #expect(Self.plan.itemStarts == [.zero, MediaTime(seconds: 2), MediaTime(16, per: 5)])
        #expect(WallSyncPlan(epochUnixMilliseconds: 0, lengths: []) == nil)
        #expect(WallSyncPlan(epochUnixMilliseconds: 0, lengths: [MediaTime(seconds: 1), .zero]) == nil)
    }

    @Test(arguments: [
        // (seconds after the epoch, cycle, item, item time)
        (MediaTime.zero, Int64(0), 0, MediaTime.zero),
        (MediaTime(1999, per: 1000), 0, 0, MediaTime(1999, per: 1000)),
        (MediaTime(seconds: 2), 0, 1, MediaTime.zero),
        (MediaTime(33, per: 10), 0, 2, MediaTime(1, per: 10)),
    ])
    func theFirstCycle(after: MediaTime, cycle: Int64, item: Int, itemTime: MediaTime) {
        let position = Self.plan.position(atUnixTime: MediaTime(seconds: Self.epoch) + after)
        #expect(position.cycleNumber == cycle && position.index == item && position.itemTime == itemTime)
    }

    /// An epoch given to the millisecond moves the whole wall by exactly that much.
    @Test func anEpochsMillisecondsCount() {
        let late = WallSyncPlan(epochUnixMilliseconds: Self.epoch * 1000 + 250, lengths: Self.lengths)!
        let position = late.position(atUnixTime: MediaTime(seconds: Self.epoch) + MediaTime(1, per: 4))
        #expect(position.cycleNumber == 0 && position.index == 0 && position.itemTime == .zero)
        let before = late.position(atUnixTime: MediaTime(seconds: Self.epoch))
        #expect(before.cycleNumber == -1 && before.phase == late.cycle - MediaTime(1, per: 4))
    }

    @Test func theLoopPointIsExactAMillionCyclesOn() {
        let cycle = Self.plan.cycle
        let atLoop = MediaTime(seconds: Self.epoch) + cycle * 1_000_000
        let position = Self.plan.position(atUnixTime: atLoop)
        #expect(position.cycleNumber == 1_000_000 && position.index == 0 && position.itemTime == .zero && position.phase == .zero)
        let justBefore = Self.plan.position(atUnixTime: atLoop - MediaTime(1, per: 1_000_000_000))
        #expect(justBefore.cycleNumber == 999_999 && justBefore.index == 2)
        #expect(justBefore.itemTime == MediaTime(3003, per: 30000) - MediaTime(1, per: 1_000_000_000))
    }

    @Test func beforeTheEpochCyclesCountBackwards() {
        let position = Self.plan.position(atUnixTime: MediaTime(seconds: Self.epoch) - MediaTime(1, per: 10))
        #expect(position.cycleNumber == -1 && position.index == 2)
        #expect(position.itemTime == MediaTime(3003, per: 30000) - MediaTime(1, per: 10))
    }

    /// Wall times in nanoseconds years after the epoch, against item lengths in 1/44100 s: the
    /// remainder is exact, with no overflow.
    @Test func aWallTimeYearsOnWithAnAwkwardTimescaleStaysExact() {
        let plan = WallSyncPlan(epochUnixMilliseconds: Self.epoch * 1000, lengths: [MediaTime(441_001, per: 44_100), MediaTime(7, per: 3)])!
        let wall = MediaTime(Self.epoch * 1_000_000_000 + 3 * 365 * 86_400 * 1_000_000_000 + 123_456_789, per: 1_000_000_000)
        let position = plan.position(atUnixTime: wall)
        let rebuilt = MediaTime(seconds: Self.epoch) + plan.cycle * position.cycleNumber + plan.itemStarts[position.index] + position.itemTime
        #expect(rebuilt == wall)
        #expect(position.phase >= .zero && position.phase < plan.cycle)
    }

    /// Two players whose clocks started at different wall times, joining at different clock times
    /// for the same wall time, pick the same item and item time; each item start lands on the
    /// same wall time through its own clock.
    @Test func playersStartedApartAgreeOnTheWall() {
        let zeroA = MediaTime(Self.epoch * 1_000_000_000 + 5_000_123_456, per: 1_000_000_000)
        let zeroB = zeroA + MediaTime(37, per: 10)
        let wall = zeroB + MediaTime(1, per: 2)
        let joinA = Self.plan.join(atClockTime: wall - zeroA, clockZeroUnixTime: zeroA)
        let joinB = Self.plan.join(atClockTime: wall - zeroB, clockZeroUnixTime: zeroB)
        #expect(joinA.position == joinB.position)
        #expect(zeroA + joinA.itemStartClockTime == zeroB + joinB.itemStartClockTime)
        #expect(joinB.itemStartClockTime == MediaTime(1, per: 2) - joinB.position.itemTime)
    }
}

@Suite struct WallAudioFollowerTests {
    static func ms(_ value: Int64) -> MediaTime { MediaTime(value, per: 1000) }

    @Test func readingsWhileTheSoundSettlesAreIgnored() {
        var follower = WallAudioFollower()
        follower.restart(at: .zero)
        #expect(follower.decide(error: Self.ms(150), now: Self.ms(100)) == .rate(MediaTime(1, per: 1)))
        #expect(follower.decide(error: Self.ms(-150), now: Self.ms(499)) == .rate(MediaTime(1, per: 1)))
    }

    @Test func aDeviceOnTheWallIsLeftAtItsOwnPace() {
        var follower = WallAudioFollower()
        follower.restart(at: .zero)
        var now = Self.ms(500)
        for reading in 0..<200 {
            // ±1.5 ms of jitter, as DMA bursts give.
            let jitter = Self.ms(reading % 2 == 0 ? 1 : -1) + MediaTime(Int64(reading % 3), per: 2000)
            #expect(follower.decide(error: jitter, now: now) == .rate(MediaTime(1, per: 1)))
            now += Self.ms(33)
        }
    }

    @Test func soundBehindTheWallIsSpedUpAtMostHalfAPercentAndAheadSlowedDown() {
        var behind = WallAudioFollower()
        behind.restart(at: .zero)
        var decision = WallAudioFollower.Decision.rate(MediaTime(1, per: 1))
        for step in 0..<60 { decision = behind.decide(error: Self.ms(30), now: Self.ms(500 + Int64(step) * 33)) }
        #expect(decision == .rate(MediaTime(1005, per: 1000)))
        var ahead = WallAudioFollower()
        ahead.restart(at: .zero)
        for step in 0..<60 { decision = ahead.decide(error: Self.ms(-8), now: Self.ms(500 + Int64(step) * 33)) }
        // 8 ms over 4 s: 0.2 %, in steps of 0.05 %.
        #expect(decision == .rate(MediaTime(998, per: 1000)))
    }

    @Test func soundTooFarOffTheWallAsksForARejoin() {
        var follower = WallAudioFollower()
        follower.restart(at: .zero)
        var decisions: [WallAudioFollower.Decision] = []
        for step in 0..<40 { decisions.append(follower.decide(error: Self.ms(400), now: Self.ms(500 + Int64(step) * 33))) }
        #expect(decisions.contains(.rejoin))
        #expect(decisions.first == .rate(MediaTime(1005, per: 1000)))
    }
}
