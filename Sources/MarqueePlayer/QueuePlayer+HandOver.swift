import MarqueeCore

/// Item events come from the presented timeline: an item starts when its first frame is on screen
/// (without pictures, when its first sample is due) and ends when its time on screen is over. The
/// engine opens and decodes items ahead of that, so what it learns early waits here until then.
extension QueuePlayer {
    /// How long before an item's end the next item takes over the present thread, so that its
    /// first frame is drawn by the time it is due (a first draw sets up a scaler: 85 ms measured
    /// for a 30 fps clip under TCG). Commands until then act on the item on screen.
    static let handOverLead = MediaTime(1, per: 10)

    /// The item on screen that played to its end is over: its successor appeared or failed, or a
    /// command needs the state machine on the current item.
    func concludeEndedItem() {
        guard announcement.previousEnded else { return }
        announcement.previousEnded = false
        emitAll(machine.handle(.itemFinished))
        emitAll(announcement.settingsEvents)
        announcement.settingsEvents = []
    }

    /// Makes the current pipeline's item the state machine's current item, once the item before it
    /// has ended.
    func announceOpening() {
        concludeEndedItem()
        guard let opened = announcement.opened else { return }
        announcement.opened = nil
        emitAll(machine.handle(opened))
    }

    /// The current item appeared: `itemStarted` and its facts.
    func announceStart() {
        announceOpening()
        guard let ready = announcement.ready else { return }
        announcement.ready = nil
        emitAll(machine.handle(ready))
        // The mode it is drawn in, when its own differs from the one before it.
        announceScalingMode(of: current?.item)
    }

    /// Keeps an item whose pipeline has ended on screen (its last frame, a still, its last audio)
    /// until its time is up, less the hand-over lead when another item follows, applying commands
    /// to it meanwhile: `next` during a still leaves the still, `pauseAfterCurrentItem` pauses on
    /// the item after it. False when a command replaced the item or the player is stopping.
    func playOut(_ pipeline: ItemPipeline, length: MediaTime) -> Bool {
        while current?.isPlaying(pipeline) == true && !shouldStop && wall.pendingJoin == nil {
            if steps.showsNextFrameNow { return true }
            if !machine.wantsToPlay && !steps.pausesOnNextFrame {
                waitForCommand()
                applyPendingCommands()
                continue
            }
            followAudioClock(in: pipeline)
            var lookahead = cursor
            let lead = lookahead.advanceAtEnd() == .idle ? .zero : Self.handOverLead
            let deadline = presentation.due(length) - lead
            if clock.now() >= deadline { return true }
            // Short slices: an item without pictures keeps following the device's clock. On the
            // virtual clock with no device to follow, sleepUntil's own strides suffice.
            let slice = realClock is VirtualClock && !settings.followsAudioClock ? deadline : min(deadline, clock.now() + Self.handOverLead)
            if !sleepUntil(slice) { applyPendingCommands() }
        }
        return false
    }

    /// An item without pictures starts when its first sample is heard: with a device whose clock
    /// video follows, when the device reports playing it (a device starts some time after its first
    /// write); otherwise when it is due on the timeline, right after the item before it. Commands
    /// meanwhile act on the item on screen. False when a command replaced the item.
    func awaitStartWithoutPictures(_ pipeline: ItemPipeline) -> Bool {
        let followsDevice = settings.followsAudioClock && audioRenderer?.plays(serial: pipeline.serial) == true && pipeline.audio != nil
        while current?.isPlaying(pipeline) == true && !shouldStop && wall.pendingJoin == nil {
            if !machine.wantsToPlay {
                waitForCommand()
                applyPendingCommands()
                continue
            }
            let due = presentation.itemStart
            let deadline: MediaTime
            if followsDevice {
                if isHeard(pipeline) {
                    followAudioClock(in: pipeline)
                    return true
                }
                // A device that does not play (missing, failing) leaves the timeline to say.
                if clock.now() >= due + Self.soundStartLimit { return true }
                deadline = clock.now() + MediaTime(1, per: 1000)
            } else {
                if clock.now() >= due { return true }
                deadline = due
            }
            if !sleepUntil(deadline) { applyPendingCommands() }
        }
        return false
    }

    /// The device is playing this pipeline's sound: its first sample has been heard. (A device
    /// that has not started yet reports the first sample as the one it is at, so one more is needed.)
    private func isHeard(_ pipeline: ItemPipeline) -> Bool {
        guard let playing = audioRenderer?.playingPosition() else { return false }
        return playing.serial == pipeline.serial && playing.itemFrame > 0
    }
}
