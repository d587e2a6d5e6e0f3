/// `network:`: how remote (http, https) media is fetched.
public struct NetworkConfiguration: Sendable, Equatable, Codable {
    /// Seconds of media a remote item fetches ahead of playback: what a link slower than real time
    /// is ridden out with, and how long before it is due the next remote item is opened.
    public var readAhead: Double

    public static let defaultReadAhead = 10.0
    /// Up to 10 minutes: the fetched packets are held in memory (and capped at 64 MB whatever this says).
    public static let readAheadRange: ClosedRange<Double> = 0...600

    public init(readAhead: Double = NetworkConfiguration.defaultReadAhead) {
        self.readAhead = readAhead
    }

    /// `readAhead` as a duration, to the millisecond.
    public var readAheadDuration: Duration { .milliseconds(Int64((readAhead * 1000).rounded())) }
}
