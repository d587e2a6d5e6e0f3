import MarqueeCore

extension QueuePlayer {
    /// Longest uninterrupted sleep: a command (pause, next) waits at most this long to be applied
    /// while a long frame such as a still image is on screen.
    static let commandLatency = MediaTime(20, per: 1000)
    /// The same on the virtual clock (`--clock fast`), where no one waits in real time between its
    /// steps (a command lands at whatever virtual time the loop has reached when it arrives): a still
    /// held for an hour is crossed in 60 steps, not 180,000 (a week of stills took minutes of CPU in
    /// 20 ms steps). Fading labels, a deferred open and a timetable's change still get their own steps.
    static let virtualStride = MediaTime(seconds: 60)

    func run() {
        defer {
            // A quit stops the sound where it is. Without this, the renderer, finding the cut
            // item's queue closed, went on to the next item's sound decoded ahead for the
            // hand-over, and wrote it before the pipelines' cancels reached it.
            if shouldStop { audioRenderer?.discard(below: .max) }
            current?.pipeline.cancel()
            upcoming?.cancel()
            releaseAudioHold()
            // Whatever audio is scheduled and complete is written before the run ends; after a
            // quit, only for as long as the process may take to exit.
            audioRenderer?.finish(waitingAtMost: shouldStop ? Self.audioFinishAfterQuit : nil)
        }
        presentation.start(at: clock.now())
        holdAudioForFirstPicture()
        emitAll(machine.handle(.play))
        if isWallSynced, !items.isEmpty {
            joinWall(.start)
        } else if let resume = settings.resumeAt, fits(resume) {
            enter(resume)
        } else if let first = cursor.start() {
            becomeCurrent(first)
        } else {
            ranOutOfItems = true
            emitAll(machine.handle(.queueExhausted))
            showEmptyQueueCard()
            // A timetable with nothing on now has something later, content may be on its way: wait.
            guard timetable.schedule != nil || settings.waitsForContent else { return }
        }
        while !shouldStop {
            heartbeat()
            applyPendingCommands()
            resumeAfterStopTimeoutIfDue()
            if let reason = wall.pendingJoin { joinWall(reason) }
            if isIdleAndDone { break }
            guard let pipeline = current?.pipeline, machine.wantsToPlay || steps.pausesOnNextFrame else {
                waitForCommand()
                continue
            }
            guard let output = nextOutput(of: pipeline) else {
                // Cancelled under us by a command; the loop picks up whatever replaced it.
                continue
            }
            handle(output, from: pipeline)
        }
        // Quitting ends the item on screen as userExited, then the state is stopped.
        if shouldStop { emitAll(machine.handle(.stop)) }
    }

    /// The pipeline's next output. Waiting longer than `stallThreshold` while playing a started
    /// item means its source ran dry (a stalled server): the stall is waited out until the item is
    /// likely to keep up (`waitOutStall`).
    private func nextOutput(of pipeline: ItemPipeline) -> ItemPipeline.Output? {
        guard pipeline.hasAnswered else { return awaitOpening(pipeline) }
        switch pipeline.next(waitingAtMost: Self.stallThreshold) {
        case .element(let output):
            return output
        case .closed:
            return nil
        case .timedOut:
            // A started item whose source ran dry is waited out until it is likely to keep up; the
            // frame it resumes on is shown at once and the timeline follows it.
            if current?.awaitsFirstFrame != true && machine.itemStatus == .readyToPlay && machine.wantsToPlay {
                // Locked to the wall, a stall is not waited out: the wall has moved on meanwhile.
                if isWallSynced {
                    emitAll(machine.handle(.bufferEmpty))
                    joinWall(.stalled)
                    return nil
                }
                guard waitOutStall(of: pipeline) else { return nil }
                if pipeline.upcomingFrameTime() != nil { steps.showsNextFrameNow = true }
                guard case .element(let output) = pipeline.next(waitingAtMost: 0) else { return nil }
                return output
            }
            // An item not on screen yet (its first frame is late): the item before it stays up.
            // Waiting in slices keeps the heartbeat going through an ordinary wait, but not forever.
            var stalled = QueuePlayer.stallThreshold
            var result = pipeline.next(waitingAtMost: Self.heartbeatInterval)
            while case .timedOut = result {
                // A quit does not wait for a decoder stuck in a read.
                if shouldStop { return nil }
                stalled += Self.heartbeatInterval
                if stalled < Self.frozenStallLimit { heartbeat() }
                result = pipeline.next(waitingAtMost: Self.heartbeatInterval)
            }
            guard case .element(let output) = result else { return nil }
            return output
        }
    }

