import Foundation
import MarqueeALSA
import MarqueeCore
import Synchronization

/// A PCM named `capture` made of alsa-lib's own `file` and `null` plugins, defined in a private
/// configuration (no sound card, no environment variable, so tests run in parallel): everything
/// written is appended, as the negotiated sample format, to a raw file the test reads back.
/// `slave` can put a conversion between the writer and the file (e.g. a `linear` plugin fixing S16).
final class ALSACapture: Sendable {
    let folder: URL
    let file: URL
    let configuration: ALSAConfiguration

    init(slaveDefinition: String? = nil) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("marquee-alsa-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        file = folder.appendingPathComponent("capture.raw")
        let fileDefinition = """
            pcm.tofile {
                type file
                slave.pcm "sink"
                file "\(file.path)"
                format "raw"
            }
            pcm.sink { type null }
            """
        let front = slaveDefinition ?? """
            pcm.capture { type plug slave.pcm "tofile" }
            """
        configuration = try ALSAConfiguration(text: fileDefinition + "\n" + front)
    }

    deinit { try? FileManager.default.removeItem(at: folder) }

    func options(device: String = "capture", sampleFormats: [ALSASampleFormat] = ALSASampleFormat.allCases,
                 rate: Int = 48000) -> ALSAOutputOptions {
        ALSAOutputOptions(device: device, preferredRate: rate, sampleFormats: sampleFormats,
                          retryInterval: MediaTime(1, per: 10), configuration: configuration)
    }

    var bytes: [UInt8] { (try? [UInt8](Data(contentsOf: file))) ?? [] }

    /// The capture as floats, decoding `format`.
    func samples(as format: ALSASampleFormat) -> [Float] {
        let bytes = self.bytes
        switch format {
        case .float32:
            return Self.floats(bytes)
        case .signed32:
            return stride(from: 0, to: bytes.count - 3, by: 4).map { Float(Int32(bitPattern: Self.word(bytes, $0))) / 2_147_483_647 }
        case .signed16:
            return stride(from: 0, to: bytes.count - 1, by: 2).map {
                Float(Int16(bitPattern: UInt16(bytes[$0]) | UInt16(bytes[$0 + 1]) << 8)) / 32767
            }
        }
    }

    /// Little-endian 32-bit floats, as alsa-lib writes FLOAT_LE.
    static func floats(_ bytes: [UInt8]) -> [Float] {
        stride(from: 0, to: bytes.count - 3, by: 4).map { Float(bitPattern: word(bytes, $0)) }
    }

    private static func word(_ bytes: [UInt8], _ at: Int) -> UInt32 {
        UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2]) << 16 | UInt32(bytes[at + 3]) << 24
    }
}

/// Log lines an output wrote.
final class LogLines: Sendable {
    private let lines = Mutex<[String]>([])
    var all: [String] { lines.withLock { $0 } }
    func append(_ line: String) { lines.withLock { $0.append(line) } }
    var sink: @Sendable (String) -> Void { { [self] in append($0) } }
}

/// A stereo sine, left = sin, right = −sin, at `frequency` Hz.
func stereoSine(frames: Int, frequency: Double, rate: Int, amplitude: Float = 0.5, from first: Int = 0) -> [Float] {
    var samples: [Float] = []
    samples.reserveCapacity(frames * 2)
    for frame in first..<(first + frames) {
        let value = amplitude * Float(sin(2 * Double.pi * frequency * Double(frame) / Double(rate)))
        samples.append(value)
        samples.append(-value)
    }
    return samples
}
