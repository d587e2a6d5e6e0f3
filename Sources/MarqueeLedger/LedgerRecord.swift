/// One item shown, as the play ledger keeps it: one JSON line, written when the item leaves the
/// screen. Keys are an interface (reports, uploads, an advertiser's audit): change them deliberately.
public struct LedgerRecord: Codable, Equatable, Sendable {
    /// Unique across restarts and devices (a random UUID): what a receiver drops repeats by.
    public var id: String
    /// The record's place in its file, from 1: a record deleted from the middle or the start shows.
    public var seq: Int
    /// The SHA-256 of the previous line of the file, as written; nil for a file's first record.
    public var prev: String?
    /// `device.id`, else the machine id.
    public var device: String
    /// The screen it was shown on (`displays:` name, else `main`).
    public var screen: String
    /// `sha256:HEX` of the config in force when it started (the file, or the fetched text).
    public var config: String?
    /// The daypart playing when it started; nil without a schedule.
    public var daypart: String?
    /// The item's config `id:`, else its URL with `#sha256=` and the media's digest, else its URL.
    public var item: String
    /// Its place in the playlist, from 0.
    public var index: Int
    public var url: String
    public var title: String?
    /// UTC, to the millisecond: when its first frame (or sound) was presented, and when it left.
    public var start: String
    public var end: String
    /// Seconds on screen (end − start on the presented timeline).
    public var seconds: Double
    /// `completed`, or why it was cut: userExited, playbackError, daypartChanged, displayOff.
    public var ended: String
    /// When the wall clock was stepped while it showed: how far (seconds, + forward). `start` and
    /// `end` stay on the clock in force at its start, so the seconds shown are never folded in.
    public var clockStep: Double?

    public init(id: String, seq: Int = 0, prev: String? = nil, device: String, screen: String, config: String?, daypart: String?,
                item: String, index: Int, url: String, title: String?, start: String, end: String, seconds: Double,
                ended: String, clockStep: Double? = nil) {
        self.id = id
        self.seq = seq
        self.prev = prev
        self.device = device
        self.screen = screen
        self.config = config
        self.daypart = daypart
        self.item = item
        self.index = index
        self.url = url
        self.title = title
        self.start = start
        self.end = end
        self.seconds = seconds
        self.ended = ended
        self.clockStep = clockStep
    }

    /// The value of `ended` for an item that played to its end (or its trim, or its duration).
    public static let completed = "completed"

    public var isCompleted: Bool { ended == Self.completed }
}
