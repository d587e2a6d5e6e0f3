/// Which playlist item plays now and which comes next, under each repeat mode.
///
/// Rules, by mode (`next` is the user's command, "at end" is an item playing to its end):
/// - off: next and at end step forward and stop after the last item; previous stops at the first.
/// - one: at end replays the same item; next and previous move and wrap, so a user can still leave it.
/// - all: everything steps forward and wraps.
/// - shuffle: items play in rounds; each round is a permutation of every item, and a new round never
///   starts with the item that ended the last one (with two or more items). Previous walks back
///   through what was played and next walks forward again over the same items before a new round
///   is drawn. Jumping to an item, or switching to shuffle, starts a fresh round with that item.
public struct PlaylistCursor: Sendable, Equatable {
    public let itemCount: Int
    public private(set) var repeatMode: RepeatMode
    /// The item playing; nil before `start()` and once repeat off runs past the last item.
    public private(set) var current: Int?
    /// One-shot: the next end of an item advances and pauses instead of playing on.
    public var pauseAfterCurrentItem = false
    /// What every end of an item does (pauseAfterCurrentItem is this, once).
    public var actionAtItemEnd = ActionAtItemEnd.advance
    /// The item playing is not in this playlist (a reloaded config dropped it): its end starts
    /// the list from the top.
    public private(set) var startsOverAtEnd = false

    private var random: SeededRandom
    /// Shuffle play order: history behind `position`, drawn rounds ahead of it.
    private(set) var shuffleOrder: [Int] = []
    private var shufflePosition = -1

    public init(itemCount: Int, repeatMode: RepeatMode = .all, seed: UInt64 = 0) {
        precondition(itemCount >= 0, "negative item count")
        self.itemCount = itemCount
        self.repeatMode = repeatMode
        self.random = SeededRandom(seed: seed)
    }

    /// Makes the first item current: item 0, or the first of a shuffle round.
    public mutating func start() -> Int? {
        startsOverAtEnd = false
        guard itemCount > 0 else { return nil }
        if repeatMode == .shuffle {
            shuffleOrder = []
            shufflePosition = -1
            return stepShuffleForward()
        }
        current = 0
        return current
    }

    /// The user's next command.
    public mutating func next() -> Int? {
        guard itemCount > 0 else { return nil }
        guard let index = current else { return start() }
        switch repeatMode {
        case .off:
            current = index + 1 < itemCount ? index + 1 : nil
        case .one, .all:
            current = (index + 1) % itemCount
        case .shuffle:
            return stepShuffleForward()
        }
        return current
    }

    /// The user's previous command. From an exhausted queue it returns to the last item.
    public mutating func previous() -> Int? {
        guard itemCount > 0 else { return nil }
        guard let index = current else {
            startsOverAtEnd = false
            current = repeatMode == .shuffle ? shuffleOrder.last ?? itemCount - 1 : itemCount - 1
            return current
        }
        switch repeatMode {
        case .off:
            current = max(index - 1, 0)
        case .one, .all:
            current = (index - 1 + itemCount) % itemCount
        case .shuffle:
            if shufflePosition > 0 {
                shufflePosition -= 1
                current = shuffleOrder[shufflePosition]
            }
        }
        return current
    }

    /// The current item played to its end: what comes next.
    public mutating func advanceAtEnd() -> ItemEndAction {
        let following: Int?
        if actionAtItemEnd == .none && !startsOverAtEnd {
            // Nothing follows; the item stays current, so play starts it again.
            pauseAfterCurrentItem = false
            return .idle
        }
        if startsOverAtEnd {
            following = start()
        } else {
            guard itemCount > 0, let index = current else { return .idle }
            following = self.following(after: index)
        }
        let pause = pauseAfterCurrentItem || actionAtItemEnd == .pause
        pauseAfterCurrentItem = false
        guard let following else { return .idle }
        return pause ? .pause(following) : .play(following)
    }

    /// A new playlist replaced the one the item playing came from, and that item is not in it:
    /// the next end of an item (or `next`) starts this list from the top.
    public mutating func startOverAtEnd() {
        current = nil
        startsOverAtEnd = true
    }

    private mutating func following(after index: Int) -> Int? {
        let following: Int?
        switch repeatMode {
        case .off:
            following = index + 1 < itemCount ? index + 1 : nil
            current = following
        case .one:
            following = index
        case .all:
            following = (index + 1) % itemCount
            current = following
        case .shuffle:
            following = stepShuffleForward()
        }
        return following
    }

    /// Jumps to `index` (numeric entry, a control interface). Out-of-range indexes are ignored.
    public mutating func jump(to index: Int) -> Int? {
        guard (0..<itemCount).contains(index) else { return nil }
        startsOverAtEnd = false
        current = index
        if repeatMode == .shuffle { startShuffleRound(beginningWith: index, keepingHistory: true) }
        return index
    }

    public mutating func setRepeatMode(_ mode: RepeatMode) {
        guard mode != repeatMode else { return }
        repeatMode = mode
        if mode == .shuffle, let index = current { startShuffleRound(beginningWith: index, keepingHistory: false) }
    }

    /// off → all → one → shuffle → off.
    @discardableResult
    public mutating func cycleRepeatMode() -> RepeatMode {
        setRepeatMode(repeatMode.cycled)
        return repeatMode
    }

    private mutating func stepShuffleForward() -> Int {
        if shufflePosition + 1 >= shuffleOrder.count { appendShuffleRound() }
        shufflePosition += 1
        current = shuffleOrder[shufflePosition]
        dropOldShuffleHistory()
        return shuffleOrder[shufflePosition]
    }

    private mutating func appendShuffleRound() {
        var round = random.shuffled(Array(0..<itemCount))
        if itemCount >= 2, let last = shuffleOrder.last, round[0] == last {
            round.swapAt(0, 1 + random.nextIndex(below: itemCount - 1))
        }
        shuffleOrder += round
    }

    /// `index` counts as the round's first; the rest follow in random order. History from an earlier
    /// shuffle session is stale once other modes have played, so a mode switch drops it.
    private mutating func startShuffleRound(beginningWith index: Int, keepingHistory: Bool) {
        if !keepingHistory {
            shuffleOrder = []
            shufflePosition = -1
        }
        let rest = random.shuffled((0..<itemCount).filter { $0 != index })
        shuffleOrder = Array(shuffleOrder.prefix(shufflePosition + 1)) + [index] + rest
        shufflePosition += 1
        dropOldShuffleHistory()
    }

    /// Months of looping must not grow memory: keep one round of history for `previous`.
    private mutating func dropOldShuffleHistory() {
        let excess = shufflePosition - itemCount
        if excess > 0 {
            shuffleOrder.removeFirst(excess)
            shufflePosition -= excess
        }
    }
}
