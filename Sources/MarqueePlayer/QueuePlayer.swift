import Foundation
import MarqueeCore

/// The transport over a queue of items (AVQueuePlayer): plays them in their repeat mode on a
/// dedicated present thread, gapless, and takes commands from any thread.
///
/// Threads: one present thread owns every piece of playback state below; each item decodes on its
/// own thread (ItemPipeline). Other threads only append commands and wake the present thread.
public final class QueuePlayer: @unchecked Sendable {
    /// The playlist and settings; a reloaded config replaces them on the present thread.
    var items: [QueueItem]
    var settings: PlayerSettings
    /// Settings of a reloaded config that wait for the next item boundary.
    var pendingSettings: PlayerSettings?
    /// What `reload` (SIGHUP) does: read and check the config off the present thread, then hand a
    /// valid one back through `replaceQueue(_:from:)`. Nil: there is nothing to reload.
    let reloadHandler: (@Sendable (CommandSource) -> Void)?
    let opener: MediaOpening
    let video: VideoOutput
    /// Playback time: the given clock at the playback rate. Everything that paces presentation
    /// reads and sleeps on it; the status and its events keep the given clock (`realClock`).
    let clock: RateClock
    let realClock: PlaybackClock
    /// Where events go (the session's delivery thread), each with its time on `realClock`: when it
    /// was emitted, or for a frame when it went on screen.
    let deliver: @Sendable (PlayerEvent, MediaTime) -> Void
    let statusStore: PlayerStatusStore
    /// How late each presented frame went up, for the metrics' histogram: written by the present
    /// thread without a lock, read (or left to fill, and then not kept) by the metrics side.
    public let presentLateness = LatenessSamples()
    /// Lays the items' audio end to end on the audio output; nil plays video only.
    let audioRenderer: AudioRenderer?
    /// Time-stretches the sound at a rate other than 1; nil (or failing): the sound is muted then.
    let audioStretching: AudioTimeStretching?
    /// Whether the sound at a rate other than 1 is stretched: learnt at the first such rate.
    var stretchesSound: Bool?
    /// Called from the present thread's loop at least every `heartbeatInterval` while the loop is
    /// alive (playing, paused, holding a still, stopped or idle); never while it is stuck, e.g. in
    /// a screen's page flip that does not complete. The systemd watchdog is pinged from here.
    let heartbeat: @Sendable () -> Void
    /// The longest the present thread goes without calling `heartbeat` while its loop is alive.
    public static let heartbeatInterval = 0.1
    /// A source stalled for longer than this (well past the network timeout that fails an item)
    /// counts as a frozen player: the heartbeat stops so a watchdog can restart the process.
    static let frozenStallLimit = 30.0

    /// What other threads ask of the present thread, in order.
    enum Request {
        case control(ControlAction, CommandSource)
        case seek(SeekRequest)
        case replace(QueueReplacement)
        /// Items added at the end of the playlist (the control socket's `load` with `append`).
        case append([QueueItem])
        /// A copy of what the screen shows, taken between frames (nil: nothing to read back).
        case screenshot(@Sendable (Canvas?) -> Void)
        /// Keypad digits typed so far, for the on-screen display (nil: the entry is over).
        case numericEntry(String?)
        /// The timetable worked out again from now: the player ran low on changes, or the wall
        /// clock jumped. It names the schedule it came from: one a reload has replaced since is dropped.
        case scheduleAgenda(ScheduleAgenda, from: PlaylistSchedule)
        /// The wall clock jumped: the timetable is to be worked out again from the new time.
        case wallClockChanged
        /// Why there is nothing to play yet (waiting for a config, downloading), for the status card.
        case contentNote(String?)
    }

    /// What other threads ask of the present thread, the shutdown, and the run loop's end.
    let requests = RequestQueue<Request>()
    /// After a quit, how long the run loop's end waits for the audio thread to finish writing.
    static let audioFinishAfterQuit = 1.0

