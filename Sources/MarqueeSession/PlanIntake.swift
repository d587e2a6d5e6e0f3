import Dispatch
import Foundation
import Logging
import MarqueeControl
import MarqueeConfig
import MarqueeCore
import MarqueePlayer

/// Where a new plan came from: the config file (changed on disk, SIGHUP or the `reload`
/// command), the server (`source:`), a control client's `load` (replacing or appending), or the
/// first plan of a run whose content comes later.
package enum PlanSource: Sendable, Equatable, CustomStringConvertible {
    case file(path: String, asked: String)
    case server(String)
    case load(String, ControlLoad.Mode)
    case start

    package var description: String {
        switch self {
        case .file(let path, let asked): "\(path) (\(asked))"
        case .server(let name): "\(name) (server)"
        case .load(let name, let mode): "\(name) (load, \(mode.rawValue))"
        case .start: "the first plan"
        }
    }
}

/// The one road every new plan takes to the player, on one serial queue (never the present
/// thread): a plan read from the file (its change, SIGHUP, `reload`), fetched from the server,
/// loaded over the control socket or MQTT (`load`, replace or append), or the first one of a run
/// whose media come over HTTP. Each goes through the same steps, in order:
/// check (the file is read with the same loader and diagnostics as `marquee check`; the others
/// were checked where they came in), overrides (the command line's), the restart-only filter
/// (what needs the devices opened again is named once and kept as it runs), the wall plan
/// (`sync:`), the cache (remote media downloaded and verified first) and the hand-over. An
/// invalid plan is logged line by line and the old one keeps playing. A debug line names the steps
/// each plan took: `plan: other.yaml (load, replace): check, overrides, restart-only, wall, cache, hand-over`.
package final class PlanIntake: @unchecked Sendable {
    /// The steps, in the order every plan takes them.
    package enum Step: String, Sendable, CaseIterable {
        case check, overrides, restartOnly = "restart-only", wall, cache, handOver = "hand-over"
    }

    /// The config file; nil when the playlist only comes from a server (`marquee play URL`) or
    /// from media arguments.
    private let path: String?
    private let overrides: PlanOverrides
    private let immediately: Bool
    /// What a reloaded timetable is read on: the session's wall clock.
    private let wallClock: @Sendable () -> Date
    private let logger: Logger
    private let queue = DispatchQueue(label: "marquee.plans")
    /// The plan playing (its restart-only parts as opened at start); touched on `queue` only.
    private var plan: PlaybackPlan
    /// Set by the session when it plays locked to the wall (`sync:`): a new playlist's wall plan
    /// is worked out here, off the present thread, before it goes to the player.
    /// The wall the player is locked to now: the `sync:` of the plan playing (a reload may move
    /// its epoch or take it away); nil when not locked. What `status` and `load` go by.
    package var lockedWall: SyncConfiguration? {
        lock.withLock { planner == nil ? nil : playingSync }
    }

    package var syncPlanner: WallSyncPlanner? {
        get { lock.withLock { planner } }
        set { lock.withLock { planner = newValue } }
    }
    private var planner: WallSyncPlanner?
    /// The `sync:` of the plan playing; under `lock`.
    private var playingSync: SyncConfiguration?
    private let lock = NSLock()
    private weak var player: QueuePlayer?
    /// The run's cache (its fleet's), used for every plan when there is one.
    private var stage: CachedPlanStage?
    /// A cache for a plan with remote media in a run that has none yet (opened at the first need).
    private var openStage: (@Sendable () -> CachedPlanStage?)?
    /// With a `source:`, a reload asks the server again instead of reading the file: the file is a
    /// bootstrap whose own settings need a restart anyway.
    private var fetchNow: (@Sendable () -> Void)?
    /// A reload is queued and has not started reading; under `lock`.
    private var isPending = false
    /// Hands a reloaded plan's playlists to the screens of `displays:` other than the main one.
    private var otherScreens: (@Sendable (PlaybackPlan, _ immediately: Bool) -> Void)?
    /// What the screen the player draws on makes of a plan's settings (a plane that turns the
    /// picture leaves it unturned): the same rule the player was made with.
    private let screenRule: @Sendable (inout PlayerSettings) -> Void

    package init(plan: PlaybackPlan, path: String?, overrides: PlanOverrides, immediately: Bool,
                 wallClock: @escaping @Sendable () -> Date, screenRule: @escaping @Sendable (inout PlayerSettings) -> Void = { _ in },
                 logger: Logger) {
        self.wallClock = wallClock
        self.screenRule = screenRule
        self.plan = plan
        playingSync = plan.sync
        self.path = path
        self.overrides = overrides
        self.immediately = immediately
        self.logger = logger
    }

    /// The other screens of `displays:`: a reloaded config's playlists go to them too.
    package func attachOtherScreens(_ replaceQueues: @escaping @Sendable (PlaybackPlan, _ immediately: Bool) -> Void) {
        lock.withLock { otherScreens = replaceQueues }
    }

    package func attach(_ player: QueuePlayer, stage: CachedPlanStage?, openStage: (@Sendable () -> CachedPlanStage?)?,
                        fetchNow: (@Sendable () -> Void)?) {
        lock.withLock {
            self.player = player
            self.stage = stage
            self.openStage = openStage
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
        guard let path, lock.withLock({ defer { isPending = true }; return !isPending }) else { return }
        let asked = switch source {
        case .file: "changed"
        case .signal(let name): name
        default: "reload from \(source)"
        }
        queue.async { [self] in reloadNow(path: path, asked: asked) }
    }

    private func reloadNow(path: String, asked: String) {
        lock.withLock { isPending = false }
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
        take(next, from: .file(path: path, asked: asked))
    }

    /// A config fetched from the server, checked already: played like a reloaded file, except
    /// that the device's own settings stay the bootstrap's. `accepted` runs once its media are in
    /// place and it goes to the player (the store keeps it then). Returns at once.
    /// `resume`: where the player enters it if it is the first it gets (the config kept from the
    /// last run, whose saved place it is).
    package func adopt(fetched next: PlaybackPlan, from name: String, accepted: @escaping @Sendable () -> Void, resume: ResumeLookup? = nil) {
        queue.async { [self] in take(next, from: .server(name), accepted: accepted, resume: resume) }
    }

    /// The first plan of a run whose content comes later (remote media, a fetched config): staged
    /// through the cache like any other, so the player gets it once its media are in place.
    package func start(with first: PlaybackPlan, resume: ResumeLookup? = nil) {
        queue.async { [self] in
            var trace: [Step] = []
            handOver(first, from: .start, resume: resume, trace: &trace)
        }
    }

    /// A control client's `load`, checked where it came in: through the same steps as a reloaded
    /// file, waiting only until its downloads (if any) have begun. The number of remote items to
    /// download first; nil when the wall plan refused it (the reason was logged and is returned).
    /// `handedOver` hears once when the player has it, or that a newer plan replaced it first.
    package func load(_ loaded: PlaybackPlan, named name: String, mode: ControlLoad.Mode,
                      handedOver: @escaping @Sendable (LoadHandOver) -> Void = { _ in }) -> Result<Int, LoadRejection> {
        queue.sync {
            take(loaded, from: .load(name, mode), accepted: { handedOver(.taken) }, superseded: { handedOver(.superseded) })
        }
    }

    /// The steps after the check, for every source. Returns how many remote items are downloaded
    /// before the hand-over, or why the plan was refused.
    @discardableResult
    private func take(_ fresh: PlaybackPlan, from source: PlanSource, accepted: (@Sendable () -> Void)? = nil,
                      superseded: (@Sendable () -> Void)? = nil, resume: ResumeLookup? = nil) -> Result<Int, LoadRejection> {
        var trace: [Step] = [.check]
        var next = fresh
        overrides.apply(to: &next)
        screenRule(&next.settings)
        trace.append(.overrides)
        if logger.logLevel <= .warning { next.warnings.forEach(Console.shared.log) }
        if case .server = source {
            // The device's settings are the bootstrap's, whatever a fetched config says.
            next.remote = plan.remote
            next.cache = plan.cache
        }
        let skipped = plan.restartOnlyChanges(comparedWith: next)
        if !skipped.isEmpty {
            switch source {
            case .file:
                logger.warning("reload: not applied until marquee restarts: \(skipped.joined(separator: ", "))")
            case .server, .load, .start:
                logger.debug("plan: the device's own config sets \(skipped.joined(separator: ", ")); \(source)'s are not used")
            }
        }
        // What is not applied stays as it is, so the next plan compares with what runs.
        next = next.keepingRestartOnly(from: plan)
        trace.append(.restartOnly)
        if let sync = next.sync {
            guard let planner = syncPlanner else {
                // The clock was chosen at start: a wall-clock lock needs a restart to begin.
                logger.warning("reload: not applied until marquee restarts: sync")
                next.sync = nil
                trace.append(.wall)
                return accept(next, from: source, accepted: accepted, superseded: superseded, resume: resume, trace: &trace)
            }
            switch planner.wallSync(for: next.items, sync: sync) {
            case .success(let wallSync):
                next.settings.wallSync = wallSync
                trace.append(.wall)
            case .failure(let problems):
                problems.forEach { logger.error("reload: \(source): \($0.line)") }
                logger.error("reload: \(source) rejected; the previous config keeps playing")
                return .failure(LoadRejection(summary: "\(source) rejected: \(problems.map(\.line).joined(separator: "; "))", diagnostics: []))
            }
        } else {
            trace.append(.wall)
        }
        return accept(next, from: source, accepted: accepted, superseded: superseded, resume: resume, trace: &trace)
    }

    private func accept(_ next: PlaybackPlan, from source: PlanSource, accepted: (@Sendable () -> Void)?,
                        superseded: (@Sendable () -> Void)?, resume: ResumeLookup?, trace: inout [Step]) -> Result<Int, LoadRejection> {
        // An append adds items; the settings and timetable playing stay, and so does the plan.
        if case .load(_, .append) = source {
            plan.items += next.items
        } else {
            plan = next
            lock.withLock { playingSync = next.sync }
        }
        // A config's other screens take their playlists from it; a client's load is the main screen's.
        switch source {
        case .file, .server:
            lock.withLock { otherScreens }?(next, immediately)
        case .load, .start:
            break
        }
        logger.debug("reload: \(source) is valid: \(next.items.count) items")
        return .success(handOver(next, from: source, accepted: accepted, superseded: superseded, resume: resume, trace: &trace))
    }

    /// To the player, through the cache when the plan has remote media to download first (the
    /// run's cache, or one opened now). The number of remote items it waits for.
    @discardableResult
    private func handOver(_ plan: PlaybackPlan, from source: PlanSource, accepted: (@Sendable () -> Void)? = nil,
                          superseded: (@Sendable () -> Void)? = nil, resume: ResumeLookup? = nil, trace: inout [Step]) -> Int {
        let (running, open) = lock.withLock { (self.stage, self.openStage) }
        let stage = running ?? (plan.cachedMedia.isEmpty ? nil : open?())
        let appending = if case .load(_, .append) = source { true } else { false }
        // A client's load is played at once, as it asked; a reload waits for the item's end unless --reload immediate.
        let replaceAtOnce = if case .load = source { true } else { immediately }
        let deliver: CachedPlanStage.Delivery = { [self] ready in
            let player = lock.withLock { self.player }
            if appending {
                player?.append(ready.items)
            } else {
                var replacement = ready.replacement(immediately: replaceAtOnce, wallClock: wallClock)
                // A client's load without a timetable of its own plays until the running one next changes.
                if case .load = source, ready.schedule == nil { replacement.timetable = nil }
                // Looked up as it goes to the player: the daypart on now, the queue as it plays.
                replacement.resumeAt = resume?(replacement.items, replacement.daypart)
                player?.replaceQueue(replacement)
            }
            accepted?()
        }
        if let stage {
            trace.append(.cache)
        }
        trace.append(.handOver)
        logger.debug("plan: \(source): \(trace.map(\.rawValue).joined(separator: ", "))")
        if let stage {
            stage.stage(plan, deliver: deliver, superseded: superseded)
            return plan.cachedMedia.count
        }
        deliver(plan)
        return 0
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
