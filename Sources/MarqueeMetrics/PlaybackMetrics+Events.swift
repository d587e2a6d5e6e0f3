import MarqueeCore

extension PlaybackMetrics {
    /// Counts one event, on the event delivery thread, in the order the player posted them.
    /// `seconds`: the event's time since the player started, as the events log has it.
    public func observe(_ event: PlayerEvent, at seconds: Double) {
        switch event {
        case .frame(_, _, _, let dropped, _):
            if dropped {
                framesDropped.increment()
                return
            }
            framesPresented.increment()
            // A frame event follows its flip: the lateness recorded by then is taken now, so the
            // ring stays nearly empty however rarely anyone scrapes.
            takeLateness()
            if folded.withLock({ folded in defer { folded.sawFirstFrame = true }; return !folded.sawFirstFrame }) {
                firstFrameLatency.set(to: secondsSinceLaunch())
            }
        case .itemStarted:
            itemsStarted.increment()
            // A stall that an item change ended: the new item is not stalled.
            endStall(at: seconds)
        case .itemEnded(_, _, let reason, _):
            itemsEnded[reason]?.increment()
        case .error:
            errors.increment()
        case .playbackStalled:
            stalls.increment()
            folded.withLock { $0.stalledAt = $0.stalledAt ?? seconds }
        case .loadStateChanged(.playthroughOK):
            endStall(at: seconds)
        case .downloadProgress(_, _, _, .cached):
            downloadsCached.increment()
        case .downloadProgress(_, _, _, .failed):
            downloadsFailed.increment()
        default:
            break
        }
    }

    private func endStall(at seconds: Double) {
        guard let since = folded.withLock({ folded in defer { folded.stalledAt = nil }; return folded.stalledAt }) else { return }
        stallSeconds.increment(by: max(0, seconds - since))
    }
}
