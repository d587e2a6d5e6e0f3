/// How patient and how identifiable an open is.
public struct MediaOpenOptions: Sendable, Hashable {
    /// The longest one network operation (connect and read the headers, probe the streams, read a
    /// packet) may take, and the longest a socket may stay silent. Local files have no deadline.
    public var networkTimeout: Duration

    /// Sent as the HTTP `User-Agent`, so server logs show which device asked.
    public var userAgent: String

    public init(networkTimeout: Duration = .seconds(5), userAgent: String = "Marquee") {
        precondition(networkTimeout > .zero, "a network timeout must be positive")
        self.networkTimeout = networkTimeout
        self.userAgent = userAgent
    }
}
