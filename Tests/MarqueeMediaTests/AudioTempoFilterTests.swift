import Foundation
import MarqueeCore
import MarqueeMedia
import Testing

/// libavfilter's atempo through the player's port: the pace changes, the pitch does not, and a
/// mark in the input comes out where the rate says (output frame k stands for input frame k × rate)
/// to within one of atempo's windows (2048 frames at 48 kHz, 43 ms of media time): atempo overlaps
/// and adds windows, so a change in the sound is smeared over one.
@Suite struct AudioTempoFilterTests {
    static let format = AudioFormat.standard
    static let rate = 48000
    /// atempo's window at 48 kHz, in media (input) frames.
    static let window = 2048.0

    /// Four seconds of a 1 kHz stereo tone, at half scale for 2 s and a tenth after: the mark.
    static func markedTone() -> [Float] {
        var samples: [Float] = []
        samples.reserveCapacity(4 * rate * 2)
        for frame in 0..<(4 * rate) {
            let level = frame < 2 * rate ? 0.5 : 0.1
            let value = Float(sin(2 * Double.pi * 1000 * Double(frame) / Double(rate)) * level)
            samples.append(value)
            samples.append(value)
        }
        return samples
    }

    /// Feeds `samples` in 1024-frame blocks, as the audio thread writes, then finishes.
    static func stretch(_ samples: [Float], rate: Double) throws -> [Float] {
        let stretcher = try FFmpegAudioTimeStretching().makeStretcher(rate: rate, format: format)
        var output: [Float] = []
        for start in stride(from: 0, to: samples.count, by: 2048) {
            output += try stretcher.process(Array(samples[start..<min(start + 2048, samples.count)]))
        }
        output += try stretcher.finish()
        return output
    }

    /// Where the level first drops below the midpoint (RMS 0.2 over 2 ms of the left channel):
    /// the middle of the window of the first 2 ms that are quieter.
    static func levelDrop(_ samples: [Float]) -> Int? {
        let span = 96
        let frames = samples.count / 2
        for start in stride(from: 0, to: frames - span, by: 8) {
            let power = (start..<(start + span)).reduce(Float(0)) { $0 + samples[$1 * 2] * samples[$1 * 2] } / Float(span)
            if power.squareRoot() < 0.2 { return start + span / 2 }
        }
        return nil
    }

    /// Upward zero crossings of the left channel per second, over a stretch away from the gap.
    static func frequency(_ samples: [Float], from: Int, frames: Int) -> Double {
        var crossings = 0
        for frame in (from + 1)..<(from + frames) where samples[(frame - 1) * 2] < 0 && samples[frame * 2] >= 0 {
            crossings += 1
        }
        return Double(crossings) * Double(rate) / Double(frames)
    }

    @Test(arguments: [0.25, 0.5, 0.8, 1.5, 2, 4])
    func thePaceChangesAndThePitchDoesNot(rate: Double) throws {
        let input = Self.markedTone()
        let output = try Self.stretch(input, rate: rate)
        let expectedFrames = Double(4 * Self.rate) / rate
        let frames = output.count / 2
        // 4 s / rate, to within a window of media time for each atempo in the chain (two under 0.5).
        let windows = rate < 0.5 ? 2.0 : 1.0
        #expect(abs(Double(frames) - expectedFrames) * rate < windows * Self.window,
                "\(frames) frames at rate \(rate), expected \(expectedFrames)")
        let drop = try #require(Self.levelDrop(output))
        // The mark at media time 2 s is heard at 2 s / rate.
        let expectedDrop = 2 * Double(Self.rate) / rate
        #expect(abs(Double(drop) - expectedDrop) * rate < Self.window, "the mark at frame \(drop), expected \(expectedDrop)")
        let pitch = Self.frequency(output, from: Self.rate / 10, frames: Self.rate / 4)
        #expect(abs(pitch - 1000) < 20, "\(pitch) Hz at rate \(rate): the pitch is kept")
    }

    @Test func aRateOutsideItsRangeIsRefusedWithTheRate() {
        #expect {
            _ = try FFmpegAudioTimeStretching().makeStretcher(rate: 8, format: Self.format)
        } throws: { "\($0)".contains("rate outside 0.25 to 4") }
    }

    @Test func nothingIsTakenAfterTheEnd() throws {
        let stretcher = try FFmpegAudioTimeStretching().makeStretcher(rate: 2, format: Self.format)
        _ = try stretcher.process([Float](repeating: 0.1, count: 9600))
        _ = try stretcher.finish()
        #expect(try stretcher.process([Float](repeating: 0.1, count: 9600)).isEmpty)
        #expect(try stretcher.finish().isEmpty)
    }
}
