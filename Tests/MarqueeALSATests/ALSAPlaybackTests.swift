import Foundation
import MarqueeALSA
import MarqueeCore
import MarqueeMedia
import MarqueePlayer
import Testing

/// The whole chain on real libraries: FFmpeg decodes and converts, the engine trims and lays items
/// end to end, the ALSA output writes them through alsa-lib's file plugin, and the test reads the
/// bytes back. Video runs on the virtual clock (the null plugin consumes at once, so these tests
/// prove what is written, sample by sample, not when it is heard).
@Suite struct ALSAPlaybackTests {
    @Test func theToneStartsAtItsSampleAndTheTrimIsExact() throws {
        // 0.5 s of silence then 1 kHz, trimmed to [0.25 s, 1.25 s): the tone starts 12000 frames in.
        let capture = try play([QueueItem(url: try Fixture.path(.silenceThenTone), start: MediaTime(1, per: 4), end: MediaTime(5, per: 4))])
        let left = stride(from: 0, to: capture.count, by: 2).map { capture[$0] }
        #expect(left.count == 48000)
        #expect(left[0..<12001].allSatisfy { $0 == 0 }, "silence up to the tone's first sample (sin 0 = 0)")
        // lavfi sine is 1/8 full scale; ffmpeg's mono → stereo upmix puts it at −3 dB on each side.
        let expected = (0..<1000).map { Float(sin(2 * Double.pi * 1000 * Double($0) / 48000) / 8 * 0.5.squareRoot()) }
        let worst = zip(left[12000..<13000], expected).map { abs($0 - $1) }.max() ?? 1
        #expect(worst < 3.0 / 32768, "the 1 kHz tone (s16 in the file) from frame 12000 on")
    }

    @Test func anAACClipLoopedAThousandTimesEndsExactlyAThousandTrimmedLengthsLater() throws {
        // AAC at 44.1 kHz (encoder priming, resampling to 48 kHz), trimmed to [0.1 s, 0.6 s): 24000
        // frames a loop, 192 MB of float samples in all, compared loop by loop as they are read back.
        let url = try Fixture.path(.aacTone)
        let items = Array(repeating: QueueItem(url: url, start: MediaTime(1, per: 10), end: MediaTime(3, per: 5)), count: 1000)
        let capture = try ALSACapture()
        try run(items, into: capture)
        let loopBytes = 24000 * 2 * 4
        let size = try FileManager.default.attributesOfItem(atPath: capture.file.path)[.size] as? Int ?? 0
        #expect(size == 1000 * loopBytes, "\(size / 8) frames, not \(1000 * 24000)")
        guard size == 1000 * loopBytes else { return }
        let reader = try FileHandle(forReadingFrom: capture.file)
        defer { try? reader.close() }
        let first = try #require(try reader.read(upToCount: loopBytes))
        let samples = first.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        #expect(samples.contains { abs($0) > 0.05 }, "the loop is not silence")
        var differing: [Int] = []
        for loop in 1..<1000 {
            let bytes = try #require(try reader.read(upToCount: loopBytes))
            if bytes != first { differing.append(loop) }
        }
        #expect(differing.isEmpty, "loops that are not the first, sample for sample: \(differing.prefix(10))")
    }

    @Test func volumeIsAGainOnEverySample() throws {
        let item = QueueItem(url: try Fixture.path(.silenceThenTone))
        let full = try play([item])
        var settings = PlayerSettings()
        settings.volume = 0.5
        let half = try play([item], settings: settings)
        #expect(half.count == full.count && !full.isEmpty)
        #expect(half == full.map { $0 * 0.5 })
    }

    @Test func itemsAtOtherRatesAreConvertedToTheOneDeviceFormat() throws {
        let items = [QueueItem(url: try Fixture.path(.tone44k)), QueueItem(url: try Fixture.path(.silenceThenTone))]
        let capture = try play(items)
        #expect(capture.count == (24000 + 72000) * 2, "0.5 s at 44.1 kHz and 1.5 s at 48 kHz, both at 48 kHz")
    }

