import Foundation
import MarqueeCore

/// `--audio null`: an ideal device that consumes every sample at once, so the video clock rules.
/// It counts what it was fed, and can keep it, so tests can check trims and gaps to the sample.
public final class NullAudioOutput: AudioOutput, @unchecked Sendable {
    public let format: AudioFormat
    private let keepsSamples: Bool
    private let lock = NSLock()
    private var frames: Int64 = 0
    private var kept: [Float] = []

    public init(format: AudioFormat = .standard, keepsSamples: Bool = false) {
        self.format = format
        self.keepsSamples = keepsSamples
    }

    public func write(_ samples: [Float]) throws {
        lock.withLock {
            frames += Int64(samples.count / format.channelCount)
            if keepsSamples { kept += samples }
        }
    }

    /// Frames written so far.
    public var framesWritten: Int64 { lock.withLock { frames } }

    /// Everything written, interleaved, when created with `keepsSamples`.
    public var samples: [Float] { lock.withLock { kept } }
}
