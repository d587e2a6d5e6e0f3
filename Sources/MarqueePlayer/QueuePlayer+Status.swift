import MarqueeCore

extension QueuePlayer {
    /// The item's config cues, checked against the presented timeline: only the present thread's
    /// events (item starts, jumps, frames) move it, so other threads' events never touch it.
    func observeCues(_ event: PlayerEvent) {
        switch event {
        case .itemStarted(let index, _, _, _):
            let cues = index < items.count ? items[index].cues : []
            current?.cues = cues.isEmpty ? nil : BoundaryTimeObserver(times: cues, item: index)
        case .timeJumped, .frame:
            break
        default:
            return
        }
        guard var observer = current?.cues else { return }
        let crossed = observer.observe(event)
        current?.cues = observer
        for time in crossed { emit(.boundary(item: observer.item ?? 0, time: time)) }
    }

    /// Publishes what the status needs beyond the events, on the present thread: after each batch
    /// of commands, when an item is ready and when a seek lands. Per frame only the frame on screen
    /// is published (`statusStore.publish(framePTS:)`): in the QEMU guest, publishing all of this
    /// with every frame moved the first flash against its beep by 10-15 ms (TCG runs it slowly).
    func publishDetails() {
        let pipeline = current?.pipeline
        let asset = current?.asset
        statusStore.publish(source: pipeline)
        statusStore.publish { details in
            details.pauseAfterCurrentItem = cursor.pauseAfterCurrentItem
            details.displayIsOn = displayIsOn
            details.isScheduled = timetable.schedule != nil
            details.isWallSynced = isWallSynced
            details.daypart = daypartPlaying
            details.nextScheduleChange = timetable.nextChange?.start
            details.actionAtItemEnd = cursor.actionAtItemEnd
            details.itemStart = pipeline?.item.start
            details.itemEnd = pipeline?.item.end
            details.mediaDuration = asset?.duration
            details.isSeekable = asset.map { $0.isSeekable && !$0.isStillImage } ?? false
            details.isStillImage = asset?.isStillImage ?? false
            details.presentationRect = onScreen.drawnRect
            details.screenSize = video.screenSize
            details.framePTS = current?.framePTS
        }
    }

    /// What the screen shows now; a failing read-back is one error line, not a lost player.
    func takeScreenshot() -> Canvas? {
        do {
            return try video.screenshot()
        } catch {
            emit(.error(message: "screenshot: \(error)"))
            return nil
        }
    }
}
