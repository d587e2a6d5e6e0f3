/// When a failed download is tried again: exponential back-off with jitter, so a fleet of screens
/// that lost the same server does not hammer it in step when it comes back.
public struct RetryPolicy: Sendable, Equatable {
    /// The first delay; it doubles with each failure in a row. Tests make it milliseconds.
    public var base: Duration
    /// The longest delay.
    public var cap: Duration
    /// Each delay is scaled by a random factor in 1 ± jitter.
    public var jitter: Double
    /// A failure that will answer the same next time (404, a refused redirect, a sha256 mismatch
    /// of a fresh download) fails the item for good after this many attempts.
    public var permanentAttempts: Int
    /// Transient failures (network, 5xx, a cut body) in a row without a byte of progress after
    /// which the item is given up for this fill, so a dead server does not hold back the rest of
    /// a new playlist for ever: the playlist switches without it, and the next check of the
    /// config (`CachedPlanStage.retryFailed`) tries it again.
    public var transientAttempts: Int

    public init(base: Duration = .seconds(1), cap: Duration = .seconds(300), jitter: Double = 0.2, permanentAttempts: Int = 3,
                transientAttempts: Int = 4) {
        self.base = base
        self.cap = cap
        self.jitter = jitter
        self.permanentAttempts = permanentAttempts
        self.transientAttempts = transientAttempts
    }

    /// The wait after the `failures`-th failure in a row (1 → base). `random` is in 0..<1.
    public func delay(afterFailures failures: Int, random: Double) -> Duration {
        let doublings = min(max(failures - 1, 0), 30)
        let unjittered = min(base * (1 << doublings), cap)
        return unjittered * (1 + jitter * (2 * random - 1))
    }
}
