import MarqueeCore

/// The stop rule (config `input.stopTimeout`): a visitor's keys must not leave the sign stopped,
/// paused, muted or in another repeat or scaling mode for good (`VisitorFallback` keeps the
/// list). Once the timeout has passed, each change is put back and logged as a command from
/// `stop timeout` (`command play from stop timeout`).
///
/// Runs on the present thread: the deadline is checked where the thread already waits for
/// commands while stopped or paused (`waitForCommand` wakes for it) and between frames while
/// playing, so no other thread and no real-time wait is involved.
extension QueuePlayer {
    /// What keys can change, now.
    var lastingState: VisitorFallback.Lasting {
        let transport: VisitorFallback.Lasting.Transport = current == nil ? .stopped : (machine.wantsToPlay ? .playing : .paused)
        return .init(transport: transport, muted: volume.isMuted, repeatMode: cursor.repeatMode, userScaling: userScaling)
    }

    /// After a command was applied: arm, keep or cancel the fallback.
    func followStopRule(after action: ControlAction, from source: CommandSource, before: VisitorFallback.Lasting) {
        visitorFallback.follow(before, lastingState, byKey: source.isKey, now: realClock.now(), timeout: settings.stopTimeout)
    }

    /// A request that is not a command (a seek) from anyone but a key cancels the fallback, as a
    /// command would.
    func cancelStopTimeout(unlessFrom source: CommandSource?) {
        if source?.isKey != true { visitorFallback = VisitorFallback() }
    }

    /// Whether something a key changed is due to be put back.
    var isStopTimeoutDue: Bool { visitorFallback.isDue(at: realClock.now()) }

    /// Puts back what keys changed once the deadline has passed, on the one command path's
    /// terms: each as a command with its own source.
    func resumeAfterStopTimeoutIfDue() {
        guard isStopTimeoutDue else { return }
        let fallback = visitorFallback.take()
        func putBack(_ action: ControlAction) {
            emit(.command(action, source: .stopTimeout))
            apply(action, from: .stopTimeout)
        }
        if let mode = fallback.repeatMode, mode != cursor.repeatMode { putBack(.setRepeat(mode)) }
        if let scaling = fallback.userScaling, scaling != userScaling {
            userScaling = scaling
            let mode = scalingMode(for: current?.item)
            emit(.command(.setScaling(mode), source: .stopTimeout))
            emitAll(machine.handle(.scalingModeSet(mode)))
        }
        if let muted = fallback.muted, muted != volume.isMuted { putBack(.setMuted(muted)) }
        if fallback.resumesPlayback, lastingState.transport != .playing { putBack(.command(.play)) }
        publishDetails()
    }
}
