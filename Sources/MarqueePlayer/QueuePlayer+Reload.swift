import MarqueeCore

/// A new playlist and settings for a playing QueuePlayer: a reloaded config.
public struct QueueReplacement: Sendable {
    public var items: [QueueItem]
    /// Repeat mode, shuffle seed, scaling, background, rotation and volume are taken from here;
    /// the run's own settings (`PlayerRunSetting.all`: exit when idle, audio clock, retry delays...)
    /// stay as they were.
    public var settings: PlayerSettings
    /// Settings and a dropped item's end take effect now rather than at the next item boundary.
    public var immediately: Bool
    /// A reloaded config's timetable, which replaces the one followed; nil leaves it (a `load` from
    /// the control socket plays until the timetable next changes).
    public var timetable: TimetableReplacement?
    /// Where a player still waiting for its first playlist enters it: the last run's saved place
    /// (resume after a restart), when this is that run's playlist.
    public var resumeAt: ResumePoint?

    /// The daypart whose queue `items` is (with a timetable), by its config name.
    public var daypart: String? {
        guard let schedule = timetable?.schedule, let now = timetable?.agenda?.changes.first else { return nil }
        return schedule.playlists.name(of: now.state)
    }

    public init(items: [QueueItem], settings: PlayerSettings, immediately: Bool = false, timetable: TimetableReplacement? = nil) {
        self.items = items
        self.settings = settings
        self.immediately = immediately
        self.timetable = timetable
    }
}

/// The timetable of a reloaded config, with its agenda from now worked out off the present thread
/// (the replacement's items are what it plays now); a nil schedule: the new config has none.
public struct TimetableReplacement: Sendable {
    public var schedule: PlaylistSchedule?
    public var agenda: ScheduleAgenda?

    public init(schedule: PlaylistSchedule?) {
        self.schedule = schedule
        agenda = schedule?.agendaNow()
    }
}

extension QueuePlayer {
    /// Runs on the present thread. The cursor moves to the new list at once, so the item that
    /// follows the one playing is prepared from it and the hand-over stays gapless; the item
    /// playing keeps its place when the new list has it (the same url, start, end, duration and
    /// scaling), else the new list starts from the top when it ends (or now, `immediately`).
    func replaceQueueNow(_ replacement: QueueReplacement) {
        let playing = current.map { ($0.index, $0.item) } ?? cursor.current.map { ($0, items[$0]) }
        let kept: Int? = playing.flatMap { index, item in
            if index < replacement.items.count && replacement.items[index] == item { return index }
            return replacement.items.firstIndex(of: item)
        }
        if replacement.settings.wallSync != nil || isWallSynced { return replaceSyncedQueue(replacement) }
        items = replacement.items
        let settings = keepingRunSettings(replacement.settings)

        let pauseAfter = cursor.pauseAfterCurrentItem
        cursor = PlaylistCursor(itemCount: items.count, repeatMode: settings.repeatMode, seed: settings.shuffleSeed)
        cursor.pauseAfterCurrentItem = pauseAfter
        if let kept { _ = cursor.jump(to: kept) } else { cursor.startOverAtEnd() }
        failures.queueReplaced()
        upcoming?.cancel()
        upcoming = nil
        emit(.queueReplaced(itemCount: items.count, immediately: replacement.immediately))
        if machine.repeatMode != settings.repeatMode { emitAll(machine.handle(.repeatModeSet(settings.repeatMode))) }

        if replacement.immediately {
            pendingSettings = nil
            // An item playing that the new list drops ends now, and the one replacing it announces its mode.
            emitAll(adopt(settings, itemStays: current == nil || kept != nil))
            if current != nil && kept == nil {
                move(to: cursor.start())
                return
            }
        } else if current?.preparesNextAtFirstFrame == true && kept == nil {
            // The item handed over to has not shown its first frame: the one on screen is the old
            // list's last, ending now. The new list takes this slot, not one loop later (a change
            // that came within the last frame before an item boundary played the old list again).
            pendingSettings = nil
            emitAll(adopt(settings, itemStays: false))
            let boundary = presentation.itemStart
            move(to: cursor.start())
            // In the slot the handed-over item had: the old list's last frame keeps its full time.
            presentation.restartItem(startingAt: max(boundary, clock.now()))
            return
        } else {
            pendingSettings = settings
        }
        // The one after the item playing comes from the new list now; an item still waiting for its
        // first frame prepares it then.
        if let current, !current.preparesNextAtFirstFrame { prepareUpcoming() }
    }

    /// A reloaded config's settings, with the run's own kept (see `PlayerRunSetting`).
    func keepingRunSettings(_ new: PlayerSettings) -> PlayerSettings {
        new.keepingRunSettings(of: settings)
    }

    /// Frame-locked playback takes a new playlist at once: the wall plays the new cycle from the
    /// epoch on every device that has it, so the player joins it where it is now.
    private func replaceSyncedQueue(_ replacement: QueueReplacement) {
        items = replacement.items
        let settings = keepingRunSettings(replacement.settings)
        cursor = PlaylistCursor(itemCount: items.count, repeatMode: settings.repeatMode, seed: settings.shuffleSeed)
        failures.queueReplaced()
        upcoming?.cancel()
        upcoming = nil
        pendingSettings = nil
        emit(.queueReplaced(itemCount: items.count, immediately: true))
        if machine.repeatMode != settings.repeatMode { emitAll(machine.handle(.repeatModeSet(settings.repeatMode))) }
        emitAll(adopt(settings, itemStays: current != nil))
        if settings.wallSync != nil && !items.isEmpty {
            wall.pendingJoin = .reload
        } else {
            // No longer locked: the new list plays from its top, now.
            move(to: cursor.start())
        }
    }

    /// Settings of a reloaded config waiting for an item boundary take effect (becomeCurrent).
    func adoptPendingSettings() {
        guard let pending = pendingSettings else { return }
        pendingSettings = nil
        let events = adopt(pending, itemStays: false)
        // They draw the next item's first frame, but are said after the item on screen has ended.
        if announcement.previousEnded {
            announcement.settingsEvents += events
        } else {
            emitAll(events)
        }
    }

    /// Puts `new` in force; returns the events that say what changed. `itemStays`: the item on
    /// screen stays there, so a new scaling mode is announced for it now; otherwise the item taking
    /// over announces its own when it appears.
    private func adopt(_ new: PlayerSettings, itemStays: Bool) -> [PlayerEvent] {
        let old = settings
        settings = new
        var events: [PlayerEvent] = []
        if new.scaling != old.scaling {
            // The config's new mode wins over one cycled from a key under the old config, and an
            // item's own mode over both.
            userScaling = nil
            if itemStays { events += machine.handle(.scalingModeSet(scalingMode(for: current?.item))) }
        }
        if new.volume != old.volume {
            volume = VolumeControl(volume: new.volume, isMuted: volume.isMuted)
            audioRenderer?.setGain(volume.gain)
            events.append(.volumeChanged(volume: volume.volume, muted: volume.isMuted))
        }
        return events
    }
}
