/// Lets a progress report through at most every `interval` (the contract promises the caller no
/// more than one per 100 ms; libcurl calls its progress function far more often while data flows).
struct ProgressThrottle {
    var interval: Duration = .milliseconds(100)
    private var last: ContinuousClock.Instant?

    init() {}

    mutating func isDue(at now: ContinuousClock.Instant = .now) -> Bool {
        if let last, now - last < interval { return false }
        last = now
        return true
    }
}
