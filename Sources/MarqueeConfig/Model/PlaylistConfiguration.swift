import MarqueeCore

/// The items to play and how the queue continues after the last one.
public struct PlaylistConfiguration: Sendable, Equatable, Codable {
    /// Signage loops unattended, so a config that does not say otherwise repeats the whole list.
    public static let defaultRepeat = RepeatMode.all

    public var `repeat`: RepeatMode
    /// Fixes the shuffle order, so a shuffled run can be reproduced; nil shuffles differently each time.
    public var seed: UInt64?
    /// What each item's end does: advance (default), pause, or none.
    public var actionAtItemEnd: ActionAtItemEnd
    public var items: [PlaylistItemConfiguration]
    /// When the playlist plays (`schedule:`); nil: whenever no other says otherwise.
    public var schedule: Schedule?

    public init(repeat: RepeatMode = PlaylistConfiguration.defaultRepeat,
                seed: UInt64? = nil,
                actionAtItemEnd: ActionAtItemEnd = .advance,
                items: [PlaylistItemConfiguration],
                schedule: Schedule? = nil) {
        self.repeat = `repeat`
        self.seed = seed
        self.actionAtItemEnd = actionAtItemEnd
        self.items = items
        self.schedule = schedule
    }
}