    /// How long a due frame may keep the present thread waiting before it counts as a stall.
    static let stallThreshold = 0.5

    /// Repeat off ran out (the cursor has no item; a stop keeps its item) and the caller asked to exit then.
    /// Nothing plays because the queue is empty and content is expected.
    var isWaitingForContent: Bool {
        current == nil && items.isEmpty && (settings.waitsForContent || timetable.schedule != nil)
    }

    /// The card an empty queue shows: why, and what comes next.
    func showEmptyQueueCard() {
        let footnote = contentNote ?? (timetable.schedule == nil ? "The playlist is empty" : nothingScheduledNote)
        showStatusCard(headline: "Nothing to play", footnote: footnote)
    }

    private var isIdleAndDone: Bool {
        settings.exitWhenIdle && current == nil && cursor.current == nil && !isWaitingForContent
    }

    private func handle(_ output: ItemPipeline.Output, from pipeline: ItemPipeline) {
        switch output {
        case .ready(let asset, let timing):
            current?.asset = asset
            current?.timing = timing
            // Its decode thread converts the pictures it has queued from now on, the first ones included.
            keepPictureConversion(for: pictureLayout(of: asset, in: pipeline), in: pipeline)
            presentation.scheduler.reset()
            publishDetails()
            // A seek reopens the item it is already in: nothing new to announce, only what follows
            // to prepare again.
            if pipeline.entry != nil && current?.isJoinedMidway != true {
                prepareUpcoming()
                return
            }
            failures.itemPlayed(pipeline.index)
            announcement.ready = .itemReady(duration: timing.length ?? asset.duration,
                                            naturalWidth: asset.naturalSize?.width,
                                            naturalHeight: asset.naturalSize?.height)
            if asset.mediaTypes.contains(.video) {
                current?.preparesNextAtFirstFrame = true
            } else {
                releaseAudioHold()
                prepareUpcoming()
                if awaitStartWithoutPictures(pipeline) { announceStart() }
            }
        case .frame(let picture, let pts, let itemTime):
            presentWhenDue(picture, pts: pts, itemTime: itemTime, from: pipeline)
            // Opening the next item competes for the CPU: not before this item's first frame is
            // up (measured on one slow core: its second frame was dropped otherwise).
            if current?.preparesNextAtFirstFrame == true {
                current?.preparesNextAtFirstFrame = false
                prepareUpcoming()
            }
        case .ended(let length):
            guard playOut(pipeline, length: length) else { return }
            releaseAudioHold()
            // An item that never appeared (no frame presented) still pairs its end with a start.
            announceStart()
            // Locked to the wall, an item lasts what the plan says (the same resolved timing).
            presentation.timeline.advance(pastItemOfLength: wallSyncLength(of: pipeline.index) ?? length)
            let action = cursor.advanceAtEnd()
            // Finished, not cancelled: the audio thread may still be writing its last audio.
            dropCurrentItem(cancelling: false)
            if action == .idle {
                emitAll(machine.handle(.itemFinished))
            } else {
                // It ends when the next item's first frame replaces it.
                announcement.previousEnded = true
            }
            follow(action)
        case .failed(let error):
            releaseAudioHold()
            // The item on screen keeps its time; then the failure is the current item's.
            if announcement.previousEnded { _ = sleepUntil(presentation.itemStart) }
            announcement.ready = nil
            announceOpening()
            emitAll(machine.handle(.itemFailed(error)))
            let everyItemFailed = failures.itemFailed(pipeline.index, reason: error.description, itemCount: items.count)
            // Locked to the wall, the item after a failed one keeps its slot.
            if let length = wallSyncLength(of: pipeline.index) { presentation.timeline.advance(pastItemOfLength: length) }
            let action = cursor.advanceAtEnd()
            // Repeat off that has run out has nothing to retry; everything else waits first.
            if everyItemFailed && action != .idle { backOffAfterEveryItemFailed() }
            follow(action)
        }
    }

