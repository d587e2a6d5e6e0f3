import Foundation
import MarqueeCore

/// What the present thread knows besides its events: published with each frame and each batch of
/// commands, read by the control side at any time.
public struct PlayerDetails: Sendable, Equatable {
    public var pauseAfterCurrentItem = false
    public var actionAtItemEnd = ActionAtItemEnd.advance
    /// Playback rate (the `rate` command, 0.25 to 4); it stays while paused or stopped.
    public var rate = 1.0
    /// What is heard at that rate: time-stretched, or muted where the backend cannot stretch.
    public var soundAtRate = SoundAtRate.normal
    /// displayOff turns it off (and pauses), displayOn back on.
    public var displayIsOn = true
    /// The config has a timetable: then `daypart` is what it plays now (nil: nothing scheduled)
    /// and `nextScheduleChange` when it next changes, as far as the agenda held looks ahead.
    public var isScheduled = false
    public var daypart: String?
    public var nextScheduleChange: Date?
    /// The source timestamp of the frame on screen, published with it: a seek's reply, sent from
    /// the present thread, finds it here before the frame's event reaches the fold.
    public var framePTS: MediaTime?
    /// The item on screen's trims, in its media time, and whether it can seek.
    public var itemStart: MediaTime?
    public var itemEnd: MediaTime?
    public var mediaDuration: MediaTime?
    public var isSeekable = false
    public var isStillImage = false
    /// Frame-locked to the wall clock (`sync:`): commands that would leave the wall are refused.
    public var isWallSynced = false
    /// How far the item's source is fetched ahead of decoding (AVPlayerItem's loadedTimeRanges).
    public var readAhead = ReadAheadStatus.local
    /// The rectangle of the screen the picture is drawn into (its presentation size).
    public var presentationRect: PixelRect?
    public var screenSize: PixelSize

    public init(screenSize: PixelSize) {
        self.screenSize = screenSize
    }
}

/// The player's status as the control socket's `status` reads it: the events folded in order
/// (`PlaybackStatus`, so it says what is on screen) and the present thread's details. Written by
/// the present thread (and the rare event from another thread), read from any thread; holding the
/// lock costs a copy, never a wait on playback.
public struct PlayerStatusSnapshot: Sendable {
    public var playback: PlaybackStatus
    public var details: PlayerDetails
    /// Seconds since the player started, on its clock, when the snapshot was taken.
    public var secondsSinceStart: Double
}

final class PlayerStatusStore: @unchecked Sendable {
    private let lock = NSLock()
    private var playback: PlaybackStatus
    private var details: PlayerDetails
    /// The item on screen's pipeline: its read-ahead and bytes read are asked when a status is
    /// taken (both safe from any thread), not published with every frame.
    private var source: ItemPipeline?

    init(playback: PlaybackStatus, details: PlayerDetails) {
        self.playback = playback
        self.details = details
    }

    func apply(_ event: PlayerEvent, at seconds: Double) {
        lock.withLock { playback.apply(event, at: seconds) }
    }

    func publish(_ change: (inout PlayerDetails) -> Void) {
        lock.withLock { change(&details) }
    }

    func publish(source pipeline: ItemPipeline?) {
        lock.withLock { source = pipeline }
    }

    /// Per frame: the frame on screen and where it is drawn, nothing more (one lock).
    func publish(framePTS: MediaTime?, drawnRect: PixelRect?) {
        lock.withLock {
            details.framePTS = framePTS
            details.presentationRect = drawnRect
        }
    }

    func snapshot(at seconds: Double) -> PlayerStatusSnapshot {
        let (playback, details, source) = lock.withLock { (self.playback, self.details, self.source) }
        var snapshot = PlayerStatusSnapshot(playback: playback, details: details, secondsSinceStart: seconds)
        guard let source else { return snapshot }
        snapshot.details.readAhead = source.readAheadStatus
        // Bytes the item on screen's reader has taken so far, into its access log entry.
        let log = snapshot.playback.accessLog
        if var entry = log.last, entry.index == source.index, entry.endedAt == nil {
            entry.bytesRead = source.bytesRead
            snapshot.playback.accessLog[log.count - 1] = entry
        }
        return snapshot
    }
}
