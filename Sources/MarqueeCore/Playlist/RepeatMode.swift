/// How the queue continues when an item ends (Cast's GCKMediaRepeatMode).
public enum RepeatMode: String, CaseIterable, Sendable, Codable {
    case off, one, all, shuffle

    /// The order the cycleRepeatMode command steps through: off → all → one → shuffle → off.
    public var cycled: RepeatMode {
        switch self {
        case .off: .all
        case .all: .one
        case .one: .shuffle
        case .shuffle: .off
        }
    }
}
