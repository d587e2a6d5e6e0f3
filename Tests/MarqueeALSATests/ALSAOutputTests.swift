import Foundation
import MarqueeALSA
import MarqueeCore
import Testing

@Suite struct ALSAOutputTests {
    @Test func floatSamplesReachTheFileBitExactInOrder() throws {
        let capture = try ALSACapture()
        let log = LogLines()
        let output = ALSAOutput(options: capture.options(), log: log.sink)
        #expect(output.format == AudioFormat(sampleRate: 48000, channelCount: 2))
        #expect(output.setup?.sampleFormat == .float32, "\(log.all)")
        let tone = stereoSine(frames: 48000, frequency: 1000, rate: 48000)
        for start in stride(from: 0, to: tone.count, by: 2048) {
            try output.write(Array(tone[start..<min(tone.count, start + 2048)]))
        }
        output.drain()
        #expect(capture.samples(as: .float32) == tone)
    }

    @Test func aDeviceTakingOnlyIntegersGetsS32ConvertedInSwift() throws {
        // alsa-lib's `linear` plugin takes integer formats only and stores S16 in the file: FLOAT_LE
        // is refused, S32_LE is negotiated and Marquee converts to it.
        let capture = try ALSACapture(slaveDefinition: """
            pcm.capture { type linear slave { pcm "tofile" format S16_LE } }
            """)
        let log = LogLines()
        let output = ALSAOutput(options: capture.options(), log: log.sink)
        #expect(output.setup?.sampleFormat == .signed32, "\(log.all)")
        let tone = stereoSine(frames: 4800, frequency: 1000, rate: 48000)
        try output.write(tone)
        output.drain()
        let heard = capture.samples(as: .signed16)
        #expect(heard.count == tone.count)
        let worst = zip(heard, tone).map { abs($0 - $1) }.max() ?? 1
        // alsa-lib's linear plugin truncates S32 to S16 (it does not round): within two 16-bit steps.
        #expect(worst <= 2.0 / 32767)
    }

    @Test func s16IsRoundedAndClippedExactly() throws {
        let capture = try ALSACapture()
        let output = ALSAOutput(options: capture.options(sampleFormats: [.signed16]), log: { _ in })
        #expect(output.setup?.sampleFormat == .signed16)
        let samples: [Float] = [0, 0.5, -0.5, 1, -1, 1.5, -1.5, .nan, 1.0 / 32767, -0.25]
        try output.write(samples)
        output.drain()
        let bytes = capture.bytes
        let values = stride(from: 0, to: bytes.count - 1, by: 2).map { Int16(bitPattern: UInt16(bytes[$0]) | UInt16(bytes[$0 + 1]) << 8) }
        #expect(values == [0, 16384, -16384, 32767, -32767, 32767, -32767, 0, 1, -8192])
    }

    @Test func anotherRateIsNegotiatedAndAnnouncedToTheEngine() throws {
        let capture = try ALSACapture()
        let output = ALSAOutput(options: capture.options(rate: 44100), log: { _ in })
        #expect(output.format == AudioFormat(sampleRate: 44100, channelCount: 2))
        #expect(output.setup?.sampleRate == 44100)
    }

    @Test func aMissingPCMIsOneLineAndItsAudioIsPacedInRealTimeNotSpun() throws {
        let capture = try ALSACapture()
        let log = LogLines()
        let output = ALSAOutput(options: capture.options(device: "nosuch"), log: log.sink)
        #expect(output.setup == nil)
        #expect(output.format == .standard, "the preferred format, so the engine can start")
        #expect(log.all.count == 1)
        #expect(log.all.first?.contains("'nosuch'") == true && log.all.first?.contains("playing video only") == true, "\(log.all)")
        #expect(output.framesPlayed() == nil, "no device: the monotonic clock rules")
        // 0.3 s of audio without a device takes about 0.3 s less the 0.1 s buffer lead.
        let started = ContinuousClock.now
        try output.write(stereoSine(frames: 14400, frequency: 1000, rate: 48000))
        let took = ContinuousClock.now - started
        #expect(took >= .milliseconds(150) && took < .milliseconds(600), "\(took)")
        #expect(log.all.count == 1, "retries every 0.1 s are quiet: \(log.all)")
    }

