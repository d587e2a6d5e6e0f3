import Dispatch
import Foundation
import Logging
import MarqueeCore
import MarqueePlayer

/// SIGHUP, or a change seen by the config's watch (ConfigWatcher): reads the config file again on
/// its own thread (never the present thread), checks it with the same loader and diagnostics as
/// `marquee check`, and hands a valid one to the player. An invalid one is logged line by line and
/// the old one keeps playing. Settings that need the devices opened again (display, sound card,
/// input) are named in one line and left as they are. A config fetched from a server
/// (`source:`) comes in through `adopt` the same way; its remote media go through the cache
/// (`CachedPlanStage`) before the player gets the plan.
package final class ConfigReloader: @unchecked Sendable {
    /// The config file; nil when the playlist only comes from a server (`marquee play URL`).
    private let path: String?
    private let overrides: PlanOverrides
    private let immediately: Bool
    /// What a reloaded timetable is read on: the session's wall clock.
    private let wallClock: @Sendable () -> Date
    private let logger: Logger
    private let queue = DispatchQueue(label: "marquee.reload")
    /// The plan playing (its restart-only parts as opened at start); touched on `queue` only.
    private var plan: PlaybackPlan
    /// Set by the session when it plays locked to the wall (`sync:`): a reloaded playlist's wall plan
    /// is worked out here, off the present thread, before it goes to the player.
    package var syncPlanner: WallSyncPlanner? {
        get { lock.withLock { planner } }
        set { lock.withLock { planner = newValue } }
    }
    private var planner: WallSyncPlanner?
    private let lock = NSLock()
    private weak var player: QueuePlayer?
    /// Downloads a plan's remote media before the player gets it; nil: no cache.
    private var stage: CachedPlanStage?
    /// With a `source:`, a reload asks the server again instead of reading the file: the file is a
    /// bootstrap whose own settings need a restart anyway.
    private var fetchNow: (@Sendable () -> Void)?
    /// A reload is queued and has not started reading; under `lock`.
    private var isPending = false

    package init(plan: PlaybackPlan, path: String?, overrides: PlanOverrides, immediately: Bool,
         wallClock: @escaping @Sendable () -> Date, logger: Logger) {
        self.wallClock = wallClock
        self.plan = plan
        self.path = path
        self.overrides = overrides
        self.immediately = immediately
        self.logger = logger
    }

    package func attach(_ player: QueuePlayer, stage: CachedPlanStage?, fetchNow: (@Sendable () -> Void)?) {
        lock.withLock {
            self.player = player
            self.stage = stage
            self.fetchNow = fetchNow
        }
    }

    /// Called on the present thread (the `reload` command); returns at once. Reloads asked for
    /// while one is waiting to start are one: it has not read the file yet, so it reads their
    /// change too (a file closed several times while written needs one read, after it settles).
    package func reload(from source: CommandSource) {
        if let fetchNow = lock.withLock({ fetchNow }) {
            fetchNow()
            return
        }
        guard path != nil, lock.withLock({ defer { isPending = true }; return !isPending }) else { return }
        queue.async { [self] in reloadNow() }
    }

    private func reloadNow() {
        lock.withLock { isPending = false }
        guard let path else { return }
        let next: PlaybackPlan
        do {
            next = try PlaybackPlan.fromConfig(path: path, settled: true)
        } catch let error as PlayError {
            // `FILE:LINE:COLUMN: error: message`, as `marquee check` prints them.
            error.lines.forEach(Console.shared.log)
            logger.error("reload: \(path) rejected (\(error.lines.count) error\(error.lines.count == 1 ? "" : "s")); the previous config keeps playing")
            return
        } catch {
            logger.error("reload: \(path): \(error); the previous config keeps playing")
            return
        }
        adoptNow(next, from: path, fetched: false)
    }

    /// A config fetched from the server, checked already: played like a reloaded file, except
    /// that the device's own settings stay the bootstrap's. `accepted` runs once its media are in
    /// place and it goes to the player (the store keeps it then). Returns at once.
    package func adopt(fetched next: PlaybackPlan, from name: String, accepted: @escaping @Sendable () -> Void) {
        queue.async { [self] in adoptNow(next, from: name, fetched: true, accepted: accepted) }
    }

    /// The first plan of a run whose content comes later (remote media, a fetched config): staged
    /// through the cache like any other, so the player gets it once its media are in place.
    package func start(with first: PlaybackPlan) {
        queue.async { [self] in handOver(first) }
    }

    private func adoptNow(_ fresh: PlaybackPlan, from name: String, fetched: Bool, accepted: (@Sendable () -> Void)? = nil) {
        var next = fresh
        overrides.apply(to: &next)
        if logger.logLevel <= .warning { next.warnings.forEach(Console.shared.log) }
        if fetched {
            // The device's settings are the bootstrap's, whatever a fetched config says.
            next.remote = plan.remote
            next.cache = plan.cache
        }
        let skipped = plan.restartOnlyChanges(comparedWith: next)
        if !skipped.isEmpty {
            if fetched {
                logger.debug("source: the device's own config sets \(skipped.joined(separator: ", ")); the fetched config's are not used")
            } else {
                logger.warning("reload: not applied until marquee restarts: \(skipped.joined(separator: ", "))")
            }
        }
        // What is not applied stays as it is, so the next reload compares with what runs.
        next = next.keepingRestartOnly(from: plan)
        if let sync = next.sync {
            guard let planner = syncPlanner else {
                // The clock was chosen at start: a wall-clock lock needs a restart to begin.
                logger.warning("reload: not applied until marquee restarts: sync")
                next.sync = nil
                plan = next
                logger.debug("reload: \(name) is valid: \(next.items.count) items")
                handOver(next, accepted: accepted)
                return
            }
            switch planner.wallSync(for: next.items, sync: sync) {
            case .success(let wallSync):
                next.settings.wallSync = wallSync
            case .failure(let problems):
                problems.forEach { logger.error("reload: \(name): \($0.line)") }
                logger.error("reload: \(name) rejected; the previous config keeps playing")
                return
            }
        }
        plan = next
        logger.debug("reload: \(name) is valid: \(next.items.count) items")
        handOver(next, accepted: accepted)
    }

    /// To the player, through the cache when the plan has remote media to download first.
    private func handOver(_ plan: PlaybackPlan, accepted: (@Sendable () -> Void)? = nil) {
        let stage = lock.withLock { self.stage }
        let deliver: CachedPlanStage.Delivery = { [self] ready in
            let player = lock.withLock { self.player }
            player?.replaceQueue(ready.replacement(immediately: immediately, wallClock: wallClock))
            accepted?()
        }
        if let stage { stage.stage(plan, deliver: deliver) } else { deliver(plan) }
    }
}

extension PlaybackPlan {
    /// The plan as a queue for the player: with a timetable, worked out here (off the present
    /// thread), the queue is what it plays now.
    package func replacement(immediately: Bool, wallClock: @escaping @Sendable () -> Date) -> QueueReplacement {
        let timetable = TimetableReplacement(schedule: schedule.map { PlaylistSchedule(playlists: $0, wallClock: wallClock) })
        var queue = (items: items, settings: settings)
        if let schedule = timetable.schedule, let now = timetable.agenda?.changes.first {
            queue = schedule.playlists.queue(for: now.state, base: settings)
        }
        return QueueReplacement(items: queue.items, settings: queue.settings, immediately: immediately, timetable: timetable)
    }
}
