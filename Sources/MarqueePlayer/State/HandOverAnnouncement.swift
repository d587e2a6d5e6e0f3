import MarqueeCore

/// What the events have not said yet about the hand-over from the item on screen to the current
/// pipeline's item.
///
/// Items are opened and decoded ahead, but proof of play reports what was on screen: the item on
/// screen ends, and the next one starts, when the next item's first frame is presented (for an item
/// without pictures, when its first sample is due), not when either was decoded. Until then the
/// state machine still holds the item on screen, so a command or a failure in between names the
/// right item.
struct HandOverAnnouncement {
    /// The item on screen played to its end; its `itemEnded` waits for its successor to appear.
    var previousEnded = false
    /// The current pipeline's item, not yet made the state machine's current item.
    var opened: PlaybackStateMachine.Input?
    /// Its facts, reported with `itemStarted` when it appears.
    var ready: PlaybackStateMachine.Input?
    /// What a reloaded config's settings changed at the boundary, said after the item on screen
    /// has ended.
    var settingsEvents: [PlayerEvent] = []
}
