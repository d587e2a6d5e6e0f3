import Dispatch
import Foundation
import Logging
import MarqueeConfig
import MarqueeControl
import MarqueeCore
import MarqueePlayer

/// One run of `marquee play`: the engine wired to FFmpeg, the chosen output and clock, with events
/// fanned out to the --events log, the journal lines and the status line. Keys (evdev) and signals
/// reach the player on one path, `QueuePlayer.send(_:from:)`, and are logged as `command` events
/// with their source: SIGINT and SIGTERM quit cleanly, SIGUSR1 is next, SIGUSR2 play/pause, SIGHUP
/// reloads the config. Under systemd (`$NOTIFY_SOCKET`) it says READY=1 once the first frame is on
/// screen, pings the watchdog from the present thread and says STOPPING=1 on the way out.
package final class PlaybackSession {
    private let notifier: SystemdNotifier?
    private let player: QueuePlayer
    private let observer: SessionObserver
    /// Writes events off the present thread, so a slow file or terminal never delays a frame.
    private let delivery: EventDeliveryThread
    /// The screen, when there is one: released explicitly once the player has stopped, because a
    /// process that exits does not run deinits and the console must come back.
    /// Every screen's output (closed together, the main one last); with `displays:`, the players
    /// of the screens besides the main one.
    private let screens: any ScreenSet
    private let otherScreens: ScreenPlayers?
    /// The control plane's one event loop: signals, keys, hotplug, VT switches, the config watch,
    /// clock jumps and the control socket are its sources, on one thread.
    private let events: ControlPlaneLoop
    /// Keypads and remotes; nil with `input: none`.
    private let input: (any InputSource)?
    /// Reads the config again when it is written or renamed into place; nil for media arguments.
    private let watcher: (any ConfigWatching)?
    /// The control socket; nil with `--control none` or when it could not be made.
    private let control: ControlEndpoint?
    /// The MQTT node (config `mqtt:`); nil without one.
    private let mqtt: MQTTEndpoint?
    /// `/metrics` (config `metrics:`, `--metrics`); nil without it or when its address was refused.
    private let metrics: MetricsEndpoint?
    /// Tells the player when the wall clock is set, so a timetable follows the jump; nil without
    /// a schedule, or on the virtual clock (whose wall time is its own).
    private let clockJumps: (any ClockJumpWatching)?
    /// The TV over HDMI-CEC (`display.cec`), switched with the display; nil without one.
    private let cec: (any DisplayPowerDevice)?
    /// The media cache and the source's poller; nil when nothing comes over HTTP to be cached.
    private let fleet: FleetSetup?
    /// The cache a control client's `load` goes through (the fleet's, or one opened for it).
    private var loadStaging: LoadStaging?
    /// The one road every new plan takes to the player: a reloaded file, a fetched config, a
    /// client's `load`.
    private let intake: PlanIntake
    private let plan: PlaybackPlan
    private let logger: Logger
    /// `sync:`: works out a reloaded playlist's wall plan; nil: the player is not locked to the wall.
    private let syncPlanner: WallSyncPlanner?
    /// Proof of play (`proofOfPlay:`, `--ledger`): every screen's records; nil when it is off.
    private let ledger: PlayLedgerSink?
    /// Resume after a restart (`resume:`); nil when it is off.
    private let positions: PositionKeeper?
    /// SHA-256 of files and texts (a kept config's, for its saved place).
    private let digests: any FileDigesting

    /// How long a quit waits for the present thread, then for the last events to be written.
    package static let quitGrace = 1.5
    /// How long a quit waits for the TV's last CEC message.
    package static let cecGrace = 0.5
    package static let eventsGrace = 0.3

    /// What each handled signal asks for. A process that plays blocks them from its start
    /// (`ControlPlaneLoop.blockForProcess`), so they arrive only through the loop.
    package static let signalActions: [(number: Int32, name: String, action: ControlAction)] = [
        (SIGINT, "SIGINT", .quit), (SIGTERM, "SIGTERM", .quit),
        (SIGUSR1, "SIGUSR1", .command(.next)), (SIGUSR2, "SIGUSR2", .command(.togglePlayPause)),
        (SIGHUP, "SIGHUP", .reload),
    ]

    package init(plan: PlaybackPlan, overrides: PlanOverrides = PlanOverrides(), reloadImmediately: Bool = false, clock: PlaybackClock,
                audio audioChoice: AudioChoice, eventsPath: String?, traceFrames: Bool, backends: Backends, logger: Logger) throws {
        let writer: EventLogWriter?
        do {
            writer = try eventsPath.map { try EventLogWriter(path: $0, clock: clock, includesFrames: traceFrames) }
        } catch {
            throw PlayError(lines: ["\(error)"])
        }
        // A full disk or a closed pipe costs the events, once said, never the playback.
        writer?.onProblem { [logger] in logger.warning("\($0)") }
        let events: ControlPlaneLoop
        do {
            events = try ControlPlaneLoop(name: "marquee.events", report: { [logger] in logger.warning("\($0)") })
        } catch {
            throw PlayError(lines: ["marquee: cannot make the control-plane loop: \(error)"])
        }
        self.events = events
        let screens = try backends.screens(plan, logger, events)
        self.screens = screens
        let video = screens.main
        let cec = backends.displayPower(plan.cec, video.display, logger)
        self.cec = cec
        let notifier = SystemdNotifier()
        self.notifier = notifier
        let pinger = notifier.flatMap { notifier in notifier.watchdogInterval.map { WatchdogPinger(notifier: notifier, interval: $0) } }
        if let interval = notifier?.watchdogInterval {
            logger.debug("systemd watchdog: pinging every \(interval)")
        }
        let observer = SessionObserver(writer: writer, logger: EventLogger(logger: logger, itemCount: plan.items.count),
                                       itemCount: plan.items.count, notifier: notifier)
        let wallClock = Self.wallClock(for: clock)
        self.observer = observer
        let delivery = EventDeliveryThread(deliver: { observer.observe($0, at: $1) }, reportLoss: { [logger] count in
            logger.warning("events: \(count) events were not written: the events file, journal or terminal fell behind")
        })
        self.delivery = delivery
        let ledger = PlayLedgerSink.make(plan: plan, backends: backends, logger: logger)
        self.ledger = ledger
        if let recorder = ledger?.recorder(plan: plan, screen: plan.mainScreen?.name ?? "main", clock: clock, wallClock: wallClock,
                                          digest: backends.digests()) {
            observer.attach { recorder.observe($0, at: $1) }
        }
        let fleet = FleetSetup.make(plan: plan, backends: backends, post: { [delivery] in delivery.post($0, at: clock.now().seconds) }, logger: logger)
        self.fleet = fleet
        self.plan = plan
        self.logger = logger
        // The screen's own rule for every later plan, as for the first: a plane that turns the
        // picture leaves it unturned.
        let rotatesInHardware = video.display?.rotatesInHardware == true
        let intake = PlanIntake(plan: plan, path: plan.configPath, overrides: overrides, immediately: reloadImmediately,
                                wallClock: wallClock, screenRule: { PlayerAssembly.drawUnturned(&$0, rotatesInHardware: rotatesInHardware) }, logger: logger)
        self.intake = intake
        let audio = backends.audio(AudioRequest(choice: audioChoice, configuration: plan.audio, virtualClock: clock is VirtualClock), logger)
        let assembly = PlayerAssembly(plan: plan, backends: backends, clock: clock)
        var settings = assembly.settings(plan.settings, for: video, audio: audio, waitsForContent: fleet != nil, logger: logger)
        digests = backends.digests()
        let positions = PositionKeeper.make(plan: plan, config: Self.configInForce(plan, digest: digests),
                                            screen: plan.mainScreen?.name ?? "main", logger: logger)
        self.positions = positions
        let schedule = fleet == nil ? plan.schedule.map { PlaylistSchedule(playlists: $0, wallClock: wallClock) } : nil
        // Content that comes later (the fleet's) is entered where it was when it arrives (startFleet).
        if fleet == nil, let positions {
            // With a timetable the player begins with the daypart on now, and resumes only in it:
            // the queue a reload would hand over, worked out by the same rule.
            let starting = plan.replacement(immediately: false, wallClock: wallClock)
            settings.resumeAt = positions.resumePoint(for: starting.items, daypart: starting.daypart)
        }
        // Media given as arguments have no config to read again.
        let reload: (@Sendable (CommandSource) -> Void)? = plan.configPath != nil || fleet != nil
            ? { @Sendable source in intake.reload(from: source) } : nil
        let opener = assembly.opener(settings, for: video, warn: { [logger] in logger.warning("\($0)") })
        if let sync = plan.sync, let wallClock = clock as? WallClockTime {
            let planner = WallSyncPlanner(opener: opener, clockZeroUnixNanoseconds: wallClock.zeroUnixNanoseconds)
            switch planner.wallSync(for: plan.items, sync: sync) {
            case .success(let wallSync):
                settings.wallSync = wallSync
                logger.info("sync: locked to the wall clock from \(sync.epochText): a cycle of \(wallSync.plan.cycle.seconds) s over \(plan.items.count) items")
            case .failure(let problems):
                throw PlayError(lines: problems.map { $0.line })
            }
            syncPlanner = planner
            Self.warnIfClockUnsynchronized(backends.kernelClock(), logger: logger)
            if !settings.followsAudioClock && audio.isDevice {
                logger.notice("sync: audio device \(audio.deviceName) keeps no time of its own (no sound card plays it): its sound is not resampled onto the wall")
            }
        } else {
            syncPlanner = nil
        }
        intake.syncPlanner = syncPlanner
        let extras = PlayerAssembly.Extras(display: backends.osd(plan.osd, logger), displayPower: cec.map { [$0] } ?? [],
                                           schedule: schedule,
                                           heartbeat: { pinger?.tick() }, reload: reload)
        let player = assembly.player(items: fleet == nil ? plan.items : [], settings: settings, opener: opener, screen: video, audio: audio,
                                     extras: extras, clock: clock, stampedEvents: { [delivery] in delivery.post($0, at: $1.seconds) })
        self.player = player
        do {
            otherScreens = screens.others.isEmpty ? nil
                : try ScreenPlayers(outputs: screens, plan: plan, overrides: overrides, clock: clock, audio: audioChoice,
                                    eventsPath: eventsPath, traceFrames: traceFrames, ledger: ledger, resumes: positions != nil,
                                    backends: backends, logger: logger)
        } catch {
            // An events file that cannot be made ends the run: every CRTC is put back first.
            _ = screens.close()
            throw error
        }
        // Any config could gain a schedule on reload: the watch is cheap (one timer on the loop).
        if (plan.configPath != nil || plan.sync != nil) && !(clock is VirtualClock) {
            switch backends.clockJumps(events, { [weak player] in player?.wallClockChanged() }) {
            case .success(let watch):
                clockJumps = watch
            case .failure(let error):
                clockJumps = nil
                logger.warning("schedule: cannot watch the wall clock for jumps (timerfd: \(error)); a jump is followed at the timetable's next change")
            }
        } else {
            clockJumps = nil
        }
        // Said once: on an overlay plane of the screen, or blended into each picture, and why.
        if let drawing = player.osdDrawing { logger.info("osd: \(drawing)") }
        var fetchNow: (@Sendable () -> Void)?
        if plan.remote != nil, let fleet {
            fetchNow = { fleet.poller?.pollNow() }
        }
        if let stage = fleet?.stage {
            let note: @Sendable (String?) -> Void = { [weak player] text in player?.setContentNote(text) }
            stage.attach(note: note, playing: { [weak player] in player?.status().playback.itemURL })
        }
        // Changes to the config are the `reload` command too, from source `file`.
        watcher = plan.configPath.map { path in
            backends.configWatch(path, logger, events) { player.send(.reload, from: .file(path: path)) }
        }
        input = backends.input(plan.input, logger, InputRoute(deliver: { action, source in player.send(action, from: source) },
                                                              entryChanged: { player.showNumericEntry($0) }), events)
        let host = SessionControlHost(settings: settings,
                                      output: Self.outputStatus(video, rotation: plan.settings.displayRotation),
                                      audioDevice: audio.deviceName,
                                      roots: LoadRoots(configured: plan.mediaRoots, configPath: plan.configPath, cacheDirectory: fleet != nil ? plan.cache.resolvedDirectory() : nil),
                                      screenshots: ScreenshotFolder.choose(socketFolder: Self.socketFolder(plan.control.socket)),
                                      image: backends.image)
        host.attach(input)
        let staging = LoadStaging(plan: plan, fleet: fleet, player: player, backends: backends,
                                  post: { [delivery] in delivery.post($0, at: clock.now().seconds) }, logger: logger)
        intake.attach(player, stage: fleet?.stage, openStage: { staging.stage() }, fetchNow: fetchNow)
        if let others = otherScreens { intake.attachOtherScreens { others.replaceQueues(from: $0, immediately: $1) } }
        host.attach(intake: intake)
        self.loadStaging = staging
        if let fleet { host.attach(cacheStatus: { fleet.status() }) }
        if syncPlanner != nil {
            // {"epoch":"2026-01-01T00:00:00Z","clock":{"synchronized":true,"estimatedErrorMicroseconds":12,...}}
            // The wall playing now: a reload may have moved its epoch or unlocked the player.
            host.attach(syncStatus: { [intake] in
                guard let sync = intake.lockedWall else { return nil }
                return StatusDocument.SyncStatus(epoch: sync.epochText, clock: backends.kernelClock().map {
                    StatusDocument.SyncStatus.Clock(synchronized: $0.isSynchronized, estimatedErrorMicroseconds: $0.estimatedErrorMicroseconds,
                                                    maximumErrorMicroseconds: $0.maximumErrorMicroseconds)
                })
            })
        }
        if let mainName = plan.mainScreen?.name {
            let others = otherScreens
            host.attach(screens: { [weak player] in
                screens.status(playing: { name in
                    name == mainName ? player.map { StatusDocument.Screen.Playing($0.status().playback) } : others?.playing(name)
                }) ?? []
            })
        }
        // Every screen playing a playlist (the main one too), and what a request may name: those and
        // each mirror, whose picture is its source's.
        let shownScreens = [ScreenshotPublishing.Screen(name: plan.mainScreen?.name, player: player)]
            + (otherScreens?.players ?? []).map { ScreenshotPublishing.Screen(name: $0.name, player: $0.player) }
        let mirrors = plan.screens.compactMap { screen in
            screen.mirrored.flatMap { source in shownScreens.first { $0.name == source } }.map { ScreenshotPublishing.Screen(name: screen.name, player: $0.player) }
        }
        control = ControlEndpoint.make(plan.control, player: player, screens: shownScreens + mirrors, host: host, loop: events, logger: logger)
        // With `displays:` every screen playing a playlist is published by its name, the main one
        // too, so a dashboard reads `TOPIC/screenshot/+` alike for all; mirrors show their source's.
        mqtt = MQTTEndpoint.make(plan.mqtt, player: player, screens: shownScreens, addressable: shownScreens + mirrors, host: host, backends: backends,
                                 service: control?.service, ledger: ledger, logger: logger)
        observer.attachStatus(player)
        if let positions {
            observer.attach { event, _ in
                if case .command(.quit, _) = event { positions.quitWasAsked() }
            }
        }
        let service = control?.service ?? mqtt?.service
        if let service { observer.attach(service) }
        if let mqtt { observer.attach { mqtt.observe($0, at: $1) } }
        metrics = MetricsEndpoint.make(plan.metrics, player: player, screen: plan.mainScreen?.name ?? "main", others: otherScreens?.players ?? [],
                                       fleet: fleet, mqtt: mqtt, backends: backends, logger: logger)
        // The other screens' events: their series, and the clients subscribed to or observing a screen.
        if metrics != nil || service != nil {
            otherScreens?.tap { [metrics] screen, event, at in
                metrics?.observe(event, at: at, screen: screen)
                service?.observe(event, at: at, screen: screen)
            }
        }
        if let metrics { observer.attach { metrics.observe($0, at: $1) } }
    }

    /// The first playlist of a run whose media come over HTTP: through the cache, and with
    /// `source:` the config kept from the last run (if any) while the server is asked again.
    private func startFleet() {
        guard let fleet else { return }
        let reloader = intake
        guard let remote = plan.remote else {
            reloader.start(with: plan, resume: positions?.lookup())
            return
        }
        let folder = plan.configPath.map { URL(fileURLWithPath: $0).deletingLastPathComponent() }
            ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
        let label = CredentialRedaction.redacted(remote.url.absoluteString)
        var stored: (text: String, etag: String?, lastModified: String?)?
        if let kept = fleet.storedPlan(folder: folder) {
            logger.info("source: playing the config fetched from \(label) at \(kept.saved.fetchedAt) while the server is asked again")
            // The last run's place is in the config kept then; a newer one fetched now starts from its top.
            let keptDigest = "sha256:" + digests.sha256(of: Array(kept.text.utf8))
            reloader.adopt(fetched: kept.plan, from: label, accepted: {}, resume: positions?.lookup(config: keptDigest))
            stored = (kept.text, kept.saved.etag, kept.saved.lastModified)
        } else {
            player.setContentNote("Waiting for the config from \(label)")
        }
        fleet.startPolling(reloader: reloader, player: player, folder: folder, stored: stored)
    }

    /// The folder the control socket is made in; nil without a socket.
    private static func socketFolder(_ socket: ControlConfiguration.Socket) -> String? {
        let path: String? = switch socket {
        case .none: nil
        case .path(let given): given
        case .automatic: ControlSocketLocation.defaultPath()
        }
        return path.map { URL(fileURLWithPath: $0).deletingLastPathComponent().path }
    }

    /// The wall clock a timetable is read on: the system's; on the virtual clock, the start time
    /// plus its time, so a schedule runs as fast as the playback.
    package static func wallClock(for clock: PlaybackClock) -> @Sendable () -> Date {
        guard clock is VirtualClock else { return { Date() } }
        let start = Date()
        return { start.addingTimeInterval(clock.now().seconds) }
    }

    /// What a saved position belongs to, read at each save: the digest of the config in force (the
    /// fetched one kept in the cache with `source:`, else the config file), or of the media list
    /// given on the command line.
    static func configInForce(_ plan: PlaybackPlan, digest: any FileDigesting) -> @Sendable () -> String {
        let path = plan.configFileInForce
        let fingerprint = ConfigFingerprint(path: path, digest: digest)
        let media = "sha256:" + digest.sha256(of: Array(plan.items.map(\.url).joined(separator: "\n").utf8))
        return { path == nil ? media : fingerprint.current() ?? "none" }
    }

    /// The output as `status` reports it.
    private static func outputStatus(_ video: ScreenOutput, rotation: Rotation) -> StatusDocument.Output {
        StatusDocument.Output(kind: video.display == nil ? "headless" : "drm", display: video.display?.summary,
                              size: video.output.screenSize, rotation: rotation.degrees)
    }

    /// Plays until the queue is done (exit-when-idle) or a signal arrives; true if any item started.
    package func run() -> Bool {
        // Through the loop's signalfd: a signal sent before this (blocked since `marquee play`
        // began, or by a launcher) is pending and is read at once.
        events.onSignals(Self.signalActions.map(\.number), named: "signals") { [player, otherScreens] number in
            guard let (_, name, action) = Self.signalActions.first(where: { $0.number == number }) else { return }
            player.send(action, from: .signal(name: name))
            if case .quit = action { otherScreens?.quit(from: .signal(name: name)) }
        }
        events.start()
        control?.start()
        mqtt?.start()
        clockJumps?.start()
        player.start()
        ledger?.start()
        positions?.start(status: { [player] in player.status() })
        otherScreens?.start()
        startFleet()
        input?.start()
        watcher?.start()
        // SIGTERM and SIGINT end the process within 2 s whatever a decoder, an opener or a driver
        // is doing: a stuck thread is left behind, not waited for.
        if !player.waitUntilFinished(graceAfterShutDown: Self.quitGrace) {
            Console.shared.log("warning: the player did not stop within \(Self.quitGrace) s of the quit; exiting anyway")
        }
        otherScreens?.finish(waitingForIdle: plan.settings.exitWhenIdle, grace: Self.quitGrace, eventsGrace: Self.eventsGrace)
        delivery.finish(waitingAtMost: Self.eventsGrace)
        // After the last events: the item cut by the quit is in the ledger, synced.
        ledger?.finish()
        // After the last events too: the status has folded them all.
        positions?.finish(with: player.status())
        control?.stop()
        mqtt?.stop()
        metrics?.stop()
        loadStaging?.stop(unless: fleet)
        fleet?.stop()
        cec?.finish(waitingAtMost: Self.cecGrace)
        notifier?.send("STOPPING=1")
        // Ungrabs the devices: keys reach the console again.
        input?.stop()
        // The last sources (signals, watches, hotplug) end with the loop; the screens close after.
        events.stop()
        Console.shared.endStatus()
        // Every screen's CRTC back as it was; the main screen, which owns the console, last.
        for problem in screens.close() {
            Console.shared.log("warning: closing the display: \(problem)")
        }
        return observer.startedAnyItem
    }
}

