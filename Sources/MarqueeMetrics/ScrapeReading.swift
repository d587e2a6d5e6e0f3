/// What a scrape reads from snapshots that already exist (the player's status, the cache's
/// status, the broker connection's flag) rather than from events: states, not happenings.
public struct ScrapeReading: Sendable, Equatable {
    /// Seconds since marquee's main began (the start `first frame on screen` counts from).
    public var uptimeSeconds: Double
    /// The main screen's states (the single display's).
    public var main: Screen
    /// Other screens' states, by name (with `displays:`).
    public var screens: [String: Screen]
    /// The daypart a timetable plays now; nil without a timetable or when nothing is scheduled.
    public var daypart: String?
    /// The media cache; nil when nothing is cached (no http(s) media).
    public var cache: Cache?
    /// Whether the broker has accepted the connection; nil without `mqtt:`.
    public var mqttConnected: Bool?

    /// One screen's states.
    public struct Screen: Sendable, Equatable {
        /// displayOff turned the screen (and the TV over CEC) off.
        public var displayIsOn: Bool
        /// The buffer ran dry and the player waits for it (load state `stalled`).
        public var isStalled: Bool

        public init(displayIsOn: Bool = true, isStalled: Bool = false) {
            self.displayIsOn = displayIsOn
            self.isStalled = isStalled
        }
    }

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
                cache: Cache? = nil, mqttConnected: Bool? = nil, screens: [String: Screen] = [:]) {
        self.uptimeSeconds = uptimeSeconds
        main = Screen(displayIsOn: displayIsOn, isStalled: isStalled)
        self.screens = screens
        self.daypart = daypart
        self.cache = cache
        self.mqttConnected = mqttConnected
    }
}
