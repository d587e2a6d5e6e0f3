/// What the transport is doing (MPMoviePlaybackState).
public enum PlaybackState: String, Sendable, Codable, CaseIterable {
    case stopped, playing, paused
    /// Playback wanted, but the buffer ran dry.
    case interrupted
    case seekingForward, seekingBackward
}

/// How well the current item is buffered (MPMovieLoadState).
public enum LoadState: String, Sendable, Codable, CaseIterable {
    case unknown
    /// Enough to start.
    case playable
    /// Enough that playback is likely to keep up.
    case playthroughOK
    /// The buffer ran dry.
    case stalled
}

/// Why an item stopped being presented (MPMovieFinishReason).
public enum FinishReason: String, Sendable, Codable, CaseIterable {
    case playbackEnded, playbackError, userExited
}

/// Whether the current item can play (AVPlayerItem.Status).
public enum ItemStatus: Equatable, Sendable {
    case unknown
    case readyToPlay
    case failed(PlaybackError)
}

/// A failure of one item: which media, and why, in one line. It is only ever shown (events, the
/// journal, error lines), so a password in the URL, or in a cause that quotes it, is hidden here.
public struct PlaybackError: Error, Equatable, Sendable, CustomStringConvertible {
    public let url: String
    public let reason: String

    public init(url: String, reason: String) {
        self.url = CredentialRedaction.redacted(url)
        self.reason = CredentialRedaction.redacted(reason)
    }

    public var description: String { "\(url): \(reason)" }
}
