/// What the schedule says at one instant: which daypart plays, which of its items, and whether
/// the screen is on.
public struct ScheduleState: Sendable, Hashable {
    /// Index into `Timetable.dayparts`; nil when no daypart plays (no window open and no `default`).
    public var daypart: Int?
    /// Indices into that daypart's items of those whose own windows are open, in playlist order.
    public var items: [Int]
    public var displayOn: Bool

    public init(daypart: Int?, items: [Int], displayOn: Bool) {
        self.daypart = daypart
        self.items = items
        self.displayOn = displayOn
    }

    /// Nothing to play: no daypart, or none of its items in its window.
    public var isIdle: Bool { daypart == nil || items.isEmpty }
}
