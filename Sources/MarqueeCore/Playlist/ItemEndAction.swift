/// What the queue does when the current item plays to its end.
public enum ItemEndAction: Equatable, Sendable {
    /// Present this item next, without a gap.
    case play(Int)
    /// Make this item current and hold its first frame, paused (pauseAfterCurrentItem).
    case pause(Int)
    /// The queue is exhausted (repeat off): hold the last frame, nothing more to play.
    case idle
}
