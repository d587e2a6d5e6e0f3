/// Where sound goes and how loud it starts.
public struct AudioConfiguration: Sendable, Equatable, Codable {
    /// An ALSA PCM name such as `default`, `hw:1,0` or `plughw:CARD=vc4hdmi`.
    public var device: String
    /// Linear gain from 0 (silent) to 1 (unchanged); the starting point for volumeUp/volumeDown.
    public var volume: Double

    public static let defaultDevice = "default"
    public static let volumeRange: ClosedRange<Double> = 0...1

    public init(device: String = AudioConfiguration.defaultDevice, volume: Double = 1.0) {
        self.device = device
        self.volume = volume
    }
}
