import MarqueeCore

extension QueuePlayer {
    /// Restarts the current item's pipeline at the target; its first frame completes the seek.
    func begin(_ seek: SeekRequest) {
        guard let pipeline = current?.pipeline, let asset = current?.asset, asset.isSeekable, !asset.isStillImage else {
            seek.completion(false)
            return
        }
        let from = current?.position ?? pipeline.item.start ?? .zero
        emitAll(machine.handle(.seekStarted(from: from, to: seek.time)))
        pipeline.cancel()
        // The audio thread takes items in the order they were scheduled: the item that follows
        // must be scheduled again after the replacement, or its audio would come first.
        upcoming?.cancel()
        upcoming = nil
        let reopened = startPipeline(pipeline.index, entry: ItemPipeline.Entry(time: seek.time, toleranceBefore: seek.toleranceBefore))
        // A newer seek supersedes the one in flight: it completes with false.
        if let superseded = current?.reopen(with: reopened, for: seek) {
            steps.cancelBackSteps()
            superseded.completion(false)
        }
        steps.showsNextFrameNow = true
        if !machine.wantsToPlay { steps.pausesOnNextFrame = true }
    }

    /// The seek's first frame is on screen.
    func finishSeek(at time: MediaTime) {
        guard let seek = current?.takeSeek() else { return }
        emitAll(machine.handle(.seekFinished(at: time)))
        seek.completion(true)
        // Several frames back: each step is a seek from the frame the last one landed on.
        if steps.takeBackStep() { stepBackward() }
    }

    func completeSeekInFlight(_ finished: Bool) {
        guard let seek = current?.takeSeek() else { return }
        // Another seek, a move or a stop: the rest of a step back by several frames is off.
        steps.cancelBackSteps()
        seek.completion(finished)
    }

    /// ±30 s, landing on the keyframe before the target as players do for relative seeks.
    /// Past the item's end it moves to the next item; before its start it restarts the item.
    func skip(by interval: MediaTime) {
        guard let pipeline = current?.pipeline, let here = current?.position else { return }
        let target = here + interval
        if let end = pipeline.item.end ?? current?.asset?.duration, interval > .zero, target >= end {
            apply(.next)
            return
        }
        begin(SeekRequest(time: max(target, pipeline.item.start ?? .zero), toleranceBefore: max(interval, -interval),
                          toleranceAfter: .zero, completion: { _ in }))
    }

    /// Pauses, then shows the next frame; with a count, each of the next `count` frames in turn
    /// (as fast as they decode), pausing on the last.
    func stepForward(by count: Int = 1) {
        if machine.wantsToPlay { apply(.pause) }
        steps.stepForward(by: count)
    }

    /// Pauses, then shows the frame before the one on screen: an exact seek to just before its
    /// pts lands on the frame on screen then, which is the previous one.
    func stepBackward() {
        if machine.wantsToPlay { apply(.pause) }
        guard let pts = current?.framePTS else { return }
        begin(SeekRequest(time: max(.zero, pts - Self.stepBackMargin), toleranceBefore: .zero, toleranceAfter: .zero,
                          completion: { _ in }))
    }

    /// Finer than any frame interval, coarser than any timestamp rounding.
    static let stepBackMargin = MediaTime(1, per: 1_000_000)
}
