/// The PCM layout the engine works in: interleaved 32-bit float samples. Outputs that need
/// another sample format convert at their edge.
public struct AudioFormat: Hashable, Sendable, CustomStringConvertible {
    public var sampleRate: Int
    public var channelCount: Int

    public init(sampleRate: Int, channelCount: Int) {
        precondition(sampleRate > 0 && channelCount > 0, "bad audio format")
        self.sampleRate = sampleRate
        self.channelCount = channelCount
    }

    /// What the null output and, by default, ALSA are fed.
    public static let standard = AudioFormat(sampleRate: 48000, channelCount: 2)

    public var description: String { "\(sampleRate) Hz \(channelCount) ch float" }
}

/// Decoded audio converted to an AudioFormat: `frameCount` frames of interleaved samples, the
/// first at `pts` in the media's own time (the same base as video pictures).
public struct AudioBlock: Sendable, Equatable {
    public var pts: MediaTime
    public var format: AudioFormat
    public var samples: [Float]

    public init(pts: MediaTime, format: AudioFormat, samples: [Float]) {
        precondition(samples.count % format.channelCount == 0, "samples must be whole frames")
        self.pts = pts
        self.format = format
        self.samples = samples
    }

    public var frameCount: Int { samples.count / format.channelCount }

    /// When the block ends: pts plus its length, exactly.
    public var end: MediaTime { pts + MediaTime(Int64(frameCount), per: Int64(format.sampleRate)) }
}

/// One unit of decoded media, in the order the streams deliver it.
public enum DecodedMedia {
    case picture(VideoPicture)
    case audio(AudioBlock)
}
