import Foundation
import Logging
import MarqueeConfig
import MarqueeCore
import MarqueePlayer

/// The screens of `displays:` that play a playlist of their own besides the main one: each a
/// `QueuePlayer` of its own, with its own present thread, decoder and (with `audio.device` on the
/// screen) ALSA device; null audio otherwise, on the monotonic clock. Keys, the control socket and
/// MQTT steer the main screen; SIGINT and SIGTERM end them all.
///
/// Their events go to an events file of their own, the main one's path with `.NAME` appended
/// (`--events run.jsonl` gives `run.jsonl.right` for screen `right`), their journal lines are
/// `screen NAME: ...`. With `resume:` each resumes on its own, from `position-NAME.json`.
package final class ScreenPlayers: @unchecked Sendable {
    private struct Running {
        let name: String
        let player: QueuePlayer
        let delivery: EventDeliveryThread
        let positions: PositionKeeper?
        /// The plane turns the picture: the player draws it unturned (`PlayerAssembly.settings`'s rule).
        let rotatesInHardware: Bool
    }

    private let running: [Running]
    /// What else hears every screen's events (the metrics), set once before the players start.
    private let tapped = EventTap()
    private let overrides: PlanOverrides
    private let logger: Logger
    /// Each screen's playlist as last handed to its player, by screen name; under `lock`.
    private var playlists: [String: PlaylistConfiguration] = [:]
    private let lock = NSLock()

    package init(outputs: any ScreenSet, plan: PlaybackPlan, overrides: PlanOverrides, clock sharedClock: PlaybackClock, audio audioChoice: AudioChoice,
         eventsPath: String?, traceFrames: Bool, ledger: PlayLedgerSink? = nil, resumes: Bool = false, backends: Backends, logger: Logger) throws {
        var running: [Running] = []
        let tap = tapped
        if eventsPath == "-" || eventsPath == "/dev/stdout", !outputs.others.isEmpty {
            logger.warning("events: standard output carries the main screen's events only; give --events a file for every screen's")
        }
        for playing in outputs.others {
            guard let screen = playing.screen, let playlist = screen.playlist else { continue }
            // `--clock fast`: each screen's virtual clock runs as fast as its own pipeline allows;
            // one shared clock would be moved on by the faster screen and the other would drop frames.
            let clock: PlaybackClock = sharedClock is VirtualClock ? VirtualClock() : sharedClock
            var screenLogger = logger
            screenLogger[metadataKey: "screen"] = "\(screen.name)"
            let writer: EventLogWriter?
            do {
                writer = try eventsPath.flatMap { path in
                    path == "-" || path == "/dev/stdout" ? nil
                        : try EventLogWriter(path: Self.eventsPath(path, screen: screen.name), clock: clock, includesFrames: traceFrames)
                }
            } catch {
                throw PlayError(lines: ["\(error)"])
            }
            writer?.onProblem { [screenLogger] in screenLogger.warning("\($0)") }
            let items = PlaybackPlan.queueItems(playlist)
            let journal = EventLogger(logger: screenLogger, itemCount: items.count)
            // The player's status folds its events off the present thread, as the main one's does.
            let folder = StatusFolder()
            // The device's one ledger, each record naming its screen.
            let recorder = ledger?.recorder(plan: plan, screen: screen.name, clock: clock, wallClock: PlaybackSession.wallClock(for: clock),
                                            digest: backends.digests())
            let positions = resumes ? PositionKeeper.make(plan: plan, config: PlaybackSession.configInForce(plan, digest: backends.digests()),
                                                          screen: screen.name, main: false, logger: screenLogger) : nil
            let delivery = EventDeliveryThread(deliver: { event, at in
                folder.player?.recordStatus(event, at: at)
                writer?.write(event, at: at)
                journal.log(event)
                recorder?.observe(event, at: at)
                tap.observe(screen.name, event, at)
                if case .command(.quit, _) = event { positions?.quitWasAsked() }
            }, reportLoss: { [screenLogger] count in screenLogger.warning("events: \(count) events were not written") })
            let audio: AudioDevice
            if let device = screen.audioDevice, audioChoice != .null {
                var configuration = plan.audio
                configuration.device = device
                // `--audio auto` still means null on the fast clock or without a sound card; a PCM
                // given with `--audio alsa:PCM` is the main screen's, not this one's.
                audio = backends.audio(AudioRequest(choice: audioChoice == .auto ? .auto : .alsa(device), configuration: configuration,
                                                    virtualClock: clock is VirtualClock), screenLogger)
            } else {
                audio = backends.audio(AudioRequest(choice: .null, configuration: plan.audio, virtualClock: clock is VirtualClock), screenLogger)
            }
            // The same rules as the main screen's player: one assembly makes both.
            let assembly = PlayerAssembly(plan: plan, backends: backends, clock: clock)
            var settings = assembly.settings(plan.settings(for: screen, overrides: overrides), for: playing, audio: audio, waitsForContent: false, logger: screenLogger)
            settings.resumeAt = positions?.resumePoint(for: items)
            let opener = assembly.opener(settings, for: playing, warn: { [screenLogger] in screenLogger.warning("\($0)") })
            // Each screen its own labels and status card, drawn from its own player's events.
            let extras = PlayerAssembly.Extras(display: backends.osd(plan.osd, screenLogger))
            let player = assembly.player(items: items, settings: settings, opener: opener, screen: playing, audio: audio, extras: extras,
                                         clock: clock, stampedEvents: { [delivery] in delivery.post($0, at: $1.seconds) })
            if let drawing = player.osdDrawing { screenLogger.info("osd: \(drawing)") }
            folder.player = player
            running.append(Running(name: screen.name, player: player, delivery: delivery, positions: positions,
                                   rotatesInHardware: playing.display?.rotatesInHardware == true))
        }
        self.running = running
        self.overrides = overrides
        self.logger = logger
        for screen in plan.otherPlayingScreens { playlists[screen.name] = screen.playlist }
    }

    /// Hands every screen's events to `observe` too (with the screen's name), on each screen's
    /// delivery thread; before `start`.
    package func tap(_ observe: @escaping @Sendable (String, PlayerEvent, Double) -> Void) {
        tapped.set(observe)
    }

    /// `run.jsonl` and `right` give `run.jsonl.right`.
    package static func eventsPath(_ path: String, screen: String) -> String {
        "\(path).\(screen)"
    }

    package func start() {
        for screen in running {
            screen.player.start()
            screen.positions?.start(status: { [player = screen.player] in player.status() })
        }
    }

    /// SIGINT or SIGTERM: every screen stops.
    package func quit(from source: CommandSource) {
        running.forEach { $0.player.send(.quit, from: source) }
    }

    /// After the main screen's player ended: with `--exit-when-idle`, each other screen plays its
    /// playlist out; otherwise (a quit) they stop now. Bounded as the main one's wait is.
    package func finish(waitingForIdle: Bool, grace: Double, eventsGrace: Double) {
        if !waitingForIdle { quit(from: .signal(name: "quit")) }
        for screen in running where !screen.player.waitUntilFinished(graceAfterShutDown: grace) {
            Console.shared.log("warning: screen \(screen.name): the player did not stop within \(grace) s of the quit; exiting anyway")
        }
        running.forEach { $0.delivery.finish(waitingAtMost: eventsGrace) }
        // After each screen's last events: its status has folded them all.
        running.forEach { screen in screen.positions?.finish(with: screen.player.status()) }
    }

    /// A reloaded config's playlists: each screen whose playlist changed gets the new one as its
    /// queue, handed over as the main screen's is (at the end of the item on screen, or at once
    /// with `--reload immediate`); a screen whose playlist is the same plays on untouched.
    package func replaceQueues(from plan: PlaybackPlan, immediately: Bool) {
        for screen in running {
            guard let configured = plan.screens.first(where: { $0.name == screen.name }), let playlist = configured.playlist else { continue }
            let changed = lock.withLock {
                defer { playlists[screen.name] = playlist }
                return playlists[screen.name] != playlist
            }
            guard changed else { continue }
            let items = PlaybackPlan.queueItems(playlist)
            var settings = plan.settings(for: configured, overrides: overrides)
            PlayerAssembly.drawUnturned(&settings, rotatesInHardware: screen.rotatesInHardware)
            logger.info("screen \(screen.name): reload: \(items.count) item\(items.count == 1 ? "" : "s")\(immediately ? "" : " from the end of the item on screen")")
            screen.player.replaceQueue(QueueReplacement(items: items, settings: settings, immediately: immediately))
        }
    }

    /// Each screen's name and player: whose pictures `mqtt.screenshots` publishes.
    package var players: [(name: String, player: QueuePlayer)] {
        running.map { ($0.name, $0.player) }
    }

    /// What each screen plays now, for `status`'s `screens`.
    package func playing(_ name: String) -> StatusDocument.Screen.Playing? {
        guard let screen = running.first(where: { $0.name == name }) else { return nil }
        return StatusDocument.Screen.Playing(screen.player.status().playback)
    }
}

/// The player whose status a screen's events fold into, set once it is made.
private final class StatusFolder: @unchecked Sendable {
    package weak var player: QueuePlayer?
}

/// An observer of every screen's events, set after the players are made.
private final class EventTap: @unchecked Sendable {
    private let lock = NSLock()
    private var observer: (@Sendable (String, PlayerEvent, Double) -> Void)?

    func set(_ observer: @escaping @Sendable (String, PlayerEvent, Double) -> Void) {
        lock.withLock { self.observer = observer }
    }

    func observe(_ screen: String, _ event: PlayerEvent, _ at: Double) {
        lock.withLock { observer }?(screen, event, at)
    }
}
