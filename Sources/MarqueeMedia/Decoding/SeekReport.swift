import MarqueeCore

/// What a reader's last seek did, for measuring its cost (`marquee bench --seek`): where decoding
/// started, and how many key frame seeks it took to reach back far enough.
public struct SeekReport: Equatable, Sendable {
    /// The media time the caller asked for.
    public let target: MediaTime
    /// Key frame seeks made: 1 when the first landed early enough.
    public let attempts: Int
    /// The media time the last key frame seek asked for (0: the file's start).
    public let decodingFrom: MediaTime
}

/// A reader that tells what its last seek did (the FFmpeg reader does).
public protocol SeekReporting: AnyObject {
    var lastSeek: SeekReport? { get }
}