    // Present-thread state.
    var cursor: PlaylistCursor
    var machine: PlaybackStateMachine
    /// The item playing, made when it becomes current and dropped at its end (CurrentItem).
    var current: CurrentItem?
    var upcoming: ItemPipeline?
    /// When each frame is due: the gapless timeline on the playback clock, paused or following the sound.
    var presentation = PresentationClock()
    var userScaling: ScalingMode?
    /// Frames the transport still shows at once, pauses on or steps through (across items).
    var steps = FrameSteps()
    /// Why items failed, how many in a row, and the back-off when all have (FailureBackOff).
    var failures = FailureBackOff()
    /// Pipelines given up on at their open deadline whose open has not returned yet: their item is
    /// not opened again meanwhile, so a path that hangs for good holds one thread, not one per loop.
    var abandonedOpens: [ItemPipeline] = []
    /// Numbers pipelines, so the audio clock can tell whose audio the device is playing.
    var pipelineSerial = 0
    /// Item events learnt ahead of the presented timeline, waiting for it.
    var announcement = HandOverAnnouncement()
    /// The device stays paused until the first picture is on screen (see `holdAudioForFirstPicture`).
    var isAudioHeldForFirstPicture = false
    var volume: VolumeControl
    /// The labels and the status card; nil: neither (no font, or the caller wants none).
    let osd: OnScreenDisplay?
    /// Where the labels are drawn and what they last showed (OSDState).
    var osdState = OSDState()
    /// What the screen shows, which outlives items on purpose (OnScreen).
    var onScreen = OnScreen()
    var delivery = PictureDelivery()
    /// Where the labels are drawn, for the log line at start (`osd: drawn on overlay plane 42
    /// (ARGB8888)`, `osd: blended into the picture (...)`); nil when there are no labels.
    public let osdDrawing: String?
    /// What turns the screen off and on: the video output when it can, then e.g. HDMI-CEC.
    let displayPowerSwitches: [any DisplayPowerSwitching]
    var displayIsOn = true
    /// Playback was running when the display went off: it runs again when the display comes on.
    var resumeWhenDisplayOn = false
    /// The status card's line while the queue waits for content (`setContentNote`).
    var contentNote: String?
    /// What keys changed that the stop rule puts back, and when (`settings.stopTimeout`).
    var visitorFallback = VisitorFallback()
    /// The timetable as the present thread follows it (ScheduleFollower).
    var timetable = ScheduleFollower()
    /// The queue ran out (or was empty) rather than being stopped: a new daypart starts playing.
    var ranOutOfItems = false
    /// Frame-locked playback's joins, pre-roll and sound pace (WallLock).
    var wall = WallLock()
    /// The time events get while set (`emitting(at:)`); nil: when they are emitted.
    var eventTime: MediaTime?

    public convenience init(items: [QueueItem], settings: PlayerSettings, opener: MediaOpening, video: VideoOutput,
                audio: AudioOutput? = nil, audioStretching: AudioTimeStretching? = nil, display: OnScreenDisplay? = nil,
                displayPower: [any DisplayPowerSwitching] = [], schedule: PlaylistSchedule? = nil,
                clock: PlaybackClock, heartbeat: @escaping @Sendable () -> Void = {},
                reload: (@Sendable (CommandSource) -> Void)? = nil,
                events: @escaping @Sendable (PlayerEvent) -> Void) {
        self.init(items: items, settings: settings, opener: opener, video: video, audio: audio, audioStretching: audioStretching,
                  display: display, displayPower: displayPower, schedule: schedule, clock: clock, heartbeat: heartbeat,
                  reload: reload, stampedEvents: { event, _ in events(event) })
    }

