/// How far a reader has fetched its source ahead of what it has decoded, in media time: what the
/// player asks to tell a source that keeps up from one that has run dry (AVPlayerItem's
/// `isPlaybackLikelyToKeepUp`, `isPlaybackBufferFull`).
public struct ReadAheadStatus: Sendable, Equatable {
    /// Media time fetched and waiting to be decoded.
    public var buffered: MediaTime
    /// How much the reader fetches ahead when the source lets it (`network.readAhead`).
    public var target: MediaTime
    /// The source has been read to its end (or is local): nothing more can come faster.
    public var reachedEnd: Bool

    public init(buffered: MediaTime, target: MediaTime, reachedEnd: Bool) {
        self.buffered = buffered
        self.target = target
        self.reachedEnd = reachedEnd
    }

    /// A local file: read as fast as it is decoded, never short.
    public static let local = ReadAheadStatus(buffered: .zero, target: .zero, reachedEnd: true)

    /// Enough is fetched ahead that playback resumed now is likely to keep going.
    public var isLikelyToKeepUp: Bool { reachedEnd || buffered >= target }
}
