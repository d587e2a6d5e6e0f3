import Foundation
import Logging
import MarqueeCore
import MarqueeFleet
import MarqueePlayer

/// The media cache a control client's `load` goes through, as a reloaded or fetched config does:
/// the run's own when its config has remote media, else one opened at the first load that needs
/// it (a run that started with local media only has none yet). Its remote items are downloaded
/// and verified (`sha256:`, `size:`) before the playlist goes to the player.
package final class LoadStaging: @unchecked Sendable {
    private let plan: PlaybackPlan
    private let post: @Sendable (PlayerEvent) -> Void
    private let logger: Logger
    private let backends: Backends
    private weak var player: QueuePlayer?
    private let lock = NSLock()
    /// The run's fleet, or the one opened for loads; under `lock`.
    private var fleet: FleetSetup?
    private var opened = false

    package init(plan: PlaybackPlan, fleet: FleetSetup?, player: QueuePlayer, backends: Backends, post: @escaping @Sendable (PlayerEvent) -> Void, logger: Logger) {
        self.plan = plan
        self.backends = backends
        self.fleet = fleet
        self.opened = fleet != nil
        self.player = player
        self.post = post
        self.logger = logger
    }

    /// The stage, opening the cache on first use; nil when it cannot be opened (the one error
    /// line said why: the remote items then stream).
    package func stage() -> CachedPlanStage? {
        lock.withLock {
            if !opened {
                opened = true
                fleet = FleetSetup.forLoads(plan: plan, backends: backends, post: post, logger: logger)
                if let stage = fleet?.stage {
                    let note: @Sendable (String?) -> Void = { [weak player] text in player?.setContentNote(text) }
                    stage.attach(note: note, playing: { [weak player] in player?.status().playback.itemURL })
                }
            }
            return fleet?.stage
        }
    }

    /// Stops the downloads of a cache opened here (the run's own is its fleet's to stop).
    package func stop(unless runsFleet: FleetSetup?) {
        let opened = lock.withLock { fleet }
        if let opened, opened !== runsFleet { opened.stop() }
    }
}
