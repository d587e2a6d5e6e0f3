import MarqueeCore

/// How patient and how identifiable an open is, and how large a still it takes.
public struct MediaOpenOptions: Sendable, Hashable {
    /// The longest one network operation (connect and read the headers, probe the streams, read a
    /// packet) may take, and the longest a socket may stay silent. Local files have no deadline.
    public var networkTimeout: Duration

    /// Sent as the HTTP `User-Agent`, so server logs show which device asked.
    public var userAgent: String

    /// Stills with more pixels are refused before they are decoded (`display.maxImagePixels`).
    public var maxImagePixels: ImagePixelLimit

    /// The upright screen a still is shown on: a larger still is scaled down right after decoding
    /// to the least size that still covers it (so aspectFill loses no detail either), and only that
    /// is kept. Nil keeps stills as decoded (thumbnails, probes).
    public var stillScreenSize: PixelSize?

    public init(networkTimeout: Duration = .seconds(5), userAgent: String = "Marquee",
                maxImagePixels: ImagePixelLimit = .default, stillScreenSize: PixelSize? = nil) {
        precondition(networkTimeout > .zero, "a network timeout must be positive")
        self.networkTimeout = networkTimeout
        self.userAgent = userAgent
        self.maxImagePixels = maxImagePixels
        self.stillScreenSize = stillScreenSize
    }
}
