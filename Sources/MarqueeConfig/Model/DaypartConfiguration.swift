import MarqueeCore

/// One named playlist under `playlists:`: a daypart, with when it plays in its playlist's
/// `schedule` and how it competes with the others.
public struct DaypartConfiguration: Sendable, Equatable {
    public var name: String
    /// Higher wins where windows overlap; equal priorities go to the one listed first.
    public var priority: Int
    /// `interrupt: true`: switching to this daypart cuts the item on screen short.
    public var interrupt: Bool
    public var playlist: PlaylistConfiguration

    public init(name: String, priority: Int = 0, interrupt: Bool = false, playlist: PlaylistConfiguration) {
        self.name = name
        self.priority = priority
        self.interrupt = interrupt
        self.playlist = playlist
    }

    /// How the schedule evaluator sees it.
    public var daypart: Daypart {
        Daypart(name: name, schedule: playlist.schedule, priority: priority, interrupt: interrupt,
                itemSchedules: playlist.items.map(\.schedule))
    }
}

// A daypart encodes as its playlist's keys plus `name`, `priority` and `interrupt`: one entry of
// the list spelling of `playlists:` (JSON objects have no order, and the order decides overlaps).
extension DaypartConfiguration: Codable {
    private enum CodingKeys: String, CodingKey {
        case name, priority, interrupt
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        if priority != 0 { try container.encode(priority, forKey: .priority) }
        if interrupt { try container.encode(interrupt, forKey: .interrupt) }
        try playlist.encode(to: encoder)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        priority = try container.decodeIfPresent(Int.self, forKey: .priority) ?? 0
        interrupt = try container.decodeIfPresent(Bool.self, forKey: .interrupt) ?? false
        playlist = try PlaylistConfiguration(from: decoder)
    }
}
