import Dispatch
import Foundation
import Logging
import MarqueeCore
import MarqueePlayer

/// SIGHUP, or a change seen by the config's watch (ConfigWatcher): reads the config file again on its own thread (never the present thread), checks it
/// with the same loader and diagnostics as `marquee check`, and hands a valid one to the player.
/// An invalid one is logged line by line and the old one keeps playing. Settings that need the
/// devices opened again (display, sound card, input) are named in one line and left as they are.
final class ConfigReloader: @unchecked Sendable {
    private let path: String
    private let overrides: PlanOverrides
    private let immediately: Bool
    /// What a reloaded timetable is read on: the session's wall clock.
    private let wallClock: @Sendable () -> Date
    private let logger: Logger
    private let queue = DispatchQueue(label: "marquee.reload")
    /// The plan playing (its restart-only parts as opened at start); touched on `queue` only.
    private var plan: PlaybackPlan
    private let lock = NSLock()
    private weak var player: QueuePlayer?
    /// A reload is queued and has not started reading; under `lock`.
    private var isPending = false

    init(plan: PlaybackPlan, path: String, overrides: PlanOverrides, immediately: Bool,
         wallClock: @escaping @Sendable () -> Date, logger: Logger) {
        self.wallClock = wallClock
        self.plan = plan
        self.path = path
        self.overrides = overrides
        self.immediately = immediately
        self.logger = logger
    }

    func attach(_ player: QueuePlayer) {
        lock.withLock { self.player = player }
    }

    /// Called on the present thread (the `reload` command); returns at once. Reloads asked for
    /// while one is waiting to start are one: it has not read the file yet, so it reads their
    /// change too (a file closed several times while written needs one read, after it settles).
    func reload(from source: CommandSource) {
        guard lock.withLock({ defer { isPending = true }; return !isPending }) else { return }
        queue.async { [self] in reloadNow() }
    }

    private func reloadNow() {
        lock.withLock { isPending = false }
        var next: PlaybackPlan
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
        overrides.apply(to: &next)
        if logger.logLevel <= .warning { next.warnings.forEach(Console.shared.log) }
        let skipped = plan.restartOnlyChanges(comparedWith: next)
        if !skipped.isEmpty {
            logger.warning("reload: not applied until marquee restarts: \(skipped.joined(separator: ", "))")
        }
        // What is not applied stays as it is, so the next reload compares with what runs.
        next.output = plan.output
        next.connector = plan.connector
        next.mode = plan.mode
        next.modesetting = plan.modesetting
        next.cec = plan.cec
        next.logLevel = plan.logLevel
        next.control = plan.control
        next.input = plan.input
        next.settings.readAhead = plan.settings.readAhead
        let volume = next.audio.volume
        next.audio = plan.audio
        next.audio.volume = volume
        plan = next
        logger.debug("reload: \(path) is valid: \(next.items.count) items")
        // A timetable is worked out here, off the present thread: the queue is what it plays now.
        let timetable = TimetableReplacement(schedule: next.schedule.map { PlaylistSchedule(playlists: $0, wallClock: wallClock) })
        var queue = (items: next.items, settings: next.settings)
        if let schedule = timetable.schedule, let now = timetable.agenda?.changes.first {
            queue = schedule.playlists.queue(for: now.state, base: next.settings)
        }
        lock.withLock { player }?.replaceQueue(QueueReplacement(items: queue.items, settings: queue.settings,
                                                                immediately: immediately, timetable: timetable))
    }
}
