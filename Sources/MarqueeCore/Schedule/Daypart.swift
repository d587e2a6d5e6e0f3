/// One named playlist of a config, as the schedule sees it: when it plays, how it competes with
/// the others, and when each of its items may play.
public struct Daypart: Sendable, Hashable {
    /// The playlist's name under `playlists:`; `default` is the fallback.
    public var name: String
    /// When the daypart plays; nil: always (for `default`: whenever no other daypart plays).
    public var schedule: Schedule?
    /// Among dayparts whose windows hold the same instant, the highest priority plays; on a tie,
    /// the one listed first.
    public var priority: Int
    /// Whether the change to this daypart cuts the item on screen short instead of letting it finish.
    public var interrupt: Bool
    /// One entry per item of the playlist, in order: the item's own schedule, nil for always.
    public var itemSchedules: [Schedule?]

    /// The daypart that plays when no other one's window is open.
    public static let defaultName = "default"

    public init(name: String, schedule: Schedule? = nil, priority: Int = 0, interrupt: Bool = false,
                itemSchedules: [Schedule?]) {
        self.name = name
        self.schedule = schedule
        self.priority = priority
        self.interrupt = interrupt
        self.itemSchedules = itemSchedules
    }

    public var isDefault: Bool { name == Self.defaultName }
}
