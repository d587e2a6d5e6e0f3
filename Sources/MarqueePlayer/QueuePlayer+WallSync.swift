import MarqueeCore

/// Frame-locked playback (`settings.wallSync`): the timeline is laid on the wall clock, never
/// moved to suit a late frame, a stall or the sound. The player joins the wall at start and
/// whenever it has fallen off it (a stall, a stop, a clock step, a new playlist), seeking with
/// pre-roll so the first frame it shows is the one the wall says; between joins the frame
/// scheduler holds or drops single frames against the wall, and the sound is resampled onto it.
extension QueuePlayer {
    /// Why the player joined the wall, as the `wallSyncJoined` event says.
    enum WallJoinReason: String {
        case start, late, stalled, resumed, clockChanged, reload, audio, failed
    }

    var isWallSynced: Bool { settings.wallSync != nil }

    /// How late a frame may be before the player stops dropping toward it and joins again: more
    /// than the scheduler can catch up by dropping (8 frames in a row), less than a viewer takes
    /// for a freeze.
    static let wallRejoinLateness = MediaTime(1, per: 2)

    /// Starts the item the wall says is on screen a pre-roll from now, at the frame it says, with
    /// its timeline where the wall puts it. A join soon after the last one means the pre-roll was
    /// too short for this machine and this media: it doubles.
    func joinWall(_ reason: WallJoinReason) {
        wall.pendingJoin = nil
        guard let sync = settings.wallSync, !items.isEmpty else { return }
        guard sync.plan.lengths.count == items.count else {
            // A queue changed without a plan for it (never from a config: those bring their own).
            emit(.error(message: "sync: the playlist has \(items.count) items and the wall's plan \(sync.plan.lengths.count); not joined"))
            return
        }
        let now = clock.now()
        let preroll = wall.prerollForJoin(reason, at: now)
        let join = sync.join(atClockTime: now + preroll)
        let index = join.position.index
        let entry = ItemPipeline.Entry(time: (items[index].start ?? .zero) + join.position.itemTime, toleranceBefore: .zero)
        completeSeekInFlight(false)
        steps.cancelAll()
        presentation.forgetPause()
        // Whatever sound was scheduled belongs to the old place: it is dropped, and the new
        // place's sound starts with its first picture.
        audioRenderer?.discard(below: pipelineSerial + 1)
        audioRenderer?.setPaused(false)
        audioRenderer?.setRate(MediaTime(1, per: 1))
        wall.resetSoundPace()
        holdAudioForFirstPicture()
        if let pipeline = current?.pipeline, pipeline.index == index, pipeline.item == items[index] {
            // Within the item on screen: as a seek, no new itemStarted. The cursor is put on it too:
            // a reload's new cursor points nowhere, and the wall stopped at the item's end.
            _ = cursor.jump(to: pipeline.index)
            pipeline.cancel()
            upcoming?.cancel()
            upcoming = nil
            current?.rejoin(with: startPipeline(index, entry: entry))
        } else {
            if current != nil { emitAll(machine.handle(.itemAbandoned)) }
            _ = cursor.jump(to: index)
            becomeCurrent(index, entry: entry)
        }
        presentation.restartItem(startingAt: join.itemStartClockTime)
        presentation.scheduler.reset()
        wall.soundFollower.restart(at: now + preroll)
        emit(.wallSyncJoined(item: index, itemTime: join.position.itemTime, cycle: join.position.cycleNumber,
                             reason: reason.rawValue))
        if !machine.wantsToPlay { emitAll(machine.handle(.play)) }
    }

    /// The plan's length of item `index`, when locked to the wall.
    func wallSyncLength(of index: Int) -> MediaTime? {
        guard let plan = settings.wallSync?.plan, index < plan.lengths.count else { return nil }
        return plan.lengths[index]
    }

    /// What a command that would take the player off the wall says instead of acting; nil: allowed.
    func wallSyncRefusal(of action: ControlAction) -> String? {
        isWallSynced ? Self.wallSyncRefusal(of: action) : nil
    }

    /// The reason `action` is refused while locked to the wall; nil: allowed.
    static func wallSyncRefusal(of action: ControlAction) -> String? {
        let refused: Bool
        switch action {
        case .command(let command):
            switch command {
            case .next, .previous, .skipForward, .skipBackward, .stepForward, .stepBackward, .cycleRepeatMode,
                 .pauseAfterCurrentItem:
                refused = true
            default:
                refused = false
            }
        case .playItem, .skip, .step, .setRepeat, .setActionAtItemEnd, .setRate, .seek:
            refused = true
        default:
            refused = false
        }
        guard refused else { return nil }
        return "\(action.name): not available while playback is locked to the wall clock (sync); the wall decides what plays"
    }

    /// The sound follows the wall: resampled within ±0.5 % until what the device plays is what is
    /// due, or joined again when it is too far off for that.
    func followWallWithSound(in pipeline: ItemPipeline) {
        guard settings.followsAudioClock, let renderer = audioRenderer, renderer.plays(serial: pipeline.serial),
              let playing = renderer.playingPosition(), playing.serial == pipeline.serial, playing.itemFrame >= 0 else { return }
        let heard = MediaTime(playing.itemFrame, per: Int64(renderer.output.format.sampleRate))
        let now = clock.now()
        let error = presentation.error(heard: heard, at: now)
        switch wall.soundFollower.decide(error: error, now: now) {
        case .rate(let pace):
            guard pace != wall.soundPace else { return }
            wall.soundPace = pace
            renderer.setRate(pace)
        case .rejoin:
            emit(.error(message: "sync: the sound is \(Int((error.seconds * 1000).rounded())) ms off the wall clock; joining again"))
            joinWall(.audio)
        }
    }

    /// A frame this late (not a still, whose one frame is shown late by design when joined) means
    /// the player fell off the wall: a stall, a stopped process, a clock stepped forward.
    func isOffTheWall(due: MediaTime) -> Bool {
        guard isWallSynced, current?.asset?.isStillImage != true else { return false }
        return clock.now() - due > Self.wallRejoinLateness
    }
}
