/// AVPlayer's periodic time observer, fed the presented timeline's events: says where playback is
/// each time an item's position passes another multiple of `interval`, when an item's first frame
/// appears, and after a jump (a seek), as AVPlayer does. While paused no frames come, so nothing
/// is said.
public struct PeriodicTimeObserver: Sendable {
    public let interval: MediaTime
    private var slot: (item: Int, index: Int64)?
    /// The last frame shown, and whether it was reported: a seek's `timeJumped` comes after the
    /// frame it landed on (it is on screen first).
    private var lastFrame: (item: Int, reported: Bool)?

    public init(interval: MediaTime) {
        precondition(interval > .zero, "a periodic observer needs a positive interval")
        self.interval = interval
    }

    /// The item and position to report for this event, if any.
    public mutating func observe(_ event: PlayerEvent) -> (item: Int, position: MediaTime)? {
        switch event {
        case .itemStarted:
            slot = nil
            lastFrame = nil
        case .timeJumped(_, let to):
            // Once per jump, at its landing frame: reported already when it began a new slot
            // (saying it again was the double report after a seek), else now.
            guard let landing = lastFrame else {
                slot = nil
                return nil
            }
            if landing.reported { return nil }
            lastFrame?.reported = true
            slot = (landing.item, Self.slotIndex(of: to, interval: interval))
            return (landing.item, to)
        case .frame(let item, let pts, _, false, _):
            let index = Self.slotIndex(of: pts, interval: interval)
            if let slot, slot.item == item, slot.index == index {
                lastFrame = (item, false)
                return nil
            }
            slot = (item, index)
            lastFrame = (item, true)
            return (item, pts)
        default:
            break
        }
        return nil
    }

    private static func slotIndex(of time: MediaTime, interval: MediaTime) -> Int64 {
        // floor(time / interval) in exact rational arithmetic.
        let numerator = Int128(time.numerator) * Int128(interval.denominator)
        let denominator = Int128(time.denominator) * Int128(interval.numerator)
        let quotient = numerator / denominator
        return Int64(numerator % denominator < 0 ? quotient - 1 : quotient)
    }
}
