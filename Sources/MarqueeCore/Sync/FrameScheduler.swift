/// The sync policy: given the clock, when a frame is due and when the one after it is due, decide
/// to present it, drop it, or wait. Late frames are dropped by this decision, never by accident.
public struct FrameScheduler: Sendable, Equatable {
    public enum Decision: Equatable, Sendable {
        /// Sleep until this clock time, then present.
        case wait(until: MediaTime)
        case present
        /// Its successor is already due: skip this one.
        case drop
        /// It is late by more than `stallLateness` and nothing is decoded after it: the source ran
        /// dry. Shown now it would start slow motion behind the timeline; the player waits until
        /// the item is likely to keep up, then shows it and the timeline follows it.
        case stall
    }

    /// A frame this close to its due time is presented now rather than after a needless sleep.
    public var earlyTolerance: MediaTime
    /// Never drop more than this many frames in a row, so a slow machine still shows motion.
    public var maximumConsecutiveDrops: Int
    /// How late a frame with nothing decoded after it may still be shown. A quarter second: well
    /// above a slow first draw or a loaded machine's hiccup (85 ms measured under TCG), well below
    /// what a viewer takes for a frozen picture.
    public var stallLateness: MediaTime
    private var consecutiveDrops = 0

    public init(earlyTolerance: MediaTime = MediaTime(1, per: 1000), maximumConsecutiveDrops: Int = 8,
                stallLateness: MediaTime = MediaTime(1, per: 4)) {
        self.earlyTolerance = earlyTolerance
        self.maximumConsecutiveDrops = maximumConsecutiveDrops
        self.stallLateness = stallLateness
    }

    /// - Parameters:
    ///   - due: when this frame should appear, on the clock.
    ///   - nextDue: when the following frame should appear, if known.
    ///   - now: the clock's time.
    ///   - sourceIsDry: nothing at all is decoded after this frame yet (not even the item's end).
    public mutating func decide(due: MediaTime, nextDue: MediaTime?, now: MediaTime, sourceIsDry: Bool = false) -> Decision {
        if now + earlyTolerance < due { return .wait(until: due) }
        if sourceIsDry && now - due > stallLateness { return .stall }
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
