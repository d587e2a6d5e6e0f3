/// Where sound goes and how loud it starts.
public struct AudioConfiguration: Sendable, Equatable, Codable {
    /// An ALSA PCM name such as `default`, `hw:1,0` or `plughw:CARD=vc4hdmi`.
    public var device: String
    /// Linear gain from 0 (silent) to 1 (unchanged); the starting point for volumeUp/volumeDown.
    public var volume: Double
    /// The device buffer in seconds: the latency between writing a sample and hearing it.
    public var bufferTime: Double
    /// How often the device wakes the writer, in seconds; at most half the buffer.
    public var periodTime: Double
    /// `audio.screen`: with `displays:`, the screen whose playlist plays on `device`; nil: the
    /// first screen with a playlist.
    public var screen: String? = nil

    public static let defaultDevice = "default"
    public static let volumeRange: ClosedRange<Double> = 0...1
    public static let defaultBufferTime = 0.1
    public static let defaultPeriodTime = 0.025
    /// 5 ms to 2 s: below, no device keeps up; above, commands and the clock lag noticeably.
    public static let bufferTimeRange: ClosedRange<Double> = 0.005...2
    public static let minimumPeriodTime = 0.001

    public init(device: String = AudioConfiguration.defaultDevice, volume: Double = 1.0,
                bufferTime: Double = AudioConfiguration.defaultBufferTime,
                periodTime: Double = AudioConfiguration.defaultPeriodTime) {
        self.device = device
        self.volume = volume
        self.bufferTime = bufferTime
        self.periodTime = periodTime
    }
}
