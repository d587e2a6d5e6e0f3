/// How patient and how identifiable an open is, and how far a remote source is fetched ahead.
public struct MediaOpenOptions: Sendable, Hashable {
    /// The longest a network operation (connect and read the headers, probe the streams, read a
    /// packet) may go without receiving data, and the longest a socket may stay silent. Bytes
    /// arriving restart it, so a slow source is not a dead one. Local files have no deadline.
    public var networkTimeout: Duration

    /// Sent as the HTTP `User-Agent`, so server logs show which device asked.
    public var userAgent: String

    /// How much media time of a remote source is read (demuxed, not decoded) ahead of decoding
    /// (config `network.readAhead`), to ride out a link slower than real time for a while. Local
    /// files are read as they are decoded.
    public var readAhead: Duration

    public init(networkTimeout: Duration = .seconds(5), userAgent: String = "Marquee",
                readAhead: Duration = MediaOpenOptions.defaultReadAhead) {
        precondition(networkTimeout > .zero, "a network timeout must be positive")
        precondition(readAhead >= .zero, "a read-ahead cannot be negative")
        self.networkTimeout = networkTimeout
        self.userAgent = userAgent
        self.readAhead = readAhead
    }

    public static let defaultReadAhead = Duration.seconds(10)
}
