import MarqueeCore

/// One seek asked of the player, completed exactly once.
struct SeekRequest: Sendable {
    let time: MediaTime
    let toleranceBefore: MediaTime
    /// Accepted for AVPlayer parity; seeking never lands after the target, so it has no effect.
    let toleranceAfter: MediaTime
    let completion: @Sendable (Bool) -> Void
}
