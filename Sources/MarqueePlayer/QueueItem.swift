import MarqueeCore

/// One playlist entry as the engine sees it: where the media is and how much of it to present.
public struct QueueItem: Sendable, Equatable {
    public var url: String
    public var start: MediaTime?
    public var end: MediaTime?
    public var duration: MediaTime?
    /// Overrides the player's scaling mode for this item.
    public var scaling: ScalingMode?

    public init(url: String, start: MediaTime? = nil, end: MediaTime? = nil, duration: MediaTime? = nil,
                scaling: ScalingMode? = nil) {
        self.url = url
        self.start = start
        self.end = end
        self.duration = duration
        self.scaling = scaling
    }
}
