import MarqueeCore

extension QueuePlayer {
    func applyPendingCommands() {
        applyDueScheduleChanges()
        let requests = takePendingRequests()
        // A command acts on the item the state machine holds: the one coming on screen, once the
        // item that played to its end is over.
        if !requests.isEmpty { announceOpening() }
        for request in requests {
            switch request {
            case .control(let action, let source):
                emit(.command(action, source: source))
                if let refusal = wallSyncRefusal(of: action) {
                    emit(.error(message: refusal))
                    continue
                }
                let before = lastingState
                apply(action, from: source)
                followStopRule(after: action, from: source, before: before)
                showOSD(after: action)
            case .seek(let seek):
                if let source = seek.source { emit(.command(.seek(to: seek.time), source: source)) }
                if let refusal = wallSyncRefusal(of: .seek(to: seek.time)) {
                    emit(.error(message: refusal))
                    seek.completion(false)
                    continue
                }
                cancelStopTimeout(unlessFrom: seek.source)
                begin(seek)
                showOSD(after: .seek(to: seek.time))
            case .numericEntry(let digits): applyNumericEntry(digits)
            case .replace(let replacement):
                // What a visitor changed is put back all the same (a new playlist is nobody
                // taking the sign over), but the new playlist brings its own repeat mode.
                visitorFallback.forgetRepeatMode()
                let wasWaiting = isWaitingForContent
                replaceQueueNow(replacement)
                if let timetable = replacement.timetable { adopt(timetable) }
                // Content that was waited for plays as soon as it comes: where the last run left
                // it, when this is that run's playlist.
                if wasWaiting && current == nil && !items.isEmpty {
                    if let point = replacement.resumeAt, fits(point) {
                        emitAll(machine.handle(.play))
                        presentation.restart(at: clock.now())
                        enter(point)
                    } else {
                        resume()
                    }
                }
            case .append(let added):
                replaceQueueNow(QueueReplacement(items: items + added, settings: settings))
            case .screenshot(let completion): completion(takeScreenshot())
            case .scheduleAgenda(let agenda, let schedule):
                if timetable.schedule === schedule { adopt(agenda) }
            case .wallClockChanged:
                requestScheduleAgenda()
                // Locked to the wall, a stepped clock means another place on it.
                if isWallSynced && current != nil && machine.wantsToPlay { wall.pendingJoin = .clockChanged }
            case .contentNote(let note):
                contentNote = note
                if isWaitingForContent { showEmptyQueueCard() }
            }
        }
        if !requests.isEmpty { publishDetails() }
    }

    /// Runs on the present thread, between frames.
    func apply(_ command: Command) {
        switch command {
        case .play:
            resume()
        case .pause:
            guard machine.wantsToPlay else { return }
            presentation.pause(at: clock.now())
            audioRenderer?.setPaused(true)
            emitAll(machine.handle(.pause))
        case .togglePlayPause:
            apply(machine.wantsToPlay ? .pause : .play)
        case .stop:
            stop()
        case .next:
            move(to: cursor.next())
        case .previous:
            move(to: cursor.previous())
        case .cycleRepeatMode:
            setRepeatMode(cursor.repeatMode.cycled)
        case .cycleScalingMode:
            let mode = scalingMode(for: current?.item).cycled
            userScaling = mode
            emitAll(machine.handle(.scalingModeSet(mode)))
        case .pauseAfterCurrentItem:
            cursor.pauseAfterCurrentItem.toggle()
        case .skipForward, .skipBackward:
            skip(by: command == .skipForward ? Command.skipInterval : -Command.skipInterval)
        case .stepForward:
            stepForward()
        case .stepBackward:
            stepBackward()
        case .volumeUp, .volumeDown, .toggleMute:
            changeVolume { $0.apply(command) }
        case .displayOff:
            setDisplayPower(on: false)
        case .displayOn:
            setDisplayPower(on: true)
        case .toggleDisplay:
            setDisplayPower(on: !displayIsOn)
        case .digit0, .digit1, .digit2, .digit3, .digit4, .digit5, .digit6, .digit7, .digit8, .digit9, .playEnteredItem:
            // Numeric entry arrives with the input backend.
            break
        }
    }

