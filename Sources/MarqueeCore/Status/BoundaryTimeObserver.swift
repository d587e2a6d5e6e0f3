/// AVPlayer's boundary time observer, fed the presented timeline's events: reports each of
/// `times` (media times of one item, or of every item when `item` is nil) that playback crosses.
/// Playing across a time counts, a seek across it does not (AVPlayer's rule): after a jump the
/// next frame only sets where playing resumes. A time at an item's first frame counts when the
/// item starts there.
public struct BoundaryTimeObserver: Sendable {
    public let times: [MediaTime]
    public let item: Int?
    /// The item and media time last presented, while playing on from it counts.
    private var last: (item: Int, pts: MediaTime)?
    private var currentItem: Int?
    private var jumped = false

    public init(times: [MediaTime], item: Int? = nil) {
        self.times = times.sorted()
        self.item = item
    }

    /// The times crossed by this event, in order.
    public mutating func observe(_ event: PlayerEvent) -> [MediaTime] {
        switch event {
        case .itemStarted(let index, _, _, _):
            currentItem = index
            last = nil
            jumped = false
        case .timeJumped:
            jumped = true
        case .frame(let index, let pts, _, _, _):
            defer { last = (index, pts) }
            guard item == nil || item == index else { return [] }
            if jumped {
                jumped = false
                return []
            }
            guard let last, last.item == index else {
                // The item's first frame: a time exactly there counts as reached.
                return times.filter { $0 == pts }
            }
            guard pts > last.pts else { return [] }
            return times.filter { $0 > last.pts && $0 <= pts }
        default:
            break
        }
        return []
    }
}
