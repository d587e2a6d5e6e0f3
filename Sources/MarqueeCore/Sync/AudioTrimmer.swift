/// Trims decoded audio to the sample: which samples of a chunk lie in an item's [start, end).
///
/// Packets (1024 AAC samples, 20 ms of Opus) do not line up with user times, so cutting at packet
/// granularity drifts by up to a packet per loop. Sample k of a chunk sits at pts + k / rate; a
/// sample is kept when its time is at or after `start` and before `end`.
public enum AudioTrimmer {
    /// The kept sample indexes of a chunk of `count` samples at `pts`, `sampleRate` per second.
    public static func keptSamples(pts: MediaTime, count: Int, sampleRate: Int, timing: ItemTiming) -> Range<Int> {
        precondition(sampleRate > 0 && count >= 0, "bad audio chunk")
        let rate = Int64(sampleRate)
        let first = (timing.start - pts).ticks(timescale: rate, rounding: .up)
        let last = timing.end.map { ($0 - pts).ticks(timescale: rate, rounding: .up) } ?? Int64(count)
        let lower = Int(min(max(first, 0), Int64(count)))
        let upper = Int(min(max(last, Int64(lower)), Int64(count)))
        return lower..<upper
    }

    /// How many samples an item of this timing lasts at `sampleRate`: what a gapless sequence of
    /// items must add up to, exactly.
    public static func sampleCount(of timing: ItemTiming, sampleRate: Int) -> Int64? {
        guard let end = timing.end else { return nil }
        let rate = Int64(sampleRate)
        return end.ticks(timescale: rate, rounding: .up) - timing.start.ticks(timescale: rate, rounding: .up)
    }
}