    /// Presents a frame at its due time on the clock, or drops it when its successor is already
    /// due. A frame that must wait is drawn first, so that only the flip is left for its due time.
    /// Commands that arrive while waiting are applied; if they replace the item, the frame is
    /// discarded.
    private func presentWhenDue(_ picture: VideoPicture, pts: MediaTime, itemTime: MediaTime, from pipeline: ItemPipeline) {
        var isDrawn = false
        /// The timeline starts over when this frame is on screen: the item's first frame was late (the
        /// timeline started over at its draw), or it is the first picture the screen shows.
        var followsTheFlip = false
        while current?.isPlaying(pipeline) == true && !shouldStop && wall.pendingJoin == nil {
            if !machine.wantsToPlay && !steps.pausesOnNextFrame {
                waitForCommand()
                applyPendingCommands()
                continue
            }
            if steps.showsNextFrameNow {
                steps.showsNextFrameNow = false
                presentation.restart(at: clock.now(), showing: itemTime)
                if presentation.isPaused { presentation.pause(at: clock.now()) }
                presentation.scheduler.reset()
            } else if current?.awaitsFirstFrame == true && isWallSynced {
                // The wall decides when the first frame shows: it is drawn now and waits for its
                // slot; the sound starts when it is shown. Nothing moves the timeline.
                current?.awaitsFirstFrame = false
                draw(picture)
                isDrawn = true
            } else if current?.awaitsFirstFrame == true {
                // An item's first frame shows at its slot or, if opening and drawing it took longer,
                // now, and the timeline follows it: a late start must not be made up by dropping
                // frames. Its draw counts: the first one sets up a scaler and can take several
                // slots (85 ms for a 30 fps clip under TCG, and the two frames after it were
                // dropped when it did not count). Late by less than a frame it is simply shown, and
                // the timeline keeps its beat: shifting it by every millisecond of jitter at a
                // hand-over would add up over loops.
                current?.awaitsFirstFrame = false
                // The screen's first flip sets its mode (a modeset commit, legacy SetCrtc): 62 ms
                // measured under TCG on bochs-drm, two 30 fps slots, where later flips take 1-3 ms.
                // Nothing was on screen before it, so no beat is kept by not following it.
                followsTheFlip = onScreen.shownAt == nil
                draw(picture)
                isDrawn = true
                if isAudioHeldForFirstPicture { startSound(with: pipeline) }
                let now = clock.now()
                let late = now - presentation.due(itemTime)
                let successorDue = pipeline.upcomingFrameTime().map { presentation.due($0) }
                if late > .zero, successorDue.map({ now >= $0 }) ?? true {
                    presentation.delayItem(by: late)
                    followsTheFlip = true
                }
            }
            followAudioClock(in: pipeline)
            if current?.isPlaying(pipeline) != true { return }
            let due = presentation.due(itemTime)
            if isOffTheWall(due: due) {
                joinWall(.late)
                return
            }
            let nextDue = pipeline.upcomingFrameTime().map { presentation.due($0) }
            switch presentation.scheduler.decide(due: due, nextDue: nextDue, now: clock.now(), sourceIsDry: pipeline.isDry) {
            case .wait(let deadline):
                // The labels redrawn on a still screen took the back buffer this frame was drawn in.
                if isDrawn && onScreen.backBufferReplaced { isDrawn = false }
                if !isDrawn {
                    draw(picture)
                    isDrawn = true
                    // Drawing took time: decide again.
                    continue
                }
                if !sleepUntil(deadline) { applyPendingCommands() }
            case .present:
                if !isDrawn || onScreen.backBufferReplaced { draw(picture) }
                show()
                // Shown within the scheduler's early tolerance counts as on time.
                presentLateness.record(nanoseconds: max(.zero, clock.now() - due).ticks(timescale: 1_000_000_000))
                // A late first frame's timeline started over when it was drawn; a flip that waits
                // for the vblank (legacy KMS) puts it on screen later still, and the next frame,
                // due a slot after the draw, would be dropped for it (seen under TCG: 40 ms). The
                // timeline follows the flip instead, as it does the screen's first flip. An item on
                // time after another keeps its beat, and so does one with sound: its sound is laid
                // out from the draw, and moving the pictures by the flip put them a frame or more
                // behind it (the guest's A/V sync test, twice).
                // (Whether the item has sound, not whether its pipeline has a queue for it: with any
                // audio output, the null one included, every pipeline has, and the rule never applied.)
                if followsTheFlip && current?.asset?.mediaTypes.contains(.audio) != true { presentation.restart(at: clock.now(), showing: itemTime) }
                releaseAudioHold()
                // What this picture brings (the item's start) happened when it went up.
                emitting(at: onScreen.shownAt) { announceStart() }
                trace(pts: pts, itemTime: itemTime, dropped: false)
                current?.track(pts: pts)
                if (machine.loadState == .playable || (isWallSynced && machine.loadState == .stalled)) && pipeline.isBufferFull {
                    emitAll(machine.handle(.bufferLikelyToKeepUp))
                }
                openDeferredUpcomingIfDue()
                if pipeline.entry != nil, let position = current?.position {
                    // The seek's reply finds all of the item's details, this frame included.
                    publishDetails()
                    finishSeek(at: position)
                    // A step back by several frames began its next seek: that one's first frame
                    // pauses (its own steps.pausesOnNextFrame), not this one.
                    guard current?.isPlaying(pipeline) == true else { return }
                } else {
                    statusStore.publish(framePTS: current?.framePTS, drawnRect: onScreen.drawnRect)
                }
                // A step by several frames shows each in turn and pauses on the last.
                if steps.frameShown() == .pause { apply(.pause) }
                return
            case .drop:
                trace(pts: pts, itemTime: itemTime, dropped: true)
                return
            case .stall where isWallSynced:
                emitAll(machine.handle(.bufferEmpty))
                joinWall(.stalled)
                return
            case .stall:
                // Late, with nothing after it: not shown late, but once the item can keep up.
                if waitOutStall(of: pipeline) { steps.showsNextFrameNow = true } else { applyPendingCommands() }
            }
        }
    }

