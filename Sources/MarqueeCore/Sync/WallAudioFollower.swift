/// Keeps the sound on the wall clock in frame-locked playback (`sync:`), where the picture is laid
/// on the wall and cannot follow the sound: the sound is played a little faster or slower
/// (resampled, at most `maximumAdjustment` either way) until what the device plays is what is due.
/// It is never cut: an error too large to resample away in reasonable time asks for a rejoin.
///
/// Readings jitter (DMA bursts, a late thread), so the error is smoothed, and the pace moves in
/// steps of `step` with a dead band, so a device that keeps good time is left at exactly 1.
public struct WallAudioFollower: Sendable, Equatable {
    public enum Decision: Sendable, Equatable {
        /// Play the sound at this pace (input frames per device frame), 1 − max ... 1 + max.
        case rate(MediaTime)
        /// The sound is too far from the wall to be resampled back: join it again.
        case rejoin
    }

    /// The most the pace is changed: ±0.5 %, inaudible, and 5 ms of correction a second.
    public static let maximumAdjustment = MediaTime(5, per: 1000)
    /// Paces are multiples of this (0.05 %): a new pace means a new resampler run.
    public static let step = MediaTime(5, per: 10_000)
    /// Readings this soon after the sound (re)started are ignored: a device starting up is jittery.
    public var settleTime = MediaTime(1, per: 2)
    /// Errors below this are left alone.
    public var deadband = MediaTime(2, per: 1000)
    /// Errors above this ask for a rejoin.
    public var rejoinThreshold = MediaTime(1, per: 5)
    /// How long an error takes to be worked off: pace adjustment = error / this (clamped).
    public var correctionTime = MediaTime(4, per: 1)

    private var startedAt: MediaTime?
    private var smoothed: Double?
    private var pace = MediaTime(1, per: 1)

    public init() {}

    /// The sound (re)started at clock time `now`: readings are ignored for a while, pace back to 1.
    public mutating func restart(at now: MediaTime) {
        startedAt = now
        smoothed = nil
        pace = MediaTime(1, per: 1)
    }

    /// `error`: clock time now minus the clock time at which what the device plays now is due.
    /// Positive: the sound is behind the wall and must go faster.
    public mutating func decide(error: MediaTime, now: MediaTime) -> Decision {
        guard let startedAt else {
            restart(at: now)
            return .rate(pace)
        }
        guard now - startedAt >= settleTime else { return .rate(pace) }
        let reading = error.seconds
        // A first-order low-pass over about 16 readings (about half a second at 30 fps), from 0: one
        // wild reading moves it a sixteenth of the way.
        let average = (smoothed ?? 0) + (reading - (smoothed ?? 0)) / 16
        smoothed = average
        if abs(average) > rejoinThreshold.seconds { return .rejoin }
        if abs(average) < deadband.seconds {
            // Back on the wall: play at the device's own pace again.
            if abs(average) < deadband.seconds / 2 { pace = MediaTime(1, per: 1) }
            return .rate(pace)
        }
        let wanted = min(max(average / correctionTime.seconds, -Self.maximumAdjustment.seconds), Self.maximumAdjustment.seconds)
        let steps = (wanted / Self.step.seconds).rounded()
        pace = MediaTime(1, per: 1) + Self.step * Int64(steps)
        return .rate(pace)
    }
}
