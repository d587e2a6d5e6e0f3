import Foundation
import MarqueeCore

/// The playback clock of frame-locked playback (`sync:`): CLOCK_REALTIME, the clock chrony or PTP
/// keeps in step across devices, counted from the moment the clock was made. Following it, the
/// player follows every slew the time daemon makes; a step is heard as a wall-clock change (the
/// player joins the wall again).
///
/// `lag` shifts this player's reading of the wall back (a test makes one player's clock 40 ms
/// slow and sees its frames appear 40 ms late).
public final class WallClockTime: PlaybackClock {
    /// Wall time, as this player reads it, at clock time 0: whole nanoseconds since 1970.
    public let zeroUnixNanoseconds: Int64
    private let lagNanoseconds: Int64

    public init(lag: MediaTime = .zero) {
        lagNanoseconds = lag.ticks(timescale: 1_000_000_000, rounding: .toNearestOrAwayFromZero)
        zeroUnixNanoseconds = Self.realtimeNanoseconds() - lagNanoseconds
    }

    /// The wall clock as the kernel reads it, in nanoseconds since 1970 (no lag).
    public static func realtimeNanoseconds() -> Int64 {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Int64(spec.tv_sec) * 1_000_000_000 + Int64(spec.tv_nsec)
    }

    public func now() -> MediaTime {
        MediaTime(Self.realtimeNanoseconds() - lagNanoseconds - zeroUnixNanoseconds, per: 1_000_000_000)
    }

    /// Sleeps until the wall reaches `deadline`, but never longer than it was away when the sleep
    /// began, by the monotonic clock: a wall clock stepped back an hour meanwhile must not hold the
    /// present thread for an hour. Returning early then is safe: every caller looks at the clock again.
    public func sleep(until deadline: MediaTime) {
        let away = (deadline - now()).seconds
        guard away > 0 else { return }
        let latest = ContinuousClock.now + .nanoseconds(Int64(away * 1e9))
        while true {
            let remaining = (deadline - now()).seconds
            let monotonicRemaining = (latest - ContinuousClock.now) / .seconds(1)
            let slice = min(remaining, monotonicRemaining)
            if slice <= 0 { return }
            Thread.sleep(forTimeInterval: min(slice, 0.05))
        }
    }
}
