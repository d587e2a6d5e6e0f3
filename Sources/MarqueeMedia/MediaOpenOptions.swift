import MarqueeCore

/// How patient and how identifiable an open is, how far a remote source is fetched ahead, and how
/// large a still it takes.
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

    /// Stills with more pixels are refused before they are decoded (`display.maxImagePixels`).
    public var maxImagePixels: ImagePixelLimit

    /// The upright screen a still is shown on: a larger still is scaled down right after decoding
    /// to the least size that still covers it (so aspectFill loses no detail either), and only that
    /// is kept. Nil keeps stills as decoded (thumbnails, probes).
    public var stillScreenSize: PixelSize?

    public init(networkTimeout: Duration = .seconds(5), userAgent: String = "Marquee",
                readAhead: Duration = MediaOpenOptions.defaultReadAhead,
                maxImagePixels: ImagePixelLimit = .default, stillScreenSize: PixelSize? = nil) {
        precondition(networkTimeout > .zero, "a network timeout must be positive")
        precondition(readAhead >= .zero, "a read-ahead cannot be negative")
        self.networkTimeout = networkTimeout
        self.userAgent = userAgent
        self.readAhead = readAhead
        self.maxImagePixels = maxImagePixels
        self.stillScreenSize = stillScreenSize
    }

    public static let defaultReadAhead = Duration.seconds(10)
}
