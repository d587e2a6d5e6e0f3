/// What is heard at a playback rate: at 1 the sound as it is; at another rate, time-stretched
/// (the pitch kept) where the media backend can, else muted.
public enum SoundAtRate: String, Sendable, Codable, Equatable {
    case normal
    case stretched
    case muted
}