    /// At start no sound reaches the device until the first picture is on screen, so the sound
    /// does not run ahead of it by the time the first frame takes to open and draw (63 ms
    /// measured under TCG: the first flash came that much after its beep). Items without video,
    /// failures, a stop and the end of the run release it too.
    func holdAudioForFirstPicture() {
        guard let audioRenderer else { return }
        audioRenderer.holdStart()
        isAudioHeldForFirstPicture = true
    }

    /// The first picture is drawn: the sound starts, and once the device is heard playing it the
    /// schedule is set by what it plays, so the picture goes up with its sound instead of the
    /// device's start-up time ahead of it (23–36 ms measured under TCG without this). The sound
    /// starts with `soundLeadIn` of silence: the device's start-up, and the time until its
    /// position is first known, pass in it, and the picture is due when the first frame sounds.
    /// Without it the device had played 15–18 ms of the item by the time its position was known
    /// in the guest, so the first picture went up that late against its sound and every later one
    /// on time.
    private func startSound(with pipeline: ItemPipeline) {
        guard settings.followsAudioClock, let renderer = audioRenderer, pipeline.audio != nil,
              renderer.plays(serial: pipeline.serial) else { return releaseAudioHold() }
        let rate = Int64(renderer.output.format.sampleRate)
        releaseAudioHold(leadIn: Self.soundLeadIn.ticks(timescale: rate, rounding: .toNearestOrAwayFromZero))
        let deadline = clock.now() + Self.soundStartLimit
        while clock.now() < deadline && !hasPendingWork {
            if let playing = renderer.playingPosition(), playing.serial == pipeline.serial {
                // Negative while the lead-in sounds: the first picture is due when it ends.
                let heard = MediaTime(playing.itemFrame, per: rate)
                presentation.anchor(heard: heard, at: clock.now())
                return
            }
            clock.sleep(until: clock.now() + MediaTime(1, per: 1000))
        }
    }

