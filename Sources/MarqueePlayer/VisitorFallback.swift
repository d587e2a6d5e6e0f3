import MarqueeCore

/// What a visitor's keys changed that the stop rule (config `input.stopTimeout`) puts back: a
/// sign a passer-by stopped, paused, muted, or left in another repeat or scaling mode plays on as
/// configured once the timeout has passed since the last such change. Commands from anyone
/// deliberate (the control socket, MQTT, a signal, code) take the player over: nothing of theirs
/// is ever undone, and what the keys had changed is theirs from then on.
struct VisitorFallback: Equatable {
    /// What the keys can leave behind, as it was before and after one command.
    struct Lasting: Equatable {
        enum Transport: Int, Comparable {
            case playing, paused, stopped
            static func < (lhs: Transport, rhs: Transport) -> Bool { lhs.rawValue < rhs.rawValue }
        }

        var transport: Transport
        var muted: Bool
        var repeatMode: RepeatMode
        /// The scaling a command chose over the items' own; nil: the items' own.
        var userScaling: ScalingMode?
    }

    /// When everything below is put back, on the player's real clock; nil: nothing to put back.
    private(set) var due: MediaTime?
    /// Keys stopped or paused a sign that was playing (or paused a stopped one further): play.
    private(set) var resumesPlayback = false
    /// The values the keys changed away from, to restore; nil: unchanged.
    private(set) var muted: Bool?
    private(set) var repeatMode: RepeatMode?
    private(set) var userScaling: ScalingMode??

    var isEmpty: Bool { !resumesPlayback && muted == nil && repeatMode == nil && userScaling == nil }

    func isDue(at now: MediaTime) -> Bool { due.map { now >= $0 } ?? false }

    /// After a command was applied. A key arms the deadline afresh for each new change it makes
    /// (another key that changes nothing new leaves it be, so pressing on never makes a change
    /// last for good); a key that puts something back drops it from the list. Anyone else cancels
    /// everything. Without a timeout nothing is armed.
    mutating func follow(_ before: Lasting, _ after: Lasting, byKey: Bool, now: MediaTime, timeout: MediaTime?) {
        guard byKey else {
            self = VisitorFallback()
            return
        }
        guard let timeout, timeout > .zero else { return }
        var changedAnew = false
        if after.transport == .playing {
            resumesPlayback = false
        } else if after.transport > before.transport {
            changedAnew = changedAnew || !resumesPlayback
            resumesPlayback = true
        }
        Self.track(&muted, before.muted, after.muted, changedAnew: &changedAnew)
        Self.track(&repeatMode, before.repeatMode, after.repeatMode, changedAnew: &changedAnew)
        Self.track(&userScaling, before.userScaling, after.userScaling, changedAnew: &changedAnew)
        if isEmpty {
            due = nil
        } else if changedAnew || due == nil {
            due = now + timeout
        }
    }

    /// A new playlist brings its own repeat mode: the visitor's is gone with the old one.
    mutating func forgetRepeatMode() {
        repeatMode = nil
        if isEmpty { due = nil }
    }

    /// Hands the list over to be put back, leaving nothing armed.
    mutating func take() -> VisitorFallback {
        defer { self = VisitorFallback() }
        return self
    }

    /// The first value a key changed away from, kept until put back (by the fallback or a key).
    private static func track<Value: Equatable>(_ saved: inout Value?, _ before: Value, _ after: Value, changedAnew: inout Bool) {
        if let original = saved {
            if original == after { saved = nil }
        } else if before != after {
            saved = before
            changedAnew = true
        }
    }
}
