import MarqueeCore

/// The one live line `marquee play` keeps on a terminal: item (its title, else its file name),
/// position/duration, remaining and state, e.g. `▶ 2/3 intro.mp4  0:12 / 0:30  -0:18  playing`.
/// It reads the same fold of the events as the control socket's `status`.
public struct StatusLine: Sendable, Equatable {
    private var status: PlaybackStatus

    public init(itemCount: Int) {
        status = PlaybackStatus(itemCount: itemCount, repeatMode: .all, scaling: .default, volume: 1)
    }

    /// Folds an event into the line.
    public mutating func apply(_ event: PlayerEvent) {
        status.apply(event, at: 0)
    }

    public var itemNumber: Int? { status.itemIndex.map { $0 + 1 } }
    public var itemCount: Int { status.itemCount }
    public var title: String {
        status.itemTitle ?? String(status.itemURL.split(separator: "/").last ?? Substring(status.itemURL))
    }
    /// Positions count from the item's first frame, like the length durationAvailable reports.
    public var position: MediaTime? { status.elapsed }
    public var duration: MediaTime? { status.duration }
    public var state: PlaybackState { status.state }

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
