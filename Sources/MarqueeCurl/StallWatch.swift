/// Tells when a transfer has moved no byte for `timeout` once connected. libcurl's low-speed check
/// (CURLOPT_LOW_SPEED_TIME) averages the speed over its last few seconds, so a server that sent
/// data and then went silent is only noticed about five seconds after `timeout`; this counts from
/// the last byte itself. Connecting has its own timeout and does not count as a stall.
struct StallWatch {
    let timeout: Duration
    private var received: Int64 = -1
    private var lastMovement: ContinuousClock.Instant?

    init(timeout: Duration) {
        self.timeout = timeout
    }

    /// Called with the bytes received so far; true once nothing has moved for `timeout`.
    mutating func isStalled(received: Int64, connected: Bool, at now: ContinuousClock.Instant = .now) -> Bool {
        guard connected else { return false }
        guard let lastMovement, received == self.received else {
            self.received = received
            lastMovement = now
            return false
        }
        return now - lastMovement >= timeout
    }
}
