import MarqueeCore

/// The stop rule (config `input.stopTimeout`): a visitor's `stop` must not leave the screen blank
/// for good. A stop from a key that stopped playback arms a deadline on the player's clock; once
/// the player has stayed stopped until then, it plays again, logged as `command play from stop
/// timeout`. A stop from the control socket, a signal or code is deliberate and is never undone.
///
/// Runs on the present thread: the deadline is checked where the thread already waits for
/// commands while stopped (`waitForCommand` wakes for it), so no other thread and no real-time
/// wait is involved.
extension QueuePlayer {
    /// After a command was applied: arm, keep or cancel the deadline. `wasStopped` says whether
    /// nothing was playing (or opening) before the command.
    func followStopRule(after action: ControlAction, from source: CommandSource, wasStopped: Bool) {
        guard current == nil else {
            // Playing (or opening) again: there is no stop left to undo.
            stopResumeAt = nil
            return
        }
        if !source.isKey {
            // Someone deliberate (the control socket, a signal, a reload, code) has the player now.
            stopResumeAt = nil
        } else if action == .command(.stop) && !wasStopped, let timeout = settings.stopTimeout, timeout > .zero {
            stopResumeAt = realClock.now() + timeout
        }
        // Any other key (another stop, volume) leaves the deadline as it was: a visitor pressing
        // more keys must not make the stop last for good after all.
    }

    /// A request that is not a command (a seek, a new playlist) from anyone but a key cancels the
    /// deadline, as a command would.
    func cancelStopTimeout(unlessFrom source: CommandSource?) {
        if source?.isKey != true { stopResumeAt = nil }
    }

    /// Whether the stopped player is due to play again.
    var isStopTimeoutDue: Bool {
        guard let stopResumeAt else { return false }
        return realClock.now() >= stopResumeAt
    }

    /// Plays again once the deadline has passed, on the one command path's terms: logged as a
    /// `play` command with its own source.
    func resumeAfterStopTimeoutIfDue() {
        guard isStopTimeoutDue else { return }
        stopResumeAt = nil
        guard current == nil else { return }
        emit(.command(.command(.play), source: .stopTimeout))
        apply(.play)
        publishDetails()
    }
}