    func apply(_ action: ControlAction, from source: CommandSource) {
        switch action {
        case .command(let command): apply(command)
        case .playItem(let index): playItem(at: index)
        case .skip(let interval): skip(by: interval)
        case .step(let count) where count > 0:
            stepForward(by: count)
        case .step(let count) where count < 0:
            steps.stepBack(by: -count)
            stepBackward()
        case .step:
            break
        case .setRepeat(let mode):
            guard mode != cursor.repeatMode else { return }
            setRepeatMode(mode)
        case .setScaling(let mode):
            userScaling = mode
            emitAll(machine.handle(.scalingModeSet(mode)))
        case .setVolume(let level):
            changeVolume { $0.set(level) }
        case .setMuted(let muted):
            changeVolume { $0.set(muted: muted) }
        case .setActionAtItemEnd(let action):
            cursor.actionAtItemEnd = action
        case .setRate(let rate):
            setRate(rate)
        case .seek(let time):
            begin(SeekRequest(time: time, toleranceBefore: .zero, toleranceAfter: .zero, source: nil, completion: { _ in }))
        case .quit: shutDown()
        case .reload:
            if let reloadHandler {
                reloadHandler(source)
            } else {
                emit(.error(message: "reload: nothing to reload (not playing from a config file)"))
            }
        }
    }

    private func setRepeatMode(_ mode: RepeatMode) {
        cursor.setRepeatMode(mode)
        emitAll(machine.handle(.repeatModeSet(cursor.repeatMode)))
        // What follows the current item may have changed.
        upcoming?.cancel()
        upcoming = nil
        if current != nil { prepareUpcoming() }
    }

    /// Applies a change to the volume; says so when it changed anything.
    private func changeVolume(_ change: (inout VolumeControl) -> Bool) {
        guard change(&volume) else { return }
        audioRenderer?.setGain(volume.gain)
        emit(.volumeChanged(volume: volume.volume, muted: volume.isMuted))
    }

    /// Numeric entry ("KP3 KPENTER" asks for index 2): the item starts now, as with next; a number
    /// past the end changes nothing but says so once.
    private func playItem(at index: Int) {
        guard let target = cursor.jump(to: index) else {
            emit(.error(message: "no item \(index + 1) to play: the playlist has \(items.count) item\(items.count == 1 ? "" : "s")"))
            return
        }
        move(to: target)
    }

    /// Play after a pause resumes where it was; after a stop it starts the cursor's item afresh.
    func resume() {
        // Locked to the wall, playing again means joining it where it is now.
        if isWallSynced && !items.isEmpty && (current == nil || presentation.isPaused) {
            emitAll(machine.handle(.play))
            wall.pendingJoin = .resumed
            return
        }
        if current == nil {
            guard let index = cursor.current ?? cursor.start() else { return }
            emitAll(machine.handle(.play))
            presentation.restart(at: clock.now())
            becomeCurrent(index)
            return
        }
        presentation.resume(at: clock.now())
        audioRenderer?.setPaused(false)
        emitAll(machine.handle(.play))
    }

    private func stop() {
        // It was armed for the item now stopped: the next play must not pause after its item.
        cursor.pauseAfterCurrentItem = false
        dropCurrentItem(cancelling: true)
        upcoming?.cancel()
        upcoming = nil
        presentation.forgetPause()
        // Stopped is not paused: the next play starts afresh and its sound must flow.
        releaseAudioHold()
        audioRenderer?.setPaused(false)
        // The picture goes first: the events say what is on screen, and after them it is gone.
        do {
            try video.present { buffer in buffer.fill(PixelRect(size: buffer.size), with: settings.background) }
        } catch {
            emit(.error(message: "video output: \(error)"))
        }
        emitAll(machine.handle(.stop))
    }

    /// next/previous: the current item ends as userExited and `index` starts now.
    func move(to index: Int?) {
        emitAll(machine.handle(.itemAbandoned))
        guard let index else {
            dropCurrentItem(cancelling: true)
            upcoming?.cancel()
            upcoming = nil
            ranOutOfItems = true
            emitAll(machine.handle(.queueExhausted))
            return
        }
        presentation.restart(at: clock.now())
        if presentation.isPaused {
            // A skip while paused shows the new item's first frame and stays paused there.
            presentation.pause(at: clock.now())
            steps.pausesOnNextFrame = true
        }
        // Ending the item ends the seek in flight in it (false).
        becomeCurrent(index)
    }
}
