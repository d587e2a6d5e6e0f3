/// The `status` reply, declared once: AVPlayer's and AVPlayerItem's properties under their names,
/// the media controller's labels, the devices, and the access and error logs. The player fills the
/// playback part, the program around it the devices; the socket and MQTT encode it, and
/// `marquee ctl status` decodes it into its table.
public struct StatusDocument: Codable, Sendable, Equatable {
    public var state: PlaybackState
    public var loadState: LoadState
    public var rate: Double
    public var soundAtRate: SoundAtRate
    /// `on` or `off`: the display's power as the player set it.
    public var display: String
    public var repeatMode: RepeatMode
    public var scaling: ScalingMode
    public var volume: Double
    public var muted: Bool
    public var pauseAfterCurrentItem: Bool
    public var actionAtItemEnd: ActionAtItemEnd
    public var itemCount: Int
    public var framesPresented: Int
    public var framesDropped: Int
    /// Seconds since the player started.
    public var uptime: Double
    public var screenSize: PixelSize
    public var accessLog: [AccessLogRecord]
    public var errorLog: [ErrorLogRecord]
    public var lastError: String?
    public var schedule: Schedule?
    /// The item on screen; nil when nothing is.
    public var item: Item?
    public var output: Output?
    public var audio: Audio?
    public var input: Input?
    public var cache: CacheStatus?
    public var sync: SyncStatus?
    public var screens: [Screen]?

    enum CodingKeys: String, CodingKey {
        case state, loadState, rate, soundAtRate, display, scaling, volume, muted, pauseAfterCurrentItem, actionAtItemEnd
        case itemCount, framesPresented, framesDropped, uptime, screenSize, accessLog, errorLog, lastError, schedule, item
        case output, audio, input, cache, sync, screens
        case repeatMode = "repeat"
    }

    public init(state: PlaybackState, loadState: LoadState, rate: Double, soundAtRate: SoundAtRate, display: String,
                repeatMode: RepeatMode, scaling: ScalingMode, volume: Double, muted: Bool, pauseAfterCurrentItem: Bool,
                actionAtItemEnd: ActionAtItemEnd, itemCount: Int, framesPresented: Int, framesDropped: Int, uptime: Double,
                screenSize: PixelSize, accessLog: [AccessLogRecord], errorLog: [ErrorLogRecord]) {
        self.state = state
        self.loadState = loadState
        self.rate = rate
        self.soundAtRate = soundAtRate
        self.display = display
        self.repeatMode = repeatMode
        self.scaling = scaling
        self.volume = volume
        self.muted = muted
        self.pauseAfterCurrentItem = pauseAfterCurrentItem
        self.actionAtItemEnd = actionAtItemEnd
        self.itemCount = itemCount
        self.framesPresented = framesPresented
        self.framesDropped = framesDropped
        self.uptime = uptime
        self.screenSize = screenSize
        self.accessLog = accessLog
        self.errorLog = errorLog
    }

    /// The devices the program around the player knows, into their fields.
    public mutating func adopt(_ devices: DeviceStatus) {
        output = devices.output
        audio = devices.audio
        input = devices.input
        cache = devices.cache
        sync = devices.sync
        screens = devices.screens
    }

    /// `{"daypart": "lunch", "nextChange": "2026-11-26T14:00:00Z"}`; a null daypart: nothing
    /// scheduled now (written out, not left out).
    public struct Schedule: Codable, Sendable, Equatable {
        public var daypart: String?
        public var nextChange: String?

        public init(daypart: String?, nextChange: String?) {
            self.daypart = daypart
            self.nextChange = nextChange
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(daypart, forKey: .daypart)
            try container.encodeIfPresent(nextChange, forKey: .nextChange)
        }
    }

    public struct AccessLogRecord: Codable, Sendable, Equatable {
        public var index: Int
        public var url: String
        public var startedAt: Double
        public var endedAt: Double?
        public var finishReason: FinishReason?
        public var stalls: Int
        public var framesDropped: Int
        public var bytesRead: Int64
        public var observedBitrate: Double?

        public init(index: Int, url: String, startedAt: Double, endedAt: Double?, finishReason: FinishReason?, stalls: Int,
                    framesDropped: Int, bytesRead: Int64, observedBitrate: Double?) {
            self.index = index
            self.url = url
            self.startedAt = startedAt
            self.endedAt = endedAt
            self.finishReason = finishReason
            self.stalls = stalls
            self.framesDropped = framesDropped
            self.bytesRead = bytesRead
            self.observedBitrate = observedBitrate
        }
    }

    public struct ErrorLogRecord: Codable, Sendable, Equatable {
        public var t: Double
        public var message: String

        public init(t: Double, message: String) {
            self.t = t
            self.message = message
        }
    }
}
