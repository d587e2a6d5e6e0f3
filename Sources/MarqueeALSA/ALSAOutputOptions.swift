import MarqueeCore

/// How to open and drive an ALSA PCM.
public struct ALSAOutputOptions: Sendable {
    /// Any PCM name: `default`, `hw:0,0`, `plughw:1`, `sysdefault:CARD=PCH`, `hdmi:CARD=vc4hdmi0`.
    public var device: String
    /// The device buffer (the latency) and the period (how often the device wakes the writer).
    public var bufferTime: MediaTime
    public var periodTime: MediaTime
    /// Asked for first; the nearest the device offers is taken (rate, channels).
    public var preferredRate: Int
    public var preferredChannels: Int
    /// Tried in order.
    public var sampleFormats: [ALSASampleFormat]
    /// How often a missing device is looked for again.
    public var retryInterval: MediaTime
    /// Use drop and re-prime for pause even when the device can pause (tests the fallback path).
    public var pausesByDropping: Bool
    /// Opens names from this configuration instead of the system's (tests: file and null plugins).
    public var configuration: ALSAConfiguration?

    public static let defaultBufferTime = MediaTime(100, per: 1000)
    public static let defaultPeriodTime = MediaTime(25, per: 1000)

    public init(device: String = "default", bufferTime: MediaTime = defaultBufferTime, periodTime: MediaTime = defaultPeriodTime,
                preferredRate: Int = 48000, preferredChannels: Int = 2, sampleFormats: [ALSASampleFormat] = ALSASampleFormat.allCases,
                retryInterval: MediaTime = MediaTime(seconds: 2), pausesByDropping: Bool = false, configuration: ALSAConfiguration? = nil) {
        self.device = device
        self.bufferTime = bufferTime
        self.periodTime = periodTime
        self.preferredRate = preferredRate
        self.preferredChannels = preferredChannels
        self.sampleFormats = sampleFormats
        self.retryInterval = retryInterval
        self.pausesByDropping = pausesByDropping
        self.configuration = configuration
    }
}
