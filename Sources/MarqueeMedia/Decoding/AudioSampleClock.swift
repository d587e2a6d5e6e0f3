import MarqueeCore

/// Stamps converted audio sample-exactly: a run of blocks starts at the media time of the first
/// decoded frame it was fed and each later block starts where the previous one ended, to the
/// sample, so that gapless playback and the trimmer's sample arithmetic never see rounding.
///
/// Frame timestamps are not that exact (Matroska keeps milliseconds, damaged streams wander), so
/// they only decide where a run starts. A frame more than `discontinuityLimit` later than where the
/// input so far ends is a real gap (a splice, lost packets): the run ends there and a new one starts
/// at that frame's own time. A frame that goes back (a timestamp reset, as at a transport stream
/// splice) does not re-anchor: like `FrameTimeline` for pictures, audio then goes on from where it
/// was, so media time only ever moves forward and audio stays beside the pictures.
struct AudioSampleClock {
    /// Larger than any timestamp rounding (a millisecond) or encoder jitter, smaller than a video
    /// frame at 25 fps, so a jump is never hidden from audio/video sync.
    static let discontinuityLimit = MediaTime(1, per: 25)

    let outputRate: Int
    /// Media time of the run's first output sample; nil before the first frame and after a reset.
    private var runStart: MediaTime?
    /// Output frames stamped since `runStart`.
    private var outputFrames: Int64 = 0
    /// Where the input fed so far ends, counted from the run's start in input samples.
    private var inputEnd: MediaTime?

    init(outputRate: Int) {
        precondition(outputRate > 0, "bad output rate")
        self.outputRate = outputRate
    }

    /// Whether a frame stamped `time` jumps forward, away from the running input (so the run must end
    /// first: drain the resampler and stamp its tail, then `reset()`).
    func isDiscontinuous(at time: MediaTime?) -> Bool {
        guard let time, let inputEnd, runStart != nil else { return false }
        return time - inputEnd > Self.discontinuityLimit
    }

    /// Notes a decoded frame of `sampleCount` samples at `sampleRate`, stamped `time` (nil when it has
    /// no timestamp), about to be resampled. The first frame of a run anchors it.
    mutating func feed(at time: MediaTime?, sampleCount: Int, sampleRate: Int) {
        if runStart == nil {
            let start = time ?? inputEnd ?? .zero
            runStart = start
            inputEnd = start
            outputFrames = 0
        }
        inputEnd = (inputEnd ?? .zero) + MediaTime(Int64(sampleCount), per: Int64(sampleRate))
    }

    /// The time of the next `frameCount` output frames, which then count as stamped.
    mutating func stamp(frameCount: Int) -> MediaTime {
        let start = runStart ?? inputEnd ?? .zero
        let time = start + MediaTime(outputFrames, per: Int64(outputRate))
        outputFrames += Int64(frameCount)
        return time
    }

    /// Ends the run: the next frame fed starts a new one at its own time. `inputEnd` is kept so that
    /// a next frame without a timestamp still lands after what was played.
    mutating func reset() {
        if let runStart { inputEnd = runStart + MediaTime(outputFrames, per: Int64(outputRate)) }
        runStart = nil
        outputFrames = 0
    }

    /// After a seek nothing that came before matters.
    mutating func forget() {
        runStart = nil
        outputFrames = 0
        inputEnd = nil
    }
}
