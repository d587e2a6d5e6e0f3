import MarqueeCore

extension QueuePlayer {
    /// The mode `item` is drawn in: the user's cycleScalingMode choice, which stays in force over
    /// every item until a reloaded config changes `display.scaling`; else the item's own; else the
    /// player's.
    func scalingMode(for item: QueueItem?) -> ScalingMode {
        userScaling ?? item?.scaling ?? settings.scaling
    }

    /// `item` is now the one on screen: the state machine takes the mode it is drawn in, and
    /// scalingModeChanged says so when that differs from the mode before it.
    func announceScalingMode(of item: QueueItem?) {
        emitAll(machine.handle(.scalingModeSet(scalingMode(for: item))))
    }
}
