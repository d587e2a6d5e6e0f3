import MarqueeCore

/// What a reader's last seek did, for measuring its cost: where decoding started, and how many
/// key frame seeks it took to reach back far enough.
struct SeekReport: Equatable {
    /// The media time the caller asked for.
    let target: MediaTime
    /// Key frame seeks made: 1 when the first landed early enough.
    let attempts: Int
    /// The media time the last key frame seek asked for (0: the file's start).
    let decodingFrom: MediaTime
}
