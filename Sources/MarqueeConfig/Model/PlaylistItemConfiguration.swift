import MarqueeCore

/// One playlist entry as written in the config: where the media is and which part of it to play.
public struct PlaylistItemConfiguration: Sendable, Equatable {
    public var location: MediaLocation
    /// Where playback begins (AVPlayerItem's initial playback time); nil means the beginning.
    public var start: MediaTime?
    /// Where playback stops (forward playback end time); nil means the natural end. Always after `start`.
    public var end: MediaTime?
    /// How long to play from `start`: how long a still image shows, or a cut-off for any item.
    /// Never given together with `end`.
    public var duration: MediaTime?
    /// Overrides the display's scaling mode for this item only.
    public var scaling: ScalingMode?
    public var title: String?
    /// Media times whose crossing, while playing, is a `boundary` event.
    public var cues: [MediaTime]
    /// When the item may play (`schedule:`); nil: whenever its playlist plays.
    public var schedule: Schedule?
    /// `stream: true`: a remote item played straight from the network (a live stream), never
    /// downloaded into the cache. HLS (`.m3u8`) always streams.
    public var stream: Bool
    /// `sha256:` the remote file's expected hash, lower-case hex: the cache keeps and plays only a
    /// download that matches it.
    public var sha256: String?
    /// `size:` the remote file's exact size in bytes: a download is cut there (a server that sends
    /// more is lying), and a file of another size is never kept.
    public var size: Int64?
    /// `id:` what the play ledger names the item by; nil: its URL with the media's SHA-256.
    public var id: String?

    public init(location: MediaLocation, start: MediaTime? = nil, end: MediaTime? = nil,
                duration: MediaTime? = nil, scaling: ScalingMode? = nil, title: String? = nil, cues: [MediaTime] = [],
                schedule: Schedule? = nil, stream: Bool = false, sha256: String? = nil, size: Int64? = nil, id: String? = nil) {
        self.location = location
        self.id = id
        self.start = start
        self.end = end
        self.duration = duration
        self.scaling = scaling
        self.title = title
        self.cues = cues
        self.schedule = schedule
        self.stream = stream
        self.sha256 = sha256
        self.size = size
    }

    /// A remote item that is downloaded before it plays: not a stream, not HLS.
    public var isCached: Bool {
        guard case .remote(let url) = location, !stream else { return false }
        return url.pathExtension.lowercased() != "m3u8"
    }

    /// Where playback stops, whichever of `end` or `start + duration` the config gave.
    public var effectiveEnd: MediaTime? {
        if let end { return end }
        if let duration { return (start ?? .zero) + duration }
        return nil
    }
}

// Times are encoded as the exact text `MediaTime.parse` reads back (`numerator/denominator` would
// not parse); MediaTime itself is not Codable, and conforming it here would clash if Core ever does.
extension PlaylistItemConfiguration: Codable {
    private enum CodingKeys: String, CodingKey {
        case url, start, end, duration, scaling, title, cues, schedule, stream, sha256, size, id
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(location, forKey: .url)
        try container.encodeIfPresent(start.map(Self.exactText), forKey: .start)
        try container.encodeIfPresent(end.map(Self.exactText), forKey: .end)
        try container.encodeIfPresent(duration.map(Self.exactText), forKey: .duration)
        try container.encodeIfPresent(scaling, forKey: .scaling)
        try container.encodeIfPresent(title, forKey: .title)
        if !cues.isEmpty { try container.encode(cues.map(Self.exactText), forKey: .cues) }
        try container.encodeIfPresent(schedule, forKey: .schedule)
        if stream { try container.encode(stream, forKey: .stream) }
        try container.encodeIfPresent(sha256, forKey: .sha256)
        try container.encodeIfPresent(size, forKey: .size)
        try container.encodeIfPresent(id, forKey: .id)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        location = try container.decode(MediaLocation.self, forKey: .url)
        func time(_ key: CodingKeys) throws -> MediaTime? {
            guard let text = try container.decodeIfPresent(String.self, forKey: key) else { return nil }
            switch MediaTime.parse(text) {
            case .success(let time): return time
            case .failure(let error):
                throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: error.description)
            }
        }
        start = try time(.start)
        end = try time(.end)
        duration = try time(.duration)
        scaling = try container.decodeIfPresent(ScalingMode.self, forKey: .scaling)
        title = try container.decodeIfPresent(String.self, forKey: .title)
        cues = try (container.decodeIfPresent([String].self, forKey: .cues) ?? []).map { text in
            switch MediaTime.parse(text) {
            case .success(let time): return time
            case .failure(let error):
                throw DecodingError.dataCorruptedError(forKey: .cues, in: container, debugDescription: error.description)
            }
        }
        schedule = try container.decodeIfPresent(Schedule.self, forKey: .schedule)
        stream = try container.decodeIfPresent(Bool.self, forKey: .stream) ?? false
        sha256 = try container.decodeIfPresent(String.self, forKey: .sha256)
        size = try container.decodeIfPresent(Int64.self, forKey: .size)
        id = try container.decodeIfPresent(String.self, forKey: .id)
    }

    /// Seconds as a decimal, e.g. `2.5`. Exact for every time a config can spell (at most nine
    /// fractional digits); anything finer is rounded to the nearest nanosecond.
    static func exactText(_ time: MediaTime) -> String {
        let nanoseconds = time.ticks(timescale: 1_000_000_000, rounding: .toNearestOrAwayFromZero)
        let sign = nanoseconds < 0 ? "-" : ""
        let magnitude = nanoseconds.magnitude
        let whole = magnitude / 1_000_000_000
        let fraction = magnitude % 1_000_000_000
        guard fraction != 0 else { return "\(sign)\(whole)" }
        var digits = String(fraction + 1_000_000_000).dropFirst()
        while digits.last == "0" { digits.removeLast() }
        return "\(sign)\(whole).\(digits)"
    }
}
