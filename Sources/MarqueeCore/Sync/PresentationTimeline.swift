/// Lays items end to end on one timeline, so that each item's first frame lands in the slot right
/// after the previous item's last one: no gap, no overlap, at every change and every loop.
///
/// Offsets are exact sums of item lengths, so after months of loops the timeline has not drifted.
public struct PresentationTimeline: Sendable, Equatable {
    /// Where the current item's time 0 sits on the timeline.
    public private(set) var itemOrigin: MediaTime = .zero
    /// How many items have started on this timeline.
    public private(set) var itemsStarted = 0

    public init() {}

    /// Timeline time of a moment in the current item.
    public func timelineTime(ofItemTime itemTime: MediaTime) -> MediaTime {
        itemOrigin + itemTime
    }

    /// The current item ended after `length` of item time: the next begins right there.
    public mutating func advance(pastItemOfLength length: MediaTime) {
        precondition(length >= .zero, "negative item length")
        itemOrigin += length
        itemsStarted += 1
    }

    /// A seek or a jump restarts presentation at `origin` (usually "now" on the clock).
    public mutating func restart(at origin: MediaTime) {
        itemOrigin = origin
    }
}
