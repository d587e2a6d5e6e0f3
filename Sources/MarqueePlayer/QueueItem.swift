import MarqueeCore

/// One playlist entry as the engine sees it: where the media is and how much of it to present.
public struct QueueItem: Sendable, Equatable {
    public var url: String
    public var start: MediaTime?
    public var end: MediaTime?
    public var duration: MediaTime?
    /// Overrides the player's scaling mode for this item.
    public var scaling: ScalingMode?
    /// The config's `title:` or the M3U `#EXTINF` title: shown in itemStarted, the journal and
    /// the status line instead of the bare file name.
    public var title: String?
    /// Media times whose crossing, while playing, is a `boundary` event (config `cues`).
    public var cues: [MediaTime]
    /// The config's `id:`: what the play ledger names the item by (else its URL and media digest).
    public var id: String?
    /// Where the media is read from when that is not `url`: the verified copy of a remote item in
    /// the media cache. Events, status and the journal still name `url`, what the config says.
    public var mediaPath: String?

    public init(url: String, start: MediaTime? = nil, end: MediaTime? = nil, duration: MediaTime? = nil,
                scaling: ScalingMode? = nil, title: String? = nil, cues: [MediaTime] = [], mediaPath: String? = nil, id: String? = nil) {
        self.id = id
        self.url = url
        self.mediaPath = mediaPath
        self.start = start
        self.end = end
        self.duration = duration
        self.scaling = scaling
        self.title = title
        self.cues = cues
    }

    /// What is opened: the cached copy, else the url itself.
    public var source: String { mediaPath ?? url }
}
