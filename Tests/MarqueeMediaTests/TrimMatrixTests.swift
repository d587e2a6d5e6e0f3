import Foundation
import MarqueeCore
@testable import MarqueeMedia
import MarqueePlayer
import Testing

/// Trimmed items present exactly what a seek-free decode of the same file presents over the same
/// [start, end): the same frames with the same pts, starting with the frame on screen at `start`,
/// and the same samples within the resampler's rounding. Each file plays twice through the engine
/// (real FFmpeg, headless video, a capturing null audio output, the virtual clock): once whole from
/// its start, with no seek, as the reference; then as items that each start with a seek.
@Suite struct TrimMatrixTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let recipe: FixtureMedia.Recipe
        /// Items whose timing does not depend on where the key frames fall (the issue's own cases).
        var fixedItems: [(start: MediaTime, end: MediaTime)] = []
        var testDescription: String { recipe.name }
    }

    static let videoCases: [Case] = [
        Case(recipe: .trimH264GOP15MP4), Case(recipe: .trimH264GOP15MKV), Case(recipe: .trimH264GOP15TS),
        Case(recipe: .trimH264GOP250MP4), Case(recipe: .trimH264GOP250MKV), Case(recipe: .trimH264GOP250TS),
        Case(recipe: .trimH264OpenGOPMP4), Case(recipe: .trimH264OpenGOPMKV), Case(recipe: .trimH264OpenGOPTS),
        Case(recipe: .trimHEVCMP4), Case(recipe: .trimVP9OpusWebM),
        // The issue's stream: start 1, end 2 showed 30 frames from pts 1.0119 instead of 31 from 0.9785.
        Case(recipe: .trimMPEG2TS, fixedItems: [(MediaTime(seconds: 1), MediaTime(seconds: 2))]),
        Case(recipe: .trimMPEG4AVI), Case(recipe: .trimAV1WebM),
    ]

    /// Audio-only: the issue's MP3 item (0.5 to 1.5 s began with 75 ms of silence), starts on and off
    /// packet boundaries, ends near the end of the 3 s tone.
    static let audioItems: [(start: MediaTime, end: MediaTime)] = [
        (MediaTime(1, per: 2), MediaTime(3, per: 2)), (MediaTime(seconds: 1), MediaTime(29, per: 10)),
        (MediaTime(12345, per: 10000), MediaTime(29, per: 10)), (MediaTime(seconds: 2), MediaTime(29, per: 10)),
    ]
    static let audioCases: [Case] = [
        Case(recipe: .trimMP3, fixedItems: audioItems), Case(recipe: .trimAACADTS, fixedItems: audioItems),
        Case(recipe: .trimFLAC, fixedItems: audioItems), Case(recipe: .trimVorbisOgg, fixedItems: audioItems),
        Case(recipe: .trimPCMWAV, fixedItems: audioItems),
    ]

    /// How far a trimmed item's sample may be from the reference's. A run of decoded audio is
    /// resampled from where decoding started, so after a seek its output samples sit up to half an
    /// output sample away from the reference's (placement rounds to the nearest sample): on the
    /// 1 kHz sine at 1/8 amplitude that is at most 2π·1000·(1/96000)/8 ≈ 0.0082. Lost audio (silence,
    /// a decoder restarting without its history) or a shift by one whole sample (0.016) is more.
    static let sampleTolerance: Float = 0.0095

    @Test(arguments: videoCases)
    func trimmedVideoItemsPresentWhatASeekFreeDecodePresents(_ trimCase: Case) throws {
        let url = try FixtureMedia.path(trimCase.recipe)
        let reference = try Self.play([QueueItem(url: url)])
        try #require(reference.failures.isEmpty, "\(reference.failures)")
        let pts = reference.frames[0] ?? []
        try #require(pts.count > 20, "the reference decode presented \(pts.count) frames")
        let items = trimCase.fixedItems + Self.keyFramePositions(pts: pts, keyFrames: try Self.keyFrameTimes(of: url))
        try check(items, of: url, against: reference)
    }

    @Test(arguments: audioCases)
    func trimmedAudioItemsPlayWhatASeekFreeDecodePlays(_ trimCase: Case) throws {
        let url = try FixtureMedia.path(trimCase.recipe)
        let reference = try Self.play([QueueItem(url: url)])
        try #require(reference.failures.isEmpty, "\(reference.failures)")
        try check(trimCase.fixedItems, of: url, against: reference)
    }

    /// Plays `items` (in one queue, so each after the one before, gapless) and compares each with
    /// the reference.
    private func check(_ items: [(start: MediaTime, end: MediaTime)], of url: String, against reference: Run) throws {
        let run = try Self.play(items.map { QueueItem(url: url, start: $0.start, end: $0.end) })
        #expect(run.failures.isEmpty, "\(run.failures)")
        var audioOffset = 0
        for (index, item) in items.enumerated() {
            let label = "item \(index) [\(item.start.seconds), \(item.end.seconds))"
            let expectedFrames = Self.presentedFrames(of: reference.frames[0] ?? [], from: item.start, to: item.end)
            let frames = run.frames[index] ?? []
            let sameFrames = frames == expectedFrames
            #expect(sameFrames, "\(label): presented \(frames.count) frames from pts \(frames.first?.seconds ?? -1), expected \(expectedFrames.count) from pts \(expectedFrames.first?.seconds ?? -1)")

            let timing = ItemTiming(start: item.start, end: item.end)
            let length = Int(AudioTrimmer.sampleCount(of: timing, sampleRate: Self.rate)!)
            let first = Int(item.start.ticks(timescale: Int64(Self.rate), rounding: .up))
            guard reference.left.count >= first + length, run.left.count >= audioOffset + length else {
                Issue.record("\(label): \(run.left.count - audioOffset) samples played, \(length) expected")
                return
            }
            let played = run.left[audioOffset..<(audioOffset + length)]
            let expected = Self.fadedLikeACutItem(Array(reference.left[first..<(first + length)]))
            let differences = zip(played, expected).map { abs($0 - $1) }
            let worst = differences.enumerated().max { $0.element < $1.element }
            #expect((worst?.element ?? 0) <= Self.sampleTolerance,
                    "\(label): sample \(worst?.offset ?? -1) is off by \(worst?.element ?? 0); the first \(played.prefix { $0 == 0 }.count) samples are silent; \(Self.shiftReport(Array(played), expected))")
            audioOffset += length
        }
    }

    // MARK: Expectations

    /// What VideoTrimmer presents for [start, end) from a decode's pts: the frame on screen at
    /// `start` (the last at or before it, else the first), then every frame before `end`.
    static func presentedFrames(of pts: [MediaTime], from start: MediaTime, to end: MediaTime) -> [MediaTime] {
        let first = pts.lastIndex { $0 <= start } ?? 0
        return pts[first...].filter { $0 < end }
    }

    /// The items the issue asks for around the key frame nearest the middle of the file: start on
    /// it, one frame before it (half way through that frame), one frame after it, and in the middle
    /// of the GOP before it (a third of the way through a frame); each ends two frames before the
    /// last.
    static func keyFramePositions(pts: [MediaTime], keyFrames: Set<MediaTime>) -> [(start: MediaTime, end: MediaTime)] {
        let keyIndexes = pts.indices.filter { keyFrames.contains(pts[$0]) && $0 > 0 && $0 < pts.count - 3 }
        guard let key = keyIndexes.min(by: { abs($0 - pts.count / 2) < abs($1 - pts.count / 2) }) else { return [] }
        let previousKey = pts.indices.last { keyFrames.contains(pts[$0]) && $0 < key } ?? 0
        let middle = (previousKey + key) / 2
        let end = pts[pts.count - 2]
        func part(_ span: MediaTime, over parts: Int64) -> MediaTime { MediaTime(span.numerator, per: span.denominator * parts) }
        return [
            (pts[key], end),
            (pts[key - 1] + part(pts[key] - pts[key - 1], over: 2), end),
            (pts[key + 1], end),
            (pts[middle] + part(pts[middle + 1] - pts[middle], over: 3), end),
        ]
    }

    /// The pts of the pictures the decoder marks as key frames, in a decode from the start.
    static func keyFrameTimes(of url: String) throws -> Set<MediaTime> {
        let reader = try FFmpegMediaReader(url: url)
        var keys: Set<MediaTime> = []
        while let picture = try reader.nextPicture() {
            if let decoded = picture as? DecodedPicture, decoded.isKeyFrame { keys.insert(picture.pts) }
        }
        return keys
    }

    /// Which shift of `played` against `expected` (in samples, ±64) matches best, past the fades:
    /// says whether a mismatch is misplaced audio or lost audio.
    static func shiftReport(_ played: [Float], _ expected: [Float]) -> String {
        let body = 200..<max(200, min(played.count, expected.count) - 200)
        func error(_ shift: Int) -> Float {
            body.map { abs(played[$0] - expected[min(max($0 + shift, 0), expected.count - 1)]) }.max() ?? 0
        }
        let best = (-64...64).min { error($0) < error($1) } ?? 0
        return "best match shifted by \(best) samples (off by \(error(best)) then)"
    }

    /// The renderer fades a cut item in and out over `AudioRenderer.fadeFrames` (120) frames.
    static func fadedLikeACutItem(_ samples: [Float]) -> [Float] {
        let fade = 120
        return samples.enumerated().map { index, sample in
            let gain = min(1, Float(index) / Float(fade), Float(samples.count - index) / Float(fade))
            return sample * gain
        }
    }

    // MARK: Playing

    static let rate = AudioFormat.standard.sampleRate

    struct Run {
        /// Presented (or dropped) frames' pts, by item index, in order.
        var frames: [Int: [MediaTime]] = [:]
        /// The left channel of everything written to the audio output.
        var left: [Float] = []
        var failures: [String] = []
    }

    private final class Recorder: @unchecked Sendable {
        private let lock = NSLock()
        private var run = Run()

        func record(_ event: PlayerEvent) {
            lock.withLock {
                switch event {
                case .frame(let item, let pts, _, _, _): run.frames[item, default: []].append(pts)
                case .error(let message): run.failures.append(message)
                case .itemEnded(_, _, .playbackError, let message): run.failures.append(message ?? "failed")
                default: break
                }
            }
        }

        var recorded: Run { lock.withLock { run } }
    }

    /// Plays `items` once, as fast as the pipeline allows, and returns what was presented and heard.
    static func play(_ items: [QueueItem]) throws -> Run {
        var settings = PlayerSettings()
        settings.repeatMode = .off
        settings.exitWhenIdle = true
        let recorder = Recorder()
        let audio = NullAudioOutput(format: .standard, keepsSamples: true)
        let player = QueuePlayer(items: items, settings: settings, opener: FFmpegMediaOpener(),
                                 video: HeadlessVideoOutput(size: PixelSize(width: 160, height: 120)), audio: audio,
                                 clock: VirtualClock(), events: { recorder.record($0) })
        let finished = DispatchSemaphore(value: 0)
        player.start()
        Thread.detachNewThread {
            player.waitUntilFinished()
            finished.signal()
        }
        if finished.wait(timeout: .now() + 120) == .timedOut {
            player.shutDown()
            finished.wait()
            throw FixtureError("the queue did not finish playing within 120 s")
        }
        var run = recorder.recorded
        let samples = audio.samples
        run.left = stride(from: 0, to: samples.count, by: 2).map { samples[$0] }
        return run
    }
}
