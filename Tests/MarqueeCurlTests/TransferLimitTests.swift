import Testing
@testable import MarqueeCurl

/// The client's own stall watch and rate limiter, on a clock the test moves.
@Suite struct TransferLimitTests {
    let start = ContinuousClock.now

    @Test func aStallCountsFromTheLastByteAndOnlyOnceConnected() {
        var watch = StallWatch(timeout: .seconds(2))
        // (received, connected, seconds since start): connecting has its own timeout, so 10 s of it is no stall.
        let answers = [(0, false, 0.0), (0, false, 10), (0, true, 10), (500, true, 11.9), (500, true, 13.8), (500, true, 13.9)]
            .map { watch.isStalled(received: Int64($0.0), connected: $0.1, at: start + .seconds($0.2)) }
        #expect(answers == [false, false, false, false, false, true])
    }

    @Test func theRateLimiterHoldsTheAverageSinceTheFirstByte() {
        var limiter = RateLimiter(bytesPerSecond: 50_000)
        // (bytes, seconds since start) → the wait; the last chunk comes slower than the limit: no wait.
        let delays = [(50_000, 0.0), (25_000, 1), (1_000, 5)].map { limiter.delay(after: $0.0, at: start + .seconds($0.1)) }
        #expect(delays == [.seconds(1), .milliseconds(500), .zero])
    }
}
