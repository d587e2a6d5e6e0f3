/// What the screen says instead of going black when nothing can be played: why, and how to reach
/// the device. Plain words the caller already formatted (the reasons as the journal writes them).
public struct StatusCardContent: Equatable, Sendable {
    /// "Nothing to play".
    public var headline: String
    /// One line per failing item, naming the file and the cause: "clip.mp4: no such file".
    public var reasons: [String]
    public var hostname: String
    /// The device's IP addresses, in the order to show them.
    public var addresses: [String]
    /// "marquee 0.x".
    public var version: String
    /// The time, already formatted.
    public var time: String

    public init(headline: String, reasons: [String] = [], hostname: String = "", addresses: [String] = [],
                version: String = "", time: String = "") {
        self.headline = headline
        self.reasons = reasons
        self.hostname = hostname
        self.addresses = addresses
        self.version = version
        self.time = time
    }
}
