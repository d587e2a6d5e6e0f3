/// The sync policy: given the clock, when a frame is due and when the one after it is due, decide
/// to present it, drop it, or wait. Late frames are dropped by this decision, never by accident.
public struct FrameScheduler: Sendable, Equatable {
    public enum Decision: Equatable, Sendable {
        /// Sleep until this clock time, then present.
        case wait(until: MediaTime)
        case present
        /// Its successor is already due: skip this one.
        case drop
    }

    /// A frame this close to its due time is presented now rather than after a needless sleep.
    public var earlyTolerance: MediaTime
    /// Never drop more than this many frames in a row, so a slow machine still shows motion.
    public var maximumConsecutiveDrops: Int
    private var consecutiveDrops = 0

    public init(earlyTolerance: MediaTime = MediaTime(1, per: 1000), maximumConsecutiveDrops: Int = 8) {
        self.earlyTolerance = earlyTolerance
        self.maximumConsecutiveDrops = maximumConsecutiveDrops
    }

    /// - Parameters:
    ///   - due: when this frame should appear, on the clock.
    ///   - nextDue: when the following frame should appear, if known.
    ///   - now: the clock's time.
    public mutating func decide(due: MediaTime, nextDue: MediaTime?, now: MediaTime) -> Decision {
        if now + earlyTolerance < due { return .wait(until: due) }
        if let nextDue, now >= nextDue, consecutiveDrops < maximumConsecutiveDrops {
            consecutiveDrops += 1
            return .drop
        }
        consecutiveDrops = 0
        return .present
    }

    /// After a seek or an item change the first frame must be shown, whatever the clock says.
    public mutating func reset() {
        consecutiveDrops = 0
    }
}
