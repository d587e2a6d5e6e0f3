/// What a scrape reads from snapshots that already exist (the player's status, the cache's
/// status, the broker connection's flag) rather than from events: states, not happenings.
public struct ScrapeReading: Sendable, Equatable {
    /// Seconds since marquee's main began (the start `first frame on screen` counts from).
    public var uptimeSeconds: Double
    /// displayOff turned the screen (and the TV over CEC) off.
    public var displayIsOn: Bool
    /// The daypart a timetable plays now; nil without a timetable or when nothing is scheduled.
    public var daypart: String?
    /// The buffer ran dry and the player waits for it (load state `stalled`).
    public var isStalled: Bool
    /// The media cache; nil when nothing is cached (no http(s) media).
    public var cache: Cache?
    /// Whether the broker has accepted the connection; nil without `mqtt:`.
    public var mqttConnected: Bool?

    public struct Cache: Sendable, Equatable {
        /// Bytes of verified media in the cache folder.
        public var bytes: Int64
        /// Downloads under way (or waiting for a retry) now.
        public var downloading: Int

        public init(bytes: Int64, downloading: Int) {
            self.bytes = bytes
            self.downloading = downloading
        }
    }

    public init(uptimeSeconds: Double, displayIsOn: Bool = true, daypart: String? = nil, isStalled: Bool = false,
                cache: Cache? = nil, mqttConnected: Bool? = nil) {
        self.uptimeSeconds = uptimeSeconds
        self.displayIsOn = displayIsOn
        self.daypart = daypart
        self.isStalled = isStalled
        self.cache = cache
        self.mqttConnected = mqttConnected
    }
}
