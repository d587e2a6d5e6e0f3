/// When an item that stalled (its source ran dry) may play again: AVPlayerItem's
/// `isPlaybackLikelyToKeepUp`, decided from what is decoded and fetched ahead as the stall goes on.
///
/// Resuming at the first frame that arrives would play a slow source in slow motion, a frame at a
/// time; waiting for the whole read-ahead gives it a run of `network.readAhead` before the next
/// stall. A live source never gets that far ahead of its live edge, so a read-ahead that has
/// stopped growing with some media in it counts too.
public struct StallRecovery: Sendable {
    /// The read-ahead has not grown for this long: the source gives no more for now.
    public static let plateau = MediaTime(5, per: 2)
    /// What a plateaued read-ahead must hold to resume on it.
    public static let minimumBuffered = MediaTime(seconds: 1)

    private var largest = MediaTime.zero
    private var grewAt: MediaTime

    /// `now` is real time (any monotonic origin): a stall is waited out in it, whatever the playback clock.
    public init(since now: MediaTime) {
        grewAt = now
    }

    /// - Parameters:
    ///   - decodedAhead: the decoder is as far ahead as it may go.
    ///   - finished: the item's last output (its end, or its failure) is decoded: nothing more can come.
    ///   - status: the reader's read-ahead.
    public mutating func canResume(decodedAhead: Bool, finished: Bool, status: ReadAheadStatus, now: MediaTime) -> Bool {
        if finished { return true }
        if status.buffered > largest {
            largest = status.buffered
            grewAt = now
        }
        guard decodedAhead else { return false }
        if status.isLikelyToKeepUp { return true }
        return status.buffered >= Self.minimumBuffered && now - grewAt >= Self.plateau
    }
}
