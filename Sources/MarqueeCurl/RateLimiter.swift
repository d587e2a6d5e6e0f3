/// Holds a body to `bytesPerSecond` on average since its first byte. libcurl's own limit
/// (CURLOPT_MAX_RECV_SPEED_LARGE) is set too, but libcurl 7.88 checks it only between reads and
/// reads everything the socket already holds in one go: a file that fits in the socket buffers
/// (100 KB on a LAN) arrives at full speed. Sleeping in the write callback holds the reads back,
/// so TCP slows the server down.
struct RateLimiter {
    let bytesPerSecond: Int64
    private var start: ContinuousClock.Instant?
    private var bytes: Int64 = 0

    init(bytesPerSecond: Int64) {
        self.bytesPerSecond = max(1, bytesPerSecond)
    }

    /// How long to wait after `count` more bytes so the average stays within the limit.
    mutating func delay(after count: Int, at now: ContinuousClock.Instant = .now) -> Duration {
        let start = self.start ?? now
        self.start = start
        bytes += Int64(count)
        let due = Duration.nanoseconds(bytes * 1_000_000_000 / bytesPerSecond)
        let elapsed = now - start
        return due > elapsed ? due - elapsed : .zero
    }
}
