import MarqueeCore
import Testing

@Suite struct RateClockTests {
    @Test func atRateOneItIsTheClockUnderIt() {
        let base = VirtualClock()
        let clock = RateClock(base: base)
        base.advance(by: MediaTime(1001, per: 30000))
        #expect(clock.now() == MediaTime(1001, per: 30000))
        clock.sleep(until: MediaTime(7, per: 3))
        #expect(base.now() == MediaTime(7, per: 3) && clock.now() == MediaTime(7, per: 3))
    }

    @Test func aChangeGoesOnFromWhereItWas() {
        let base = VirtualClock()
        let clock = RateClock(base: base)
        base.advance(by: MediaTime(seconds: 1))
        clock.setRate(2)
        #expect(clock.now() == MediaTime(seconds: 1))
        base.advance(by: MediaTime(seconds: 1))
        #expect(clock.now() == MediaTime(seconds: 3))
        clock.setRate(0.25)
        #expect(clock.now() == MediaTime(seconds: 3))
        base.advance(by: MediaTime(seconds: 4))
        #expect(clock.now() == MediaTime(seconds: 4))
        clock.setRate(1)
        base.advance(by: MediaTime(1, per: 25))
        #expect(clock.now() == MediaTime(seconds: 4) + MediaTime(1, per: 25))
        #expect(clock.rate == 1)
    }

    /// Sleeping until a playback time sleeps until the clock time that maps to it, exactly, even
    /// at a rate whose inverse has no short fraction.
    @Test func sleepingReachesTheDeadline() {
        let base = VirtualClock()
        let clock = RateClock(base: base)
        clock.setRate(2)
        clock.sleep(until: MediaTime(1, per: 25))
        #expect(base.now() == MediaTime(1, per: 50) && clock.now() == MediaTime(1, per: 25))
        clock.setRate(0.333)
        for frame in 2...200 {
            let due = MediaTime(1001, per: 30000) * Int64(frame)
            clock.sleep(until: due)
            #expect(clock.now() >= due && clock.now() - due < MediaTime(1, per: 1_000_000), "frame \(frame)")
        }
    }

    @Test func ratesOutsideTheRangeAreClamped() {
        let clock = RateClock(base: VirtualClock())
        clock.setRate(10)
        #expect(clock.rate == 4)
        clock.setRate(0)
        #expect(clock.rate == 0.25)
    }
}