    /// How long the first picture waits for the device to start playing; a device that takes
    /// longer (or is missing) is followed once it plays.
    static let soundStartLimit = MediaTime(1, per: 2)

    /// Longer than a device takes to start (23–36 ms measured under TCG), short enough not to be
    /// seen as a late start.
    static let soundLeadIn = MediaTime(1, per: 10)

    func releaseAudioHold(leadIn: Int64 = 0) {
        guard isAudioHeldForFirstPicture else { return }
        isAudioHeldForFirstPicture = false
        audioRenderer?.releaseStart(leadIn: leadIn)
    }

    /// Audio is the master clock: when the device is playing this item's audio, the schedule's
    /// origin moves so that what is heard now is what is due now. Only video moves.
    func followAudioClock(in pipeline: ItemPipeline) {
        if isWallSynced { return followWallWithSound(in: pipeline) }
        guard settings.followsAudioClock, let renderer = audioRenderer, renderer.plays(serial: pipeline.serial),
              let playing = renderer.playingPosition(), playing.serial == pipeline.serial, playing.itemFrame >= 0 else { return }
        let heard = MediaTime(playing.itemFrame, per: Int64(renderer.output.format.sampleRate))
        presentation.follow(heard: heard, at: clock.now())
    }

    /// Sleeps in short slices so commands stay responsive; false when woken by one.
    func sleepUntil(_ deadline: MediaTime) -> Bool {
        while clock.now() < deadline {
            heartbeat()
            if hasPendingWork { return false }
            openDeferredUpcomingIfDue()
            // A still held on screen: the labels come, fade and go on it.
            let labelsMove = refreshOSDWhileIdle() != nil
            var until = min(deadline, clock.now() + (realClock is VirtualClock && !labelsMove ? Self.virtualStride : Self.commandLatency))
            if let change = scheduleChangeOnVirtualClock, change > clock.now() { until = min(until, change) }
            if let opens = current?.nextOpensAt.map({ presentation.due($0.itemTime) }), opens > clock.now() { until = min(until, opens) }
            clock.sleep(until: until)
        }
        return true
    }

    /// Draws into the back buffer; `show` flips to it. A picture the decode thread converted ahead
    /// for this placement is only handed over: the present thread converts nothing then.
    private func draw(_ picture: VideoPicture) {
        guard let asset = current?.asset, let pipeline = current?.pipeline else { return }
        let layout = pictureLayout(of: asset, in: pipeline)
        guard let placement = layout.placement(for: picture) else { return }
        if let refusal = delivery.negotiate(picture.format, outputTakes: video.pictureFormats) {
            emit(.error(message: "video output: \(refusal)"))
        }
        onScreen.drew(picture, at: placement)
        // The labels go to the overlay plane first: staging waits for the last flip (of the plane's two
        // buffers, the one written was on screen until that flip completed).
        let onPlane = stageOSD()
        // Screens mirroring this one draw the same decoded picture, placed for their own mode.
        announceToMirrors(picture)
        do {
            if try prepareConvertedAhead(picture, placement: placement, blendingOSD: !onPlane) {
                delivery.shownConvertedAhead()
            } else {
                try video.prepare { buffer in
                    try picture.draw(into: buffer, placement: placement, background: settings.background)
                    if !onPlane { blendOSD(into: buffer) }
                }
                delivery.convertedOnPresent()
            }
        } catch {
            emit(.error(message: "video output: \(error)"))
        }
        keepPictureConversion(for: layout, in: pipeline)
    }

    private func pictureLayout(of asset: Asset, in pipeline: ItemPipeline) -> PictureLayout {
        PictureLayout(asset: asset, screenSize: video.screenSize, displayRotation: settings.displayRotation,
                      scalingMode: scalingMode(for: pipeline.item))
    }

