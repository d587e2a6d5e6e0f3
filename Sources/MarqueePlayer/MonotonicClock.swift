import Foundation
import MarqueeCore

/// `--clock realtime`: wall-clock pacing from a monotonic source, immune to NTP steps.
public final class MonotonicClock: PlaybackClock {
    private let start = ContinuousClock.now

    public init() {}

    public func now() -> MediaTime {
        let elapsed = ContinuousClock.now - start
        let (seconds, attoseconds) = elapsed.components
        return MediaTime(seconds: seconds) + MediaTime(attoseconds / 1_000_000_000, per: 1_000_000_000)
    }

    public func sleep(until deadline: MediaTime) {
        let remaining = (deadline - now()).seconds
        if remaining > 0 { Thread.sleep(forTimeInterval: remaining) }
    }
}
