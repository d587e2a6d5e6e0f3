import MarqueeCore

/// One seek asked of the player, completed exactly once.
struct SeekRequest: Sendable {
    let time: MediaTime
    let toleranceBefore: MediaTime
    /// Accepted for AVPlayer parity; seeking never lands after the target, so it has no effect.
    let toleranceAfter: MediaTime
    /// Who asked, logged as a `seek` command when the player takes it; nil for the player's own
    /// seeks (skips, steps), whose command is logged already.
    var source: CommandSource? = nil
    let completion: @Sendable (Bool) -> Void
}