    /// Like the other, with each event's time on `clock`: a frame's is when it went on screen,
    /// which the code between the flip and the event (an item's first frame announces the item
    /// first) must not move: it took 10 ms for a first frame in the guest, and the A/V test read
    /// the first flash that much late.
    public init(items: [QueueItem], settings: PlayerSettings, opener: MediaOpening, video: VideoOutput,
                audio: AudioOutput? = nil, audioStretching: AudioTimeStretching? = nil, display: OnScreenDisplay? = nil,
                displayPower: [any DisplayPowerSwitching] = [], schedule: PlaylistSchedule? = nil,
                clock: PlaybackClock, heartbeat: @escaping @Sendable () -> Void = {},
                reload: (@Sendable (CommandSource) -> Void)? = nil,
                stampedEvents events: @escaping @Sendable (PlayerEvent, MediaTime) -> Void) {
        self.heartbeat = heartbeat
        self.reloadHandler = reload
        // A schedule decides the first queue: the daypart playing now, its items in their windows.
        var items = items
        var settings = settings
        timetable = ScheduleFollower(schedule: schedule)
        if let schedule {
            let agenda = schedule.agendaNow()
            let now = agenda.changes[0].state
            (items, settings) = schedule.playlists.queue(for: now, base: settings)
            timetable.adopt(agenda)
            // The screen is on at start: the first change (now) turns it off if the timetable says so.
            timetable.applied = ScheduleState(daypart: now.daypart, items: now.items, displayOn: true)
        }
        self.items = items
        self.settings = settings
        self.opener = opener
        self.video = video
        displayPowerSwitches = ((video as? any DisplayPowerSwitching).map { [$0] } ?? []) + displayPower
        self.clock = RateClock(base: clock)
        self.realClock = clock
        self.deliver = events
        let volume = VolumeControl(volume: settings.volume)
        self.volume = volume
        let store = PlayerStatusStore(playback: PlaybackStatus(itemCount: items.count, repeatMode: settings.repeatMode,
                                                               scaling: settings.scaling, volume: volume.volume),
                                      details: PlayerDetails(screenSize: video.screenSize))
        statusStore = store
        audioRenderer = audio.map {
            AudioRenderer(output: $0, gain: volume.gain, stretching: audioStretching, reportError: { message in events(.error(message: message), clock.now()) })
        }
        self.audioStretching = audioStretching
        self.osd = display
        (osdState.plane, osdDrawing) = Self.chooseOSDDrawing(display, video: video)
        self.cursor = PlaylistCursor(itemCount: items.count, repeatMode: settings.repeatMode, seed: settings.shuffleSeed)
        cursor.actionAtItemEnd = settings.actionAtItemEnd
        self.machine = PlaybackStateMachine(repeatMode: settings.repeatMode, scalingMode: settings.scaling)
    }

    /// Starts playing on the present thread.
    public func start() {
        audioRenderer?.start()
        let thread = Thread { [self] in
            ThreadName.set("marquee.present")
            settings.onPresentThread?()
            run()
            requests.markEnded()
        }
        thread.name = "marquee.present"
        thread.qualityOfService = .userInteractive
        thread.start()
    }

    /// Queues a command from code (tests, an embedding program); see `send(_:from:)`.
    public func send(_ command: Command) {
        send(.command(command), from: .application)
    }

    /// The one command path: keys, signals and any control interface arrive here, from any
    /// thread. The present thread applies each action between frames and logs it as a `command`
    /// event with its source. `quit` is logged and acts at once instead: a present thread blocked
    /// on a stalled source must still let the process exit.
    public func send(_ action: ControlAction, from source: CommandSource) {
        if action == .quit {
            emit(.command(.quit, source: source))
            shutDown()
            return
        }
        enqueue(.control(action, source))
    }

    /// Seeks within the current item (AVPlayer.seek(to:toleranceBefore:toleranceAfter:)). `time` is
    /// in the media's own timeline, like an item's start and end. A zero `toleranceBefore` decodes
    /// forward to the exact frame; a large one shows the keyframe before `time`. The completion
    /// runs on the present thread: true once the frame is on screen, false when a newer seek
    /// superseded this one or the item cannot seek.
    public func seek(to time: MediaTime, toleranceBefore: MediaTime = .zero, toleranceAfter: MediaTime = .zero,
                     from source: CommandSource? = nil, completion: @escaping @Sendable (Bool) -> Void = { _ in }) {
        enqueue(.seek(SeekRequest(time: time, toleranceBefore: toleranceBefore, toleranceAfter: toleranceAfter,
                                  source: source, completion: completion)))
    }

    /// Adds items at the end of the playlist, from any thread; the item playing plays on.
    public func append(_ added: [QueueItem]) {
        enqueue(.append(added))
    }

    /// A copy of the picture on screen (as the viewer sees it), taken on the present thread
    /// between frames; `completion` runs there, so it must hand the work on and return.
    public func screenshot(_ completion: @escaping @Sendable (Canvas?) -> Void) {
        enqueue(.screenshot(completion))
    }

