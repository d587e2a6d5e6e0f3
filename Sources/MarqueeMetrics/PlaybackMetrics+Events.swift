import MarqueeCore

extension PlaybackMetrics {
    /// Counts one event, on the event delivery thread, in the order the player posted them.
    /// `seconds`: the event's time since the player started, as the events log has it.
    /// `screen`: the player's screen by name (nil: the main one).
    public func observe(_ event: PlayerEvent, at seconds: Double, screen: String? = nil) {
        guard let series = screens[screen ?? mainScreen] else { return }
        switch event {
        case .frame(_, _, _, let dropped, _):
            if dropped {
                series.framesDropped.increment()
                return
            }
            series.framesPresented.increment()
            // A frame event follows its flip: the lateness recorded by then is taken now, so the
            // ring stays nearly empty however rarely anyone scrapes.
            series.takeLateness()
            if folded.withLock({ folded in defer { folded.sawFirstFrame = true }; return !folded.sawFirstFrame }) {
                firstFrameLatency.set(to: secondsSinceLaunch())
            }
        case .itemStarted:
            series.itemsStarted.increment()
            // A stall that an item change ended: the new item is not stalled.
            series.endStall(at: seconds)
        case .itemEnded(_, _, let reason, _):
            series.itemsEnded[reason]?.increment()
        case .error:
            series.errors.increment()
        case .playbackStalled:
            series.stalls.increment()
            series.stalledAt.withLock { $0 = $0 ?? seconds }
        case .loadStateChanged(.playthroughOK):
            series.endStall(at: seconds)
        case .downloadProgress(_, _, _, .cached):
            downloadsCached.increment()
        case .downloadProgress(_, _, _, .failed):
            downloadsFailed.increment()
        default:
            break
        }
    }
}
