import MarqueeCore

/// Frame-locked playback's side of the present thread: a join waiting for the loop's next turn,
/// the pre-roll a join gives itself (doubled when a join comes soon after the last, up to a
/// bound), and the pace the sound is resampled to so it stays on the wall.
struct WallLock {
    /// A join waits for the run loop's next turn (set from command paths, taken by the loop).
    var pendingJoin: QueuePlayer.WallJoinReason?
    private(set) var lastJoinAt: MediaTime?
    /// How far ahead of now a join lands: time to open, seek and draw before the wall gets there.
    private(set) var preroll = WallLock.initialPreroll
    var soundFollower = WallAudioFollower()
    /// The pace the sound is played at to stay on the wall (1: as it is).
    var soundPace = MediaTime(1, per: 1)

    static let initialPreroll = MediaTime(1, per: 2)
    static let maximumPreroll = MediaTime(8, per: 1)

    /// The pre-roll for a join at `now`. A join soon after the last one (within four pre-rolls)
    /// means the pre-roll was too short for this machine and this media: it doubles. Joins the
    /// viewer or the system asked for (a reload, a resume, a clock step) say nothing of that.
    mutating func prerollForJoin(_ reason: QueuePlayer.WallJoinReason, at now: MediaTime) -> MediaTime {
        let askedFor: Set<QueuePlayer.WallJoinReason> = [.reload, .resumed, .clockChanged]
        if let lastJoinAt, !askedFor.contains(reason), now - lastJoinAt < preroll * 4 {
            preroll = min(preroll * 2, Self.maximumPreroll)
        }
        lastJoinAt = now
        return preroll
    }

    /// The sound starts over at its own pace with the join.
    mutating func resetSoundPace() {
        soundPace = MediaTime(1, per: 1)
    }
}