/// Receives every event on the event delivery thread and passes it on; keeps the status line.
private final class SessionObserver: @unchecked Sendable {
    private let writer: EventLogWriter?
    private let logger: EventLogger
    private let lock = NSLock()
    private var status: StatusLine
    private var lastStatusDraw = ContinuousClock.now
    private var started = false
    private let notifier: SystemdNotifier?
    private var toldReady = false
    /// The control socket's subscribers and observers hear every event too.
    private var control: ControlService?

    /// The player's status folds every event, in order, off the present thread.
    private var statusPlayer: QueuePlayer?

    package func attach(_ service: ControlService) {
        lock.withLock { control = service }
    }

    /// Others that hear every event after the control service (MQTT).
    private var listeners: [@Sendable (PlayerEvent, Double) -> Void] = []

    package func attach(_ listener: @escaping @Sendable (PlayerEvent, Double) -> Void) {
        lock.withLock { listeners.append(listener) }
    }

    package func attachStatus(_ player: QueuePlayer) {
        lock.withLock { statusPlayer = player }
    }

    package init(writer: EventLogWriter?, logger: EventLogger, itemCount: Int, notifier: SystemdNotifier?) {
        self.writer = writer
        self.logger = logger
        self.status = StatusLine(itemCount: itemCount)
        self.notifier = notifier
    }

