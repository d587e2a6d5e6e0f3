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
}