    /// At a rate other than 1 the sound is time-stretched on its way to the device: 0.5 s of
    /// silence then 1 s of 1 kHz takes 1.5 s / rate, the tone starts at 0.5 s / rate, and it is
    /// still 1 kHz. atempo smears a change over its window (2048 frames of media time at 48 kHz),
    /// so the tone's start is found to within one.
    @Test(arguments: [0.5, 2.0])
    func atAnotherRateTheSoundIsStretchedWithItsPitchKept(rate: Double) throws {
        let capture = try play([QueueItem(url: try Fixture.path(.silenceThenTone))], rate: rate)
        let left = stride(from: 0, to: capture.count, by: 2).map { capture[$0] }
        let expected = 1.5 * 48000 / rate
        #expect(abs(Double(left.count) - expected) * rate < 2048, "\(left.count) frames at rate \(rate), expected \(expected)")
        let toneStart = try #require(left.firstIndex { abs($0) > 0.02 })
        #expect(abs(Double(toneStart) - 0.5 * 48000 / rate) * rate < 2048, "the tone from frame \(toneStart)")
        let window = left[(toneStart + 4800)..<(toneStart + 16800)]
        let crossings = zip(window, window.dropFirst()).filter { $0 < 0 && $1 >= 0 }.count
        #expect(abs(Double(crossings) * 4 - 1000) < 20, "\(crossings * 4) Hz: the pitch is kept")
    }

    private func play(_ items: [QueueItem], settings: PlayerSettings = PlayerSettings(), rate: Double = 1) throws -> [Float] {
        let capture = try ALSACapture()
        try run(items, into: capture, settings: settings, rate: rate)
        return capture.samples(as: .float32)
    }

    private func run(_ items: [QueueItem], into capture: ALSACapture, settings base: PlayerSettings = PlayerSettings(),
                     rate: Double = 1) throws {
        let output = ALSAOutput(options: capture.options(), log: { _ in })
        var settings = base
        settings.repeatMode = .off
        settings.exitWhenIdle = true
        let player = QueuePlayer(items: items, settings: settings, opener: FFmpegMediaOpener(),
                                 video: HeadlessVideoOutput(size: PixelSize(width: 32, height: 18)), audio: output,
                                 audioStretching: FFmpegAudioTimeStretching(), clock: VirtualClock(), events: { _ in })
        if rate != 1 { player.send(.setRate(rate), from: .application) }
        player.start()
        player.waitUntilFinished()
    }
}

/// Media made with the ffmpeg CLI once per test run.
enum Fixture: String {
    case silenceThenTone = "silence-then-tone.wav"
    case aacTone = "tone.m4a"
    case tone44k = "tone44k.wav"

    private var arguments: [String] {
        switch self {
        case .silenceThenTone:
            ["-f", "lavfi", "-i", "sine=frequency=1000:sample_rate=48000:duration=1", "-af", "adelay=500:all=1",
             "-ac", "2", "-c:a", "pcm_s16le"]
        case .aacTone:
            ["-f", "lavfi", "-i", "sine=frequency=440:sample_rate=44100:duration=1", "-ac", "2", "-c:a", "aac", "-b:a", "96k"]
        case .tone44k:
            ["-f", "lavfi", "-i", "sine=frequency=440:sample_rate=44100:duration=0.5", "-ac", "2", "-c:a", "pcm_s16le"]
        }
    }

    private static let lock = NSLock()
    nonisolated(unsafe) private static var made: [Fixture: String] = [:]
    private static let folder = FileManager.default.temporaryDirectory.appendingPathComponent("marquee-alsa-fixtures-\(getpid())")

    static func path(_ fixture: Fixture) throws -> String {
        try lock.withLock {
            if let path = made[fixture] { return path }
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let output = folder.appendingPathComponent(fixture.rawValue).path
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["ffmpeg", "-nostdin", "-hide_banner", "-loglevel", "error", "-y"] + fixture.arguments + [output]
            try process.run()
            process.waitUntilExit()
            guard process.terminationStatus == 0 else { throw FixtureError(message: "ffmpeg failed making \(fixture.rawValue)") }
            made[fixture] = output
            return output
        }
    }
}

struct FixtureError: Error { let message: String }