    package var startedAnyItem: Bool { lock.withLock { started } }

    package func observe(_ event: PlayerEvent, at secondsSinceStart: Double) {
        lock.withLock { statusPlayer }?.recordStatus(event, at: secondsSinceStart)
        writer?.write(event, at: secondsSinceStart)
        lock.withLock { control }?.observe(event, at: secondsSinceStart)
        for listener in lock.withLock({ listeners }) { listener(event, secondsSinceStart) }
        logger.log(event)
        if case .frame(_, _, _, false, _) = event, lock.withLock({ defer { toldReady = true }; return !toldReady }) {
            firstFrameShown()
        }
        if let notifier { tellSystemd(event, notifier) }
        lock.withLock {
            if case .itemStarted = event { started = true }
            status.apply(event)
            // Frames come 30–60 times a second; a terminal needs a few redraws a second.
            let isFrame = if case .frame = event { true } else { false }
            let now = ContinuousClock.now
            if !isFrame || now - lastStatusDraw > .milliseconds(250) {
                lastStatusDraw = now
                Console.shared.showStatus(status.text)
            }
        }
    }

    /// One journal line when the first frame is on screen (the frame event follows its
    /// presentation), with the time since marquee started (its main) and since boot: what a
    /// device's boot-to-picture time is measured by. Under systemd, READY=1 goes with it.
    private func firstFrameShown() {
        let sinceBoot = ProcessTimes.uptime()
        let sinceStart = sinceBoot - ProcessTimes.launched
        logger.logger.info("first frame on screen\(String(format: " %.2f s after start (uptime %.2f s)", sinceStart, sinceBoot))")
        notifier?.send("READY=1\nSTATUS=\(lock.withLock { status.statusForSystemd })")
    }

    /// The item playing as STATUS= for `systemctl status`.
    private func tellSystemd(_ event: PlayerEvent, _ notifier: SystemdNotifier) {
        switch event {
        case .itemStarted:
            let text = lock.withLock {
                var next = status
                next.apply(event)
                return next.statusForSystemd
            }
            notifier.send("STATUS=\(text)")
        default:
            break
        }
    }
}

extension StatusLine {
    /// `playing item 2/3 intro.mp4`.
    package var statusForSystemd: String {
        "playing item \(itemNumber.map(String.init) ?? "-")/\(itemCount) \(title)"
    }
}

extension PlaybackSession {
    /// Said once at start: frame-locked playback is only as good as the wall clock under it.
    package static func warnIfClockUnsynchronized(_ state: KernelClockReading?, logger: Logger) {
        guard let state else {
            logger.warning("sync: cannot read the kernel clock's state (adjtimex); the wall clock may not be synchronized")
            return
        }
        if state.isSynchronized {
            logger.info("sync: wall clock \(state.description)")
        } else {
            logger.warning("sync: the wall clock is not synchronized (no chrony, NTP or PTP daemon has disciplined it): players on other devices will not agree on the frame")
        }
    }
}
