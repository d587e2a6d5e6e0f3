/// Keeps video on the audio device's clock: given how far the presentation schedule is from what
/// the device is playing, decides how much to move the schedule. Only video moves; audio is never
/// resampled to chase it.
///
/// Device positions are read with some jitter (the hardware pointer moves in DMA bursts, the
/// reading thread is scheduled late), so small errors are smoothed over several frames instead of
/// jerking every frame, and large ones (start-up latency, a seek, a device that came back) are
/// taken in one step.
public struct AudioClockFollower: Sendable, Equatable {
    /// Errors smaller than this are jitter, not drift: left alone.
    public var deadband: MediaTime
    /// Errors at least this large are corrected at once.
    public var snapThreshold: MediaTime
    /// A mid-sized error is corrected by 1/`smoothing` per reading (a first-order low-pass filter).
    public var smoothing: Int64

    public init(deadband: MediaTime = MediaTime(1, per: 1000), snapThreshold: MediaTime = MediaTime(60, per: 1000),
                smoothing: Int64 = 8) {
        self.deadband = deadband
        self.snapThreshold = snapThreshold
        self.smoothing = smoothing
    }

    /// How far to move the presentation schedule (its origin on the clock) given `error`: the clock
    /// time now minus the clock time at which the schedule expects what the device is playing now.
    /// Positive means video is ahead of the sound and must wait longer.
    public func correction(forError error: MediaTime) -> MediaTime {
        let size = error < .zero ? .zero - error : error
        if size < deadband { return .zero }
        // Whole nanoseconds, so sums of many corrections stay small fractions.
        let nanoseconds = error.ticks(timescale: 1_000_000_000, rounding: .toNearestOrAwayFromZero)
        if size >= snapThreshold { return MediaTime(nanoseconds, per: 1_000_000_000) }
        return MediaTime(nanoseconds / max(1, smoothing), per: 1_000_000_000)
    }
}