    /// Hands the output the buffer the decode thread converted `picture` into for `placement`;
    /// false when there is none (the caller draws it).
    private func prepareConvertedAhead(_ picture: VideoPicture, placement: VideoPlacement, blendingOSD: Bool) throws -> Bool {
        guard let staged = picture as? StagedPicture, let pooled = video as? PooledVideoOutput,
              let lease = staged.take(for: placement) else { return false }
        return try pooled.prepare(lease: lease, then: blendingOSD ? { [self] buffer in blendOSD(into: buffer) } : nil)
    }

    /// Points the item's decode thread at the output's buffers and the item's layout, anew when
    /// either changed (a scaling mode, a screen made again after an unplug); pictures already
    /// converted for the old ones are drawn again by the present thread.
    func keepPictureConversion(for layout: PictureLayout, in pipeline: ItemPipeline) {
        guard let pooled = video as? PooledVideoOutput else { return }
        let pool = pooled.pictureBuffers
        let existing = pipeline.pictureConversion
        if existing?.pool === pool && existing?.layout == layout && existing?.background == settings.background { return }
        guard let pool else { return pipeline.convertPictures(with: nil) }
        pool.whenGivenBack { [weak pipeline] in pipeline?.nudgeConversion() }
        pipeline.convertPictures(with: PictureConversion(pool: pool, layout: layout, background: settings.background))
    }

    private func show() {
        noteShown()
        do {
            try video.showPrepared()
        } catch {
            emit(.error(message: "video output: \(error)"))
        }
        // When it went on screen by the wall, for traces laid side by side across devices.
        onScreen.flipped(at: realClock.now(), wall: isWallSynced ? Double(WallClockTime.realtimeNanoseconds()) / 1e9 : nil)
        announceSizeChange()
    }

    /// A picture of another size than the item's last one is on screen (a stream that changed its
    /// resolution midway): `naturalSizeAvailable` again, as AVPlayerItem's presentationSize changes.
    private func announceSizeChange() {
        guard let shown = onScreen.lastDrawn, let pipeline = current?.pipeline, let size = shown.placement.sourceSize, let asset = current?.asset else { return }
        defer { onScreen.pictureSize = (pipeline.serial, size) }
        // The item's first picture: itemReady announced the asset's size.
        let before = onScreen.pictureSize?.serial == pipeline.serial ? onScreen.pictureSize?.size : asset.codedSize
        guard let before, before != size else { return }
        let natural = ScalingGeometry(sourceSize: size, sampleAspectRatio: asset.sampleAspectRatio, sourceRotation: asset.rotation,
                                      screenSize: size).naturalSize
        emit(.naturalSizeAvailable(width: natural.width, height: natural.height), at: onScreen.shownAt)
    }

    private func trace(pts: MediaTime, itemTime: MediaTime, dropped: Bool) {
        guard let pipeline = current?.pipeline else { return }
        emit(.frame(item: pipeline.index, pts: pts, time: presentation.timeline.timelineTime(ofItemTime: itemTime), dropped: dropped,
                    wall: dropped ? nil : onScreen.shownAtWall), at: dropped ? nil : onScreen.shownAt)
    }

    /// What the cursor decided at the end of an item (played or failed).
    private func follow(_ action: ItemEndAction) {
        switch action {
        case .play(let index):
            becomeCurrent(index)
        case .pause(let index):
            becomeCurrent(index)
            steps.pausesOnNextFrame = true
        case .idle:
            dropCurrentItem(cancelling: false)
            upcoming?.cancel()
            upcoming = nil
            ranOutOfItems = true
            emitAll(machine.handle(.queueExhausted))
            // The timetable has nothing on: the card says so rather than a frozen last frame.
            if (timetable.schedule != nil || settings.waitsForContent) && items.isEmpty { showEmptyQueueCard() }
        }
    }

