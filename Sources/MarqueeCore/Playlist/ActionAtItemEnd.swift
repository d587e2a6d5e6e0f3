/// What the queue does each time an item plays to its end (AVPlayer.actionAtItemEnd); config
/// `playlist.actionAtItemEnd`, the control socket's `actionAtItemEnd`.
public enum ActionAtItemEnd: String, CaseIterable, Sendable, Codable {
    /// Play the next item, gapless (the repeat mode says which). The default.
    case advance
    /// Make the next item current and hold its first frame, paused: pauseAfterCurrentItem for
    /// every item.
    case pause
    /// Nothing follows: the item's last frame stays on screen, the player is stopped there; play
    /// starts the item again, next and playItem move on.
    case none
}
