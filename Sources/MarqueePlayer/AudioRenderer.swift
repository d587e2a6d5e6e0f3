import Foundation
import MarqueeCore

/// The audio thread: lays each item's trimmed audio end to end on the output, in the order the
/// present thread scheduled the items, so the sound runs on across item changes and loops with no
/// gap: silence where an item has no audio (a still, a video-only file, audio that ends early),
/// truncation at an item's end, and a few milliseconds of fade where audio is cut mid-stream.
final class AudioRenderer: @unchecked Sendable {
    /// How an item's audio opens: written by its decode thread once the timing is known.
    struct Header: Sendable {
        /// Frames the item lasts from its start (nil: as long as its audio).
        var length: Int64?
        /// The frame the audio resumes at (a seek); 0 from the start.
        var firstOffset: Int64
        var cutAtStart: Bool
        var cutAtEnd: Bool
    }

    /// 2.5 ms at 48 kHz: long enough that a cut does not click, too short to hear as a fade.
    static let fadeFrames: Int64 = 120
    /// Silence is written in slices so a ten-second still never allocates ten seconds of zeros.
    static let silenceSliceFrames: Int64 = 4096

    let output: AudioOutput
    private let reportError: @Sendable (String) -> Void
    private var lastError: String?
    private let schedule = BlockingQueue<AudioSegment>(capacity: 64)
    private let finished = NSCondition()
    private var isFinished = false
    private var previousSegmentWasCut = false

    /// `reportError` hears each new kind of write failure once, not once per block.
    init(output: AudioOutput, reportError: @escaping @Sendable (String) -> Void) {
        self.output = output
        self.reportError = reportError
    }

    func start() {
        let thread = Thread { [self] in
            while let segment = schedule.pop() { render(segment) }
            finished.withLock {
                isFinished = true
                finished.broadcast()
            }
        }
        thread.name = "marquee.audio"
        thread.qualityOfService = .userInteractive
        thread.start()
    }

    /// Queues an item's audio after everything scheduled before it.
    func schedule(_ segment: AudioSegment) {
        schedule.push(segment)
    }

    /// Ends the thread once what is scheduled has been written or cancelled.
    func finish() {
        schedule.close()
        finished.withLock { while !isFinished { finished.wait() } }
    }

    private var channels: Int { output.format.channelCount }

    private func render(_ segment: AudioSegment) {
        guard case .header(let header)? = segment.audio.pop() else {
            // Cancelled or failed before its timing was known: it takes no time and no sound.
            return
        }
        var written = header.firstOffset
        let fadeIn = header.cutAtStart || previousSegmentWasCut
        let fadeInFrom = header.firstOffset
        var endedNaturally = false
        func gain(at frame: Int64) -> Float {
            var value: Float = 1
            if fadeIn, frame - fadeInFrom < Self.fadeFrames { value = Float(frame - fadeInFrom) / Float(Self.fadeFrames) }
            if header.cutAtEnd, let length = header.length, length - frame < Self.fadeFrames {
                value = min(value, Float(length - frame) / Float(Self.fadeFrames))
            }
            return max(0, value)
        }
        while let output = segment.audio.pop() {
            switch output {
            case .header:
                continue
            case .piece(let piece):
                written = place(piece, at: written, length: header.length, gain: gain)
            case .end:
                if let length = header.length, written < length { writeSilence(frames: length - written) }
                endedNaturally = true
            }
        }
        previousSegmentWasCut = !endedNaturally
    }

    /// Writes a piece where it belongs after `written` frames: silence fills a gap before it, an
    /// overlap with what is already written is dropped, and nothing passes the item's length.
    private func place(_ piece: AudioPiece, at written: Int64, length: Int64?, gain: (Int64) -> Float) -> Int64 {
        var position = written
        if piece.offset > position {
            let gap = min(piece.offset, length ?? piece.offset) - position
            if gap > 0 { writeSilence(frames: gap) }
            position += max(gap, 0)
        }
        let pieceFrames = Int64(piece.samples.count / channels)
        let first = max(0, position - piece.offset)
        var last = pieceFrames
        if let length { last = min(last, length - piece.offset) }
        guard first < last else { return position }
        var samples = Array(piece.samples[Int(first) * channels..<Int(last) * channels])
        for frame in 0..<Int(last - first) {
            let factor = gain(piece.offset + first + Int64(frame))
            if factor < 1 {
                for channel in 0..<channels { samples[frame * channels + channel] *= factor }
            }
        }
        write(samples)
        return piece.offset + last
    }

    private func writeSilence(frames: Int64) {
        var remaining = frames
        while remaining > 0 {
            let slice = min(remaining, Self.silenceSliceFrames)
            write([Float](repeating: 0, count: Int(slice) * channels))
            remaining -= slice
        }
    }

    private func write(_ samples: [Float]) {
        do {
            try output.write(samples)
            lastError = nil
        } catch {
            // A device that fails a write loses that audio, not the playlist.
            let message = "audio output: \(error)"
            if message != lastError { reportError(message) }
            lastError = message
        }
    }
}
