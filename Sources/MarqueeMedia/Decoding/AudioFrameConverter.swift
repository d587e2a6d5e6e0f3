import CFFmpeg
import MarqueeCore

/// Turns one audio stream's decoded frames into `AudioBlock`s of one `AudioFormat`, stamped
/// sample-exactly in media time.
///
/// Encoder priming at the start is FFmpeg's to remove: libavcodec drops the samples that
/// `AV_PKT_DATA_SKIP_SAMPLES` side data (MP4 edit lists, LAME headers, Ogg) or the codec's own
/// `initial_padding` (Opus in Matroska) name, and stamps the first frame it keeps with its true time.
/// Padding at the end is removed by FFmpeg where the demuxer says it as side data (MP3, Ogg,
/// Matroska's DiscardPadding); MP4 says it only by the last packet's shortened duration, which the
/// decoder ignores, so that is trimmed here (see `keptSampleCount`).
final class AudioFrameConverter {
    let format: AudioFormat
    private let timeBase: AVRational
    /// The container time that is media time 0 (the reader's timeline origin).
    private let origin: MediaTime
    /// Media time at which the stream says its audio ends; nil when it does not say.
    private let streamEnd: MediaTime?
    private var resampler: AudioResampler?
    private var clock: AudioSampleClock
    /// Moves stamps rounded by the container back to where the stream's frames truly start, once
    /// the reader has learnt where that is (see `AudioFrameGrid`).
    var grid: AudioFrameGrid?

    init(format: AudioFormat, stream: StreamDescription, startTime: MediaTime?, origin: MediaTime) {
        self.format = format
        timeBase = stream.timeBase
        self.origin = origin
        streamEnd = stream.duration.map { (startTime ?? origin) + $0 - origin }
        clock = AudioSampleClock(outputRate: format.sampleRate)
    }

    /// The blocks `frame` completes: usually one, none while the resampler fills its filter, two
    /// when the frame jumps away from the running audio (the tail before the jump, then its own).
    func convert(_ frame: Frame) throws(FFmpegError) -> [AudioBlock] {
        let time = frame.presentationTime(timeBase: timeBase).map { $0 - origin }.map { grid?.snap($0) ?? $0 }
        var blocks: [AudioBlock] = []
        if clock.isDiscontinuous(at: time) {
            blocks += try drain()
            clock.reset()
        }
        if let resampler, resampler.input != AudioResampler.Input(frame) {
            // The stream changed layout, rate or sample format: the old context's tail goes first,
            // then the run goes on, contiguous, through a new one.
            blocks += try drain()
        }
        let sampleCount = keptSampleCount(of: frame, at: time)
        guard sampleCount > 0 else { return blocks }
        let resampler: AudioResampler
        if let existing = self.resampler {
            resampler = existing
        } else {
            resampler = try AudioResampler(for: frame, output: format)
            self.resampler = resampler
        }
        clock.feed(at: time, sampleCount: sampleCount, sampleRate: frame.sampleRate)
        blocks += stamped(try resampler.convert(frame, sampleCount: sampleCount))
        return blocks
    }

    /// At the end of the stream: what the resampler still holds.
    func finish() throws(FFmpegError) -> [AudioBlock] {
        try drain()
    }

    /// After a seek: drop what the resampler holds and stamp the next frame afresh.
    func reset() {
        resampler = nil
        clock.forget()
    }

    /// Drains and drops the resampler (the next frame builds one for its own layout).
    private func drain() throws(FFmpegError) -> [AudioBlock] {
        guard let resampler else { return [] }
        self.resampler = nil
        return stamped(try resampler.drain())
    }

    private func stamped(_ samples: [Float]) -> [AudioBlock] {
        guard !samples.isEmpty else { return [] }
        let frameCount = samples.count / format.channelCount
        return [AudioBlock(pts: clock.stamp(frameCount: frameCount), format: format, samples: samples)]
    }

    /// How many of the frame's samples are audio rather than end padding.
    ///
    /// Cut only where two signals agree, so that no real audio is ever lost: the stream's stated end
    /// falls inside this frame, and the frame's packet is stated to end exactly there (an MP4 edit
    /// list shortens the last packet to 136 of its 1024 samples). A duration estimated from
    /// timestamps or the bit rate (MPEG-TS, raw MP3) does not meet a shortened packet's end, and
    /// timestamps rounded to a time base coarser than the sample rate (Matroska's milliseconds) are
    /// allowed one tick of slack.
    private func keptSampleCount(of frame: Frame, at time: MediaTime?) -> Int {
        let count = frame.sampleCount
        guard let time, let streamEnd, let packetDuration = frame.duration(timeBase: timeBase), frame.sampleRate > 0 else {
            return count
        }
        let rate = Int64(frame.sampleRate)
        let frameEnd = time + MediaTime(Int64(count), per: rate)
        guard time < streamEnd, streamEnd < frameEnd else { return count }
        let tick = MediaTime(Int64(timeBase.num), per: Int64(timeBase.den))
        let packetEnd = time + packetDuration
        guard max(packetEnd - streamEnd, streamEnd - packetEnd) <= tick else { return count }
        let kept = (streamEnd - time).ticks(timescale: rate, rounding: .toNearestOrAwayFromZero)
        return Int(min(max(kept, 0), Int64(count)))
    }
}
