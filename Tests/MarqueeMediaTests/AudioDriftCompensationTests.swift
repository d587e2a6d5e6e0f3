import Foundation
import MarqueeCore
import MarqueeMedia
import Testing

/// libswresample's compensation through the player's port, as frame-locked playback uses it to keep
/// the sound on the wall clock: at a pace of 1 ± 0.5 % the output is that much shorter or longer,
/// the tone's pitch moves by as much (it is resampling, not atempo), a mark stays where the pace
/// puts it, and nothing is cut.
@Suite struct AudioDriftCompensationTests {
    static let format = AudioFormat.standard

    static func compensate(_ samples: [Float], rate: Double) throws -> [Float] {
        let compensator = try FFmpegAudioDriftCompensation().makeStretcher(rate: rate, format: format)
        var output: [Float] = []
        for start in stride(from: 0, to: samples.count, by: 2048) {
            output += try compensator.process(Array(samples[start..<min(start + 2048, samples.count)]))
        }
        return output + (try compensator.finish())
    }

    @Test(arguments: [1.005, 0.995, 1.0005])
    func theOutputIsShorterOrLongerByThePaceAndThePitchMovesWithIt(rate: Double) throws {
        let input = AudioTempoFilterTests.markedTone()
        let output = try Self.compensate(input, rate: rate)
        let inputFrames = Double(input.count / 2)
        let outputFrames = Double(output.count / 2)
        // Within 1/10000 of the pace's length: 19 frames of 4 s.
        #expect(abs(outputFrames - inputFrames / rate) < inputFrames / 10_000, "\(outputFrames) frames for \(inputFrames / rate)")
        let pitch = AudioTempoFilterTests.frequency(output, from: 24_000, frames: 48_000)
        #expect(abs(pitch - 1000 * rate) < 1.5, "\(pitch) Hz")
        // The level drops at input frame 96000: output frame 96000 / rate, to within a few frames of filter delay.
        let drop = try #require(AudioTempoFilterTests.levelDrop(output))
        #expect(abs(Double(drop) - 96_000 / rate) < 100, "drop at \(drop)")
    }

    @Test func outsideHalfAPercentAndABitIsRefused() {
        #expect(throws: (any Error).self) { try FFmpegAudioDriftCompensation().makeStretcher(rate: 1.05, format: Self.format) }
    }
}