    @Test func aDeviceThatFailsMidStreamIsOneLineAndIsUsedAgainWhenItWorks() throws {
        // alsa-lib's file plugin opens its file at the first write: while the folder is missing
        // every write fails with EIO, like a device unplugged mid-stream.
        let capture = try ALSACapture()
        let later = capture.folder.appendingPathComponent("later")
        var options = capture.options(device: "late")
        options.configuration = try ALSAConfiguration(text: """
            pcm.late { type file slave.pcm "sink" file "\(later.path)/capture.raw" format "raw" }
            pcm.sink { type null }
            """)
        let log = LogLines()
        let output = ALSAOutput(options: options, log: log.sink)
        let tone = stereoSine(frames: 14400, frequency: 1000, rate: 48000)
        try output.write(tone)
        try output.write(tone)
        let failures = log.all.filter { $0.contains("playing video only") }
        #expect(failures.count == 1, "\(log.all)")
        #expect(failures.first?.contains("snd_pcm_writei on 'late'") == true, "\(log.all)")

        try FileManager.default.createDirectory(at: later, withIntermediateDirectories: true)
        Thread.sleep(forTimeInterval: 0.15)   // past the 0.1 s retry interval
        try output.write(tone)
        output.drain()
        #expect(log.all.last?.contains("is back") == true, "\(log.all)")
        #expect(log.all.count == 3, "\(log.all)")
        let heard = try [UInt8](Data(contentsOf: later.appendingPathComponent("capture.raw")))
        #expect(heard.count > 0 && heard.count <= tone.count * 4)
    }

    @Test(arguments: [false, true])
    func pauseAndResumeKeepTheStreamWhole(byDropping: Bool) throws {
        let capture = try ALSACapture()
        var options = capture.options()
        options.pausesByDropping = byDropping
        let output = ALSAOutput(options: options, log: { _ in })
        let tone = stereoSine(frames: 24000, frequency: 440, rate: 48000)
        try output.write(Array(tone[0..<24000]))
        output.setPaused(true)
        #expect(output.framesPlayed() == nil, "paused: the clock stops with the sound")
        output.setPaused(false)
        try output.write(Array(tone[24000...]))
        output.drain()
        // The null plugin consumes at once, so nothing was queued at the pause: this proves the
        // pause path loses and repeats nothing, not that queued audio is re-primed.
        #expect(capture.samples(as: .float32) == tone)
    }

    @Test func badInputNeverCrashes() throws {
        let capture = try ALSACapture()
        let output = ALSAOutput(options: capture.options(), log: { _ in })
        try output.write([])
        try output.write([0.1])   // half a frame: ignored
        #expect(throws: ALSAError.self) { try ALSAConfiguration(text: "pcm.broken { type ") }
        let nonsense = ALSAOutput(options: ALSAOutputOptions(device: "", configuration: capture.configuration), log: { _ in })
        #expect(nonsense.setup == nil)
    }
}

@Suite struct ALSASampleFormatTests {
    @Test func preferenceIsFloatThenS32ThenS16() {
        #expect(ALSASampleFormat.choose(from: ALSASampleFormat.allCases, accepted: { _ in true }) == .float32)
        #expect(ALSASampleFormat.choose(from: ALSASampleFormat.allCases, accepted: { $0 != .float32 }) == .signed32)
        #expect(ALSASampleFormat.choose(from: ALSASampleFormat.allCases, accepted: { $0 == .signed16 }) == .signed16)
        #expect(ALSASampleFormat.choose(from: ALSASampleFormat.allCases, accepted: { _ in false }) == nil)
    }
}
