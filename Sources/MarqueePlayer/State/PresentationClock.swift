import MarqueeCore

/// When each frame is due on the playback clock: the gapless timeline of items laid end to end
/// (`PresentationTimeline`), where its zero is on the clock (`origin`), the pause that holds it,
/// the frame scheduler's drop decisions, and the follower that keeps it on the sound device.
///
/// It outlives items on purpose: the next item's first frame is due where the last one's time ends.
/// Every place that used to add `origin` to a timeline time by hand asks `due(_:)` instead.
struct PresentationClock {
    var timeline = PresentationTimeline()
    /// Clock time of timeline zero; moves on by the time spent paused and by the sound's corrections.
    private(set) var origin = MediaTime.zero
    /// When the pause began on the playback clock; nil while playing (or stopped).
    private(set) var pausedAt: MediaTime?
    var scheduler = FrameScheduler()
    private var soundFollower = AudioClockFollower()

    var isPaused: Bool { pausedAt != nil }

    /// Clock time at which `itemTime` of the current item is due.
    func due(_ itemTime: MediaTime) -> MediaTime {
        origin + timeline.timelineTime(ofItemTime: itemTime)
    }

    /// Clock time at which the current item began (or begins).
    var itemStart: MediaTime { origin + timeline.itemOrigin }

    /// Timeline zero is now: playback starts.
    mutating func start(at now: MediaTime) {
        origin = now
    }

    /// The current item shows `itemTime` now: the timeline starts over there (a seek's frame, a
    /// step, a late first frame, an item started by a command).
    mutating func restart(at now: MediaTime, showing itemTime: MediaTime = .zero) {
        timeline.restart(at: now - origin - itemTime)
    }

    /// The current item starts `late` later than its slot: its first frame came late, and the
    /// timeline follows it rather than making the time up by dropping frames.
    mutating func delayItem(by late: MediaTime) {
        timeline.restart(at: timeline.itemOrigin + late)
    }

    /// The current item starts at clock time `start` (a wall join puts it where the wall says).
    mutating func restartItem(startingAt start: MediaTime) {
        timeline.restart(at: start - origin)
    }

    /// Holds the timeline from `now`; a pause already holding it is moved to `now` (what shows now
    /// is what a resume continues from).
    mutating func pause(at now: MediaTime) {
        pausedAt = now
    }

    /// Lets the timeline run again, later by the time spent paused.
    mutating func resume(at now: MediaTime) {
        guard let pausedAt else { return }
        origin += now - pausedAt
        self.pausedAt = nil
    }

    /// Neither playing on from the pause nor holding it: a stop, or a wall join, which says anew when.
    mutating func forgetPause() {
        pausedAt = nil
    }

    /// The device is heard playing `itemTime` of this item now: from here on the item is due by it
    /// (the sound's start anchors the pictures).
    mutating func anchor(heard itemTime: MediaTime, at now: MediaTime) {
        origin = now - timeline.timelineTime(ofItemTime: itemTime)
    }

    /// The device is heard playing `itemTime` now: the schedule moves toward it, smoothly for drift
    /// and at once for a jump (AudioClockFollower). Only video moves.
    mutating func follow(heard itemTime: MediaTime, at now: MediaTime) {
        origin += soundFollower.correction(forError: now - due(itemTime))
    }

    /// How far the schedule is from what the device plays (positive: the pictures are ahead).
    func error(heard itemTime: MediaTime, at now: MediaTime) -> MediaTime {
        now - due(itemTime)
    }
}
