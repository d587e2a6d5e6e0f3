import MarqueeCore

/// Items that fail: why each failed last (for the status card, as the journal says it), how many
/// failed in a row, and how long to wait when every item has (doubling each round up to a bound,
/// as a service manager's restart back-off does), so a dead playlist never spins.
struct FailureBackOff {
    /// Why each item failed last (`URL: cause`); an item that plays is taken off.
    private(set) var reasons: [Int: String] = [:]
    private(set) var failuresInARow = 0
    private(set) var round = 0

    /// Item `index` opened and is ready: the run of failures is over.
    mutating func itemPlayed(_ index: Int) {
        failuresInARow = 0
        round = 0
        reasons[index] = nil
    }

    /// Item `index` failed; true when every item of `itemCount` has now failed in a row.
    mutating func itemFailed(_ index: Int, reason: String, itemCount: Int) -> Bool {
        reasons[index] = reason
        failuresInARow += 1
        return failuresInARow >= itemCount
    }

    /// Every item failed: the wait before the next round, `first` doubled each round up to `maximum`.
    mutating func nextRoundDelay(first: MediaTime, maximum: MediaTime) -> MediaTime {
        round += 1
        failuresInARow = 0
        var delay = first
        for _ in 1..<round where delay < maximum { delay = delay * 2 }
        return min(delay, maximum)
    }

    /// A new playlist: its items have not failed yet, in a row or otherwise counted (their
    /// reasons stay until each plays: the card names what failed last).
    mutating func queueReplaced() {
        failuresInARow = 0
    }

    /// The reasons in item order, for the status card.
    var reasonsInOrder: [String] {
        reasons.keys.sorted().compactMap { reasons[$0] }
    }
}
