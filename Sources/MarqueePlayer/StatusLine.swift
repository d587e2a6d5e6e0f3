import MarqueeCore

/// The one live line `marquee play` keeps on a terminal: item (its title, else its file name),
/// position/duration, remaining and state, e.g. `▶ 2/3 intro.mp4  0:12 / 0:30  -0:18  playing`.
public struct StatusLine: Sendable, Equatable {
    public var itemNumber: Int?
    public var itemCount: Int
    public var title: String = ""
    public var position: MediaTime?
    public var duration: MediaTime?
    public var state: PlaybackState = .stopped
    /// Positions count from the item's first frame, like the length durationAvailable reports.
    private var firstFramePTS: MediaTime?

    public init(itemCount: Int) {
        self.itemCount = itemCount
    }

    /// Folds an event into the line.
    public mutating func apply(_ event: PlayerEvent) {
        switch event {
        case .itemStarted(let index, let url, let itemTitle):
            itemNumber = index + 1
            title = itemTitle ?? String(url.split(separator: "/").last ?? Substring(url))
            position = nil
            duration = nil
            firstFramePTS = nil
        case .queueReplaced(let count, _):
            itemCount = count
        case .durationAvailable(let length):
            duration = length
        case .playbackStateChanged(_, let to):
            state = to
        case .frame(_, let pts, _, _):
            let first = firstFramePTS ?? pts
            firstFramePTS = first
            position = max(.zero, pts - first)
        default:
            break
        }
    }

    public var text: String {
        let symbol: String = switch state {
        case .playing: "▶"
        case .paused: "⏸"
        case .stopped: "■"
        case .interrupted: "…"
        case .seekingForward: "⏩"
        case .seekingBackward: "⏪"
        }
        let number = itemNumber.map { "\($0)/\(itemCount)" } ?? "-/\(itemCount)"
        let times = "\(TimeLabel.position(position)) / \(TimeLabel.position(duration))  \(TimeLabel.remaining(position: position, duration: duration))"
        return "\(symbol) \(number) \(title)  \(times)  \(state.rawValue)"
    }
}
