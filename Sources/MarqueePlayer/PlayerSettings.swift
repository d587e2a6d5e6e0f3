import MarqueeCore

/// How a QueuePlayer plays its queue; config and flags fill it in.
public struct PlayerSettings: Sendable {
    public var repeatMode: RepeatMode = .all
    /// Fixes the shuffle order; the CLI draws a random one unless config gives it.
    public var shuffleSeed: UInt64 = 0
    public var scaling: ScalingMode = .default
    /// What each item's end does (config `playlist.actionAtItemEnd`).
    public var actionAtItemEnd = ActionAtItemEnd.advance
    public var background: RGBColor = .black
    public var displayRotation: Rotation = .none
    /// End the run loop once repeat off has played everything (`--exit-when-idle`).
    public var exitWhenIdle = false
    /// After every item has failed in a row the player waits this long before trying again,
    /// doubling each round up to `maximumRetryDelay`, so a dead playlist never spins the CPU.
    public var retryDelay = MediaTime(seconds: 1)
    public var maximumRetryDelay = MediaTime(seconds: 30)
    /// The software volume at start, 0...1 (config `audio.volume`).
    public var volume = 1.0
    /// Video follows the audio output's position whenever it reports one (a real device on the
    /// real-time clock). Off for the virtual clock, whose time has nothing to do with a device's.
    public var followsAudioClock = false
    /// The longest an item may take to open (up to knowing its timing, or failing), in real time:
    /// past it the item fails with `timed out opening` and the playlist goes on. The same 5 s as a
    /// network open, and it covers what FFmpeg's deadline cannot: a local open(2) or read(2) that
    /// blocks in the kernel (a hung NFS or USB path). The decode thread stuck there is abandoned.
    /// Remote items get three times as long: FFmpeg's network timeout rules them.
    public var openTimeout: Duration = .seconds(5)
    /// How much a remote item fetches ahead of playback (config `network.readAhead`), and how long
    /// before it is due the next remote item is opened: early enough to fill that buffer, late
    /// enough that a server coming up meanwhile is not failed a whole loop early.
    public var readAhead: Duration = .seconds(10)
    /// After a `stop` from a key (config `input.stopTimeout`), playback resumes once the player has
    /// stayed stopped this long, on the player's clock; nil: a stop lasts until something plays.
    /// A stop from any other source is never undone.
    public var stopTimeout: MediaTime?
    /// The queue's content comes later (a remote config, media being downloaded): an empty queue
    /// waits for it with the status card up, rather than ending the run.
    public var waitsForContent = false
    /// Frame-locked playback (config `sync:`): the timeline is laid on the wall clock from a shared
    /// epoch; the clock must be the wall clock the plan's clock zero was read from. nil: free-running.
    public var wallSync: WallSync?
    /// Where the first item starts instead of the top of the queue: a restart resuming the saved
    /// position (item `index` at source time `time`, an exact seek, pre-rolled). Ignored with
    /// `wallSync`, which follows its epoch, and when `index` is not in the queue.
    public var resumeAt: ResumePoint?
    /// Run first on the present thread, before it plays: the session asks for real-time priority
    /// there (`RealtimeScheduling`), since only the thread itself is sure to be the one raised.
    public var onPresentThread: (@Sendable () -> Void)?

    public init() {}
}
