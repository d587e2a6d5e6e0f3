import MarqueeCore

/// Where an audio stream's frames truly start, for containers whose timestamps are coarser than a
/// sample: Matroska and WebM stamp packets to the millisecond, so 1024-sample AAC frames at 48 kHz
/// (21.333 ms) carry 0, 21, 42, 64 ms. Decoding from the start never looks at those stamps after the
/// first frame (`AudioSampleClock` counts samples), but a run that starts after a seek is anchored
/// on its first frame's stamp, up to half a millisecond (24 samples) away from where a decode from
/// the start puts the same samples.
///
/// Frames of a codec with a fixed frame size sit on a grid: frame k at `origin` + k × `frameDuration`.
/// Learnt from the first frames of a decode from the start (the reference every seek must match), it
/// moves a stamp to the grid point it was rounded from.
struct AudioFrameGrid: Equatable {
    /// Media time of grid frame 0 (before the first decoded frame when the decoder dropped priming
    /// samples from it, as Opus's pre-skip does).
    let origin: MediaTime
    /// Samples per frame, at `sampleRate`.
    let frameSize: Int64
    let sampleRate: Int64
    /// How far a stamp may be from its grid point: the container's timestamp unit.
    let tolerance: MediaTime

    /// The grid from the first three frames decoded from the stream's start: their media times
    /// and sample counts. Nil unless the second and third have the same size (the fixed frame size;
    /// the first may be shorter by the priming the decoder dropped).
    init?(firstFrames frames: [(time: MediaTime, sampleCount: Int)], sampleRate: Int, tolerance: MediaTime) {
        guard frames.count >= 3, sampleRate > 0, frames[1].sampleCount > 0,
              frames[1].sampleCount == frames[2].sampleCount,
              frames[0].sampleCount <= frames[1].sampleCount else { return nil }
        let rate = Int64(sampleRate)
        self.sampleRate = rate
        frameSize = Int64(frames[1].sampleCount)
        origin = frames[0].time + MediaTime(Int64(frames[0].sampleCount) - frameSize, per: rate)
        self.tolerance = tolerance
        // A tolerance of half a frame or more would snap any stamp anywhere.
        guard tolerance * 2 < frameDuration else { return nil }
    }

    var frameDuration: MediaTime { MediaTime(frameSize, per: sampleRate) }

    /// `time` moved to its grid point, when it is within `tolerance` of one; else `time` itself
    /// (a frame off the grid: a gap in the stream, a variable frame size).
    func snap(_ time: MediaTime) -> MediaTime {
        let samples = (time - origin).ticks(timescale: sampleRate, rounding: .toNearestOrAwayFromZero)
        let index = MediaTime(samples, per: frameSize).ticks(timescale: 1, rounding: .toNearestOrAwayFromZero)
        let snapped = origin + MediaTime(index * frameSize, per: sampleRate)
        let distance = snapped > time ? snapped - time : time - snapped
        return distance <= tolerance ? snapped : time
    }
}