    /// Makes item `index` current, taking the pipeline prepared ahead when it is that item.
    func becomeCurrent(_ index: Int, entry: ItemPipeline.Entry? = nil) {
        ranOutOfItems = false
        adoptPendingSettings()
        dropCurrentItem(cancelling: true)
        if let entry {
            // A join enters the item mid-way: never the one prepared from its start.
            upcoming?.cancel()
            upcoming = nil
            current = CurrentItem(pipeline: startPipeline(index, entry: entry), joinedMidway: true)
        } else if let prepared = upcoming, prepared.index == index, !prepared.isSourceStale {
            current = CurrentItem(pipeline: prepared)
            upcoming = nil
        } else {
            upcoming?.cancel()
            upcoming = nil
            current = CurrentItem(pipeline: startPipeline(index))
        }
        // The state machine hears of it when the item before it has ended (HandOverAnnouncement).
        announcement.opened = .itemOpened(index: index, url: items[index].url, title: items[index].title, id: items[index].id)
        announcement.ready = nil
    }

    /// The item's life is over: a seek still in flight lands nowhere (false), and whatever the item
    /// knew goes with it. `cancelling` stops its pipeline; an item that finished is not cancelled,
    /// since the audio thread may still be writing its last sound.
    func dropCurrentItem(cancelling: Bool) {
        guard var item = current else { return }
        current = nil
        if cancelling { item.pipeline.cancel() }
        if let seek = item.takeSeek() {
            steps.cancelBackSteps()
            seek.completion(false)
        }
    }

    /// Opens and decodes the item that will follow the current one, so its first frame is ready
    /// at the hand-over. The cursor is a value: asking a copy does not move the real one.
    /// A remote item is opened only `readAhead` before it is due (`deferredOpeningTime`).
    func prepareUpcoming(deferring: Bool = true) {
        var lookahead = cursor
        let index: Int
        switch lookahead.advanceAtEnd() {
        case .play(let next), .pause(let next): index = next
        case .idle:
            current?.nextOpensAt = nil
            return
        }
        if upcoming?.index == index { return }
        upcoming?.cancel()
        upcoming = nil
        if deferring, let opensAt = deferredOpeningTime(of: index) {
            current?.nextOpensAt = (index, opensAt)
            return
        }
        current?.nextOpensAt = nil
        upcoming = startPipeline(index)
    }

    /// Opens item `index` on its decode thread and gives its audio its turn on the audio thread,
    /// after everything scheduled before it.
    func startPipeline(_ index: Int, entry: ItemPipeline.Entry? = nil) -> ItemPipeline {
        pipelineSerial += 1
        let pipeline = ItemPipeline(index: index, serial: pipelineSerial, item: items[index], opener: opener(forItem: index), entry: entry,
                                    audioFormat: audioRenderer?.output.format)
        if let renderer = audioRenderer, let audio = pipeline.audio {
            renderer.schedule(AudioSegment(itemIndex: index, serial: pipelineSerial, audio: audio))
        }
        pipeline.start()
        return pipeline
    }

    /// Every item failed in a row: wait, doubling each round, then try again from where we are.
    private func backOffAfterEveryItemFailed() {
        let delay = failures.nextRoundDelay(first: settings.retryDelay, maximum: settings.maximumRetryDelay)
        emit(.error(message: "every item failed; retrying in \(TimeLabel.position(delay))"))
        // The card says so without the round's delay: the same card is not painted again each round.
        showStatusCard(headline: "Nothing can be played", footnote: "Every item failed; trying again until one plays")
        // Real time, whatever the playback clock: on a virtual clock (--clock fast) the wait would
        // be instant and a dead playlist would spin, writing error lines as fast as it can.
        let resume = clock.now() + delay
        let realResume = ContinuousClock.now + .nanoseconds(delay.ticks(timescale: 1_000_000_000))
        while !waitInRealTime(until: realResume) {
            applyPendingCommands()
            if shouldStop { return }
        }
        // A virtual clock moves on by the wait; a real one is there already.
        clock.sleep(until: resume)
        if isWallSynced {
            wall.pendingJoin = .failed
        } else {
            presentation.restart(at: clock.now())
        }
    }
}
