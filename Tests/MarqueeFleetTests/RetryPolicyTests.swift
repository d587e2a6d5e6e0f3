import MarqueeFleet
import Testing

/// Back-off: doubling from the base, capped, spread by jitter.
@Suite struct RetryPolicyTests {
    @Test func doublesFromTheBaseUpToTheCap() {
        let policy = RetryPolicy(base: .seconds(1), cap: .seconds(300), jitter: 0.2)
        let unjittered = (1...11).map { policy.delay(afterFailures: $0, random: 0.5) }
        #expect(unjittered == [1, 2, 4, 8, 16, 32, 64, 128, 256, 300, 300].map { Duration.seconds($0) })
        #expect(policy.delay(afterFailures: 1_000, random: 0.5) == .seconds(300))
    }

    @Test func jitterStaysWithinItsFraction() {
        let policy = RetryPolicy(base: .seconds(10), cap: .seconds(300), jitter: 0.2)
        #expect(policy.delay(afterFailures: 1, random: 0) == .seconds(8))
        #expect(policy.delay(afterFailures: 1, random: 0.999_999) > .milliseconds(11_999))
        #expect(policy.delay(afterFailures: 1, random: 0.999_999) <= .seconds(12))
    }
}
