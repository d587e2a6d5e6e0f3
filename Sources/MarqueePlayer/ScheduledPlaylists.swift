import MarqueeCore

/// A config's dayparts as the player plays them: each one's items and playlist-level settings,
/// with the timetable that says which plays when. Display, sound and run settings are the
/// config's own and the same for every daypart; only what a playlist says changes with it.
public struct ScheduledPlaylists: Sendable {
    /// One daypart's playlist: its items in config order and how it repeats.
    public struct Playlist: Sendable {
        public var items: [QueueItem]
        public var repeatMode: RepeatMode
        public var actionAtItemEnd: ActionAtItemEnd
        /// Drawn once when the config is read, so a daypart that comes back shuffles the same way.
        public var shuffleSeed: UInt64

        public init(items: [QueueItem], repeatMode: RepeatMode = .all, actionAtItemEnd: ActionAtItemEnd = .advance,
                    shuffleSeed: UInt64 = 0) {
            self.items = items
            self.repeatMode = repeatMode
            self.actionAtItemEnd = actionAtItemEnd
            self.shuffleSeed = shuffleSeed
        }
    }

    public var timetable: Timetable
    /// One per `timetable.dayparts`, in the same order.
    public var playlists: [Playlist]

    public init(timetable: Timetable, playlists: [Playlist]) {
        precondition(timetable.dayparts.count == playlists.count, "one playlist per daypart")
        self.timetable = timetable
        self.playlists = playlists
    }

    /// What `state` plays: its daypart's items that are in their windows, in playlist order, with
    /// that playlist's settings laid over `base`. Nothing scheduled is an empty queue.
    public func queue(for state: ScheduleState, base: PlayerSettings) -> (items: [QueueItem], settings: PlayerSettings) {
        guard let daypart = state.daypart else { return ([], base) }
        let playlist = playlists[daypart]
        var settings = base
        settings.repeatMode = playlist.repeatMode
        settings.actionAtItemEnd = playlist.actionAtItemEnd
        settings.shuffleSeed = playlist.shuffleSeed
        return (state.items.map { playlist.items[$0] }, settings)
    }

    /// The daypart's name as the config spells it; nil when nothing is scheduled.
    public func name(of state: ScheduleState) -> String? {
        state.daypart.map { timetable.dayparts[$0].name }
    }

    /// Whether moving into `state`'s daypart cuts the item on screen short (`interrupt: true`).
    public func interrupts(into state: ScheduleState) -> Bool {
        state.daypart.map { timetable.dayparts[$0].interrupt } ?? false
    }
}
