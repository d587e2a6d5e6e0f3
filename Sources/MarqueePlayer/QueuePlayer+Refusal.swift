import MarqueeCore

extension QueuePlayer {
    /// Whether `action` may be asked of this player now, from any thread (one status snapshot):
    /// the reason it may not, for a control client's `ok:false` instead of an `ok` followed by an
    /// error event or by nothing at all. Refused: what would take a frame-locked player off the
    /// wall, and a skip on an item that cannot seek (a live stream; a still is skipped past, to
    /// the next item).
    public func refusal(of action: ControlAction) -> String? {
        let status = status()
        if status.details.isWallSynced, let reason = Self.wallSyncRefusal(of: action) { return reason }
        if action.isSkip, status.playback.itemIndex != nil, !status.details.isSeekable, !status.details.isStillImage {
            return "\(action.name): the item on screen cannot seek (a live stream)"
        }
        return nil
    }
}
