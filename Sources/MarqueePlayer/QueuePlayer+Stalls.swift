import Foundation
import MarqueeCore

/// A source slower than real time (bad Wi-Fi, a throttled uplink, a server that pauses) is waited
/// out, as AVPlayer does with `automaticallyWaitsToMinimizeStalling`: the picture and the sound
/// hold, the state goes to `interrupted` with `playbackStalled`, and playback resumes once the
/// item is likely to keep up, the timeline following the frame it resumes on. Presenting each
/// frame as it trickled in instead played the item in slow motion, ever further behind its
/// timeline (22.9 s behind at 50 KB/s for 2 Mbit/s media), and never said so.
extension QueuePlayer {
    /// Waits, holding what is on screen, until `pipeline` is likely to keep up (StallRecovery).
    /// Commands are applied meanwhile, on the held picture. True when it is likely to keep up;
    /// false on a quit, a wall rejoin, or when a command replaced the pipeline.
    func waitOutStall(of pipeline: ItemPipeline) -> Bool {
        emitAll(machine.handle(.bufferEmpty))
        audioRenderer?.setPaused(true)
        defer {
            // A pause asked for meanwhile keeps the device paused; so does a player still waiting for
            // its first picture (the hold releases it).
            if machine.wantsToPlay && !presentation.isPaused { audioRenderer?.setPaused(false) }
            // The "Buffering" label goes with the stall: the next picture is drawn without it.
            if osdState.stallSeconds != nil {
                osdState.stallSeconds = nil
                osdState.needsRedraw = true
            }
        }
        let began = Self.realTime()
        var recovery = StallRecovery(since: began)
        var lastProgress = (buffered: pipeline.readAheadStatus.buffered, full: pipeline.isBufferFull)
        var withoutProgress = 0.0
        while current?.isPlaying(pipeline) == true && !shouldStop {
            let status = pipeline.readAheadStatus
            let full = pipeline.isBufferFull
            if recovery.canResume(decodedAhead: full, finished: pipeline.hasFinished, status: status, now: Self.realTime()) {
                emitAll(machine.handle(.bufferLikelyToKeepUp))
                return true
            }
            if (status.buffered, full) != lastProgress {
                lastProgress = (status.buffered, full)
                withoutProgress = 0
            }
            // A source that gives nothing at all for this long (past any network timeout, so a
            // local read stuck in the kernel) is a frozen player: the watchdog may restart it.
            // A slow one that keeps giving is waited for as long as it takes.
            if withoutProgress < Self.frozenStallLimit { heartbeat() }
            showStallOnOSD(waited: Self.realTime() - began)
            if hasPendingWork {
                // Commands act on the held picture and the stall goes on: ending the wait for them
                // would show, or drop as late, the frames that trickled in meanwhile. A seek, a move
                // or a stop replaces the item (the loop ends); the wall's own rejoin is its caller's.
                if wall.pendingJoin != nil { return false }
                applyPendingCommands()
            }
            Thread.sleep(forTimeInterval: Self.stallPollInterval)
            withoutProgress += Self.stallPollInterval
        }
        return false
    }

    /// Past `osd.stallAfter`, the labels come up over the held picture saying how long the stall
    /// has lasted, redrawn each second (no frame is waiting to be delayed by it).
    private func showStallOnOSD(waited: MediaTime) {
        guard let osd, waited >= osd.settings.stallAfter else { return }
        let seconds = Int(waited.seconds)
        if seconds != osdState.stallSeconds {
            osdState.stallSeconds = seconds
            osd.trigger(at: realClock.now(), volume: false)
            osdState.needsRedraw = true
        }
        refreshOSDWhileIdle()
    }

    /// How often a stall looks at the buffers again: a resume comes within this of being possible.
    static let stallPollInterval = 0.02

    /// Real time for StallRecovery, whatever the playback clock: a stall is the source's, and it
    /// lasts in real time even on the virtual clock.
    private static func realTime() -> MediaTime {
        MediaTime(ContinuousClock.now - stallEpoch)
    }

    private static let stallEpoch = ContinuousClock.now

    // MARK: Opening the next remote item

    /// Item time of the current item at which the next item, remote, is opened: `readAhead` before
    /// the current one ends, time enough to fill its buffer. Opened at once it would hold a
    /// connection for the whole item and fail a whole loop when its server comes up meanwhile.
    /// Nil opens it now: a local item, or a current item of unknown length.
    func deferredOpeningTime(of index: Int) -> MediaTime? {
        guard Self.isRemote(items[index].source), let timing = current?.timing else { return nil }
        guard let length = timing.length ?? current?.asset?.duration.map({ $0 - timing.start }) else { return nil }
        let opensAt = length - MediaTime(settings.readAhead)
        guard opensAt > (current?.position.map { $0 - timing.start } ?? .zero) else { return nil }
        return opensAt
    }

    /// Opens the next item once the current one has reached its deferred opening time.
    func openDeferredUpcomingIfDue() {
        guard let deferred = current?.nextOpensAt, current != nil else { return }
        guard clock.now() >= presentation.due(deferred.itemTime) else { return }
        current?.nextOpensAt = nil
        prepareUpcoming(deferring: false)
    }

    static func isRemote(_ url: String) -> Bool {
        guard let scheme = URLScheme.of(url) else { return false }
        return scheme != "file"
    }
}
