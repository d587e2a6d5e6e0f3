import Testing
import MarqueeCore

@Suite struct VirtualClockTests {
    @Test func sleepingJumpsToTheDeadlineAndNeverGoesBack() {
        let clock = VirtualClock()
        #expect(clock.now() == .zero)
        clock.sleep(until: MediaTime(1001, per: 30000))
        #expect(clock.now() == MediaTime(1001, per: 30000))
        clock.sleep(until: .zero)
        #expect(clock.now() == MediaTime(1001, per: 30000))
        clock.advance(by: MediaTime(seconds: 2))
        #expect(clock.now() == MediaTime(1001, per: 30000) + MediaTime(seconds: 2))
    }

    @Test func anHourOfFramesKeepsExactTime() {
        let clock = VirtualClock()
        let frame = MediaTime(1001, per: 30000)
        for index in 1...107_892 { clock.sleep(until: frame * Int64(index)) }
        #expect(clock.now() == MediaTime(1001 * 107_892, per: 30000))
    }
}
