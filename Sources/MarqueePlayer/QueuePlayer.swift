import Foundation
import MarqueeCore

/// The transport over a queue of items (AVQueuePlayer): plays them in their repeat mode on a
/// dedicated present thread, gapless, and takes commands from any thread.
///
/// Threads: one present thread owns every piece of playback state below; each item decodes on its
/// own thread (ItemPipeline). Other threads only append commands and wake the present thread.
public final class QueuePlayer: @unchecked Sendable {
    let items: [QueueItem]
    let settings: PlayerSettings
    let opener: MediaOpening
    let video: VideoOutput
    let clock: PlaybackClock
    let emit: @Sendable (PlayerEvent) -> Void

    /// Guards `pendingCommands` and `isShutDown`, and wakes the present thread.
    let control = NSCondition()
    var pendingCommands: [Command] = []
    var isShutDown = false
    private var runLoopEnded = false

    // Present-thread state.
    var cursor: PlaylistCursor
    var machine: PlaybackStateMachine
    var current: ItemPipeline?
    var upcoming: ItemPipeline?
    var timeline = PresentationTimeline()
    /// Clock time of timeline zero; moves on by the time spent paused.
    var origin = MediaTime.zero
    var pausedAt: MediaTime?
    var scheduler = FrameScheduler()
    var currentAsset: Asset?
    var userScaling: ScalingMode?
    var pauseOnNextFrame = false
    var failuresInARow = 0
    var retryRound = 0

    public init(items: [QueueItem], settings: PlayerSettings, opener: MediaOpening, video: VideoOutput,
                clock: PlaybackClock, events: @escaping @Sendable (PlayerEvent) -> Void) {
        self.items = items
        self.settings = settings
        self.opener = opener
        self.video = video
        self.clock = clock
        self.emit = events
        self.cursor = PlaylistCursor(itemCount: items.count, repeatMode: settings.repeatMode, seed: settings.shuffleSeed)
        self.machine = PlaybackStateMachine(repeatMode: settings.repeatMode, scalingMode: settings.scaling)
    }

    /// Starts playing on the present thread.
    public func start() {
        let thread = Thread { [self] in
            run()
            control.lock()
            runLoopEnded = true
            control.broadcast()
            control.unlock()
        }
        thread.name = "marquee.present"
        thread.qualityOfService = .userInteractive
        thread.start()
    }

    /// Queues a command from any thread (keys, signals, a control interface); the present thread
    /// applies it between frames.
    public func send(_ command: Command) {
        control.lock()
        pendingCommands.append(command)
        control.broadcast()
        control.unlock()
    }

    /// Asks the present thread to stop for good (SIGTERM); returns at once.
    public func shutDown() {
        control.lock()
        isShutDown = true
        control.broadcast()
        control.unlock()
    }

    /// Blocks until the run loop has ended: queue exhausted with exitWhenIdle, or shut down.
    public func waitUntilFinished() {
        control.lock()
        while !runLoopEnded { control.wait() }
        control.unlock()
    }

    var shouldStop: Bool {
        control.lock()
        defer { control.unlock() }
        return isShutDown
    }

    func takePendingCommands() -> [Command] {
        control.lock()
        defer { control.unlock() }
        let commands = pendingCommands
        pendingCommands = []
        return commands
    }

    /// Blocks the present thread until a command or a shutdown arrives.
    func waitForCommand() {
        control.lock()
        while pendingCommands.isEmpty && !isShutDown { control.wait() }
        control.unlock()
    }

    var hasPendingWork: Bool {
        control.lock()
        defer { control.unlock() }
        return !pendingCommands.isEmpty || isShutDown
    }

    func emitAll(_ events: [PlayerEvent]) {
        events.forEach(emit)
    }
}