    /// Replaces the playlist and settings (a reloaded config), from any thread. With
    /// `immediately` false the item playing plays to its end and the new list follows it; true
    /// applies the settings at once and, when the item playing is not in the new list, ends it
    /// now. Either way the item playing carries on in the new list when it is in it.
    public func replaceQueue(_ replacement: QueueReplacement) {
        enqueue(.replace(replacement))
    }

    /// Says why the queue is empty for now (no config fetched yet, media downloading): the status
    /// card shows it while nothing plays. nil: nothing to say.
    public func setContentNote(_ note: String?) {
        enqueue(.contentNote(note))
    }

    func enqueue(_ request: Request) {
        enqueue(contentsOf: [request])
    }

    /// Queues requests so the present thread takes them in one batch: none acts before the last
    /// is queued (a seek superseded by the next one in the batch completes with false).
    func enqueue(contentsOf requests: [Request]) {
        self.requests.append(contentsOf: requests)
    }

    /// Asks the present thread to stop for good (SIGTERM); returns at once.
    public func shutDown() {
        requests.shutDown()
    }

    /// Blocks until the run loop has ended: queue exhausted with exitWhenIdle, or shut down. With a
    /// `graceAfterShutDown`, waits at most that long after a shutdown: false when the run loop is
    /// still stuck then (a driver call that never returns), and the caller should exit anyway.
    @discardableResult
    public func waitUntilFinished(graceAfterShutDown grace: Double? = nil) -> Bool {
        requests.waitUntilEnded(graceAfterShutDown: grace)
    }

    var shouldStop: Bool { requests.shouldStop }

    func takePendingRequests() -> [Request] {
        requests.takeAll()
    }

    /// Blocks the present thread until a command or a shutdown arrives, or a stop from a key has
    /// lasted its timeout, beating the heart meanwhile.
    func waitForCommand() {
        while !requests.hasWork {
            heartbeat()
            if isStopTimeoutDue || isScheduleChangeDue { return }
            // A virtual clock jumps to the timetable's next change as it jumps to a frame's time.
            if waitForScheduleOnVirtualClock() { return }
            // The labels fade on a still screen too.
            let redraw = refreshOSDWhileIdle()
            requests.waitForWork(seconds: min(Self.heartbeatInterval, redraw?.seconds ?? Self.heartbeatInterval))
        }
    }

    /// Waits until `deadline` in real time, beating the heart; false when woken by a command or a
    /// shutdown first.
    func waitInRealTime(until deadline: ContinuousClock.Instant) -> Bool {
        while !hasPendingWork {
            let now = ContinuousClock.now
            if now >= deadline { return true }
            heartbeat()
            let slice = min(deadline - now, .milliseconds(Int(Self.heartbeatInterval * 1000)))
            requests.waitForWork(until: ContinuousClock.now + slice)
        }
        return false
    }

    /// A command, a shutdown, a change of the timetable due, or a join of the wall (present thread).
    var hasPendingWork: Bool {
        requests.hasWork || isScheduleChangeDue || wall.pendingJoin != nil
    }

    /// Every event leaves through here, then the item's cues hear it. The status folds the events
    /// on the delivery side (`recordStatus`), not here: the present thread does no more per event
    /// than before (under TCG, new code run between a first frame's flip and its event delayed
    /// the event by a frame).
    func emit(_ event: PlayerEvent, at time: MediaTime? = nil) {
        deliver(event, time ?? eventTime ?? realClock.now())
        observeCues(event)
    }

    /// Emits what `body` emits with the time `time` (what a picture brought on screen, at its flip).
    func emitting(at time: MediaTime?, _ body: () -> Void) {
        eventTime = time
        defer { eventTime = nil }
        body()
    }

    func emitAll(_ events: [PlayerEvent]) {
        for event in events { emit(event) }
    }

    /// Folds an event the player posted into its status; called by whoever delivers the events
    /// (the session's event thread), in order, with the event's time.
    public func recordStatus(_ event: PlayerEvent, at seconds: Double) {
        statusStore.apply(event, at: seconds)
    }

    /// Where playback is and what plays, as the control socket's `status` reports it.
    public func status() -> PlayerStatusSnapshot {
        statusStore.snapshot(at: realClock.now().seconds)
    }
}
