import Foundation
import MarqueeCore

/// Everything a config file says: what to play and when, where to show it, where to play its
/// sound and which keys drive it. Missing sections take their defaults.
public struct MarqueeConfiguration: Sendable, Equatable {
    /// The playlists in the order the file lists them: the one `playlist:`, as a daypart named
    /// `playlist`, or the dayparts of `playlists:`.
    public var dayparts: [DaypartConfiguration]
    /// The top-level `schedule:` settings (the time zone).
    public var schedule: ScheduleConfiguration
    public var display: DisplayConfiguration
    public var audio: AudioConfiguration
    public var input: InputConfiguration
    public var network: NetworkConfiguration
    public var control: ControlConfiguration
    /// `mqtt:`; nil: no MQTT.
    public var mqtt: MQTTConfiguration?
    public var osd: OSDConfiguration
    public var log: LogConfiguration
    /// `source:`: the playlist comes from a server; this file is a bootstrap. nil: it is here.
    public var remote: RemoteSourceConfiguration?
    /// `cache:`: where remote media are kept, and its limits.
    public var cache: CacheConfiguration
    /// `media:`: the folders a control client's `load` may read from.
    public var media = MediaConfiguration()
    /// `proofOfPlay:`: the play ledger.
    public var proofOfPlay = ProofOfPlayConfiguration()
    /// `device:`: the id records and reports name this player by.
    public var device = DeviceConfiguration()
    /// `resume:`: a restart picks up at the item and time playing when it stopped. nil: on under
    /// systemd's `StateDirectory=` (the service), off for an ad-hoc `marquee play`.
    public var resume: Bool?
    /// `metrics:`: Prometheus's `/metrics` over HTTP; nil: no metrics server.
    public var metrics: MetricsConfiguration?
    /// `sync:`: frame-locked playback from a shared epoch; nil: the player runs on its own.
    public var sync: SyncConfiguration?
    /// `displays:`: every screen, in file order; empty with the single-screen `display:`. The
    /// screen whose playlist plays on `audio.device` (`audio.screen`, else the first with a
    /// playlist) is also `display` and `playlist` above, so single-screen code paths drive it as
    /// they always did.
    public var screens: [ScreenConfiguration] = []
    /// The config file this came from; relative media paths were resolved against its folder.
    public var source: URL

    /// The name the single `playlist:` goes by among dayparts (and in `marquee schedule`).
    public static let singlePlaylistName = "playlist"

    public init(playlist: PlaylistConfiguration,
                schedule: ScheduleConfiguration = ScheduleConfiguration(),
                display: DisplayConfiguration = DisplayConfiguration(),
                audio: AudioConfiguration = AudioConfiguration(),
                input: InputConfiguration = InputConfiguration(),
                network: NetworkConfiguration = NetworkConfiguration(),
                control: ControlConfiguration = ControlConfiguration(),
                mqtt: MQTTConfiguration? = nil,
                osd: OSDConfiguration = OSDConfiguration(),
                log: LogConfiguration = LogConfiguration(),
                remote: RemoteSourceConfiguration? = nil,
                cache: CacheConfiguration = CacheConfiguration(),
                sync: SyncConfiguration? = nil,
                source: URL) {
        self.init(dayparts: [DaypartConfiguration(name: Self.singlePlaylistName, playlist: playlist)], schedule: schedule,
                  display: display, audio: audio, input: input, network: network, control: control, mqtt: mqtt, osd: osd, log: log,
                  remote: remote, cache: cache, sync: sync, source: source)
    }

    /// `dayparts` must not be empty.
    public init(dayparts: [DaypartConfiguration],
                schedule: ScheduleConfiguration = ScheduleConfiguration(),
                display: DisplayConfiguration = DisplayConfiguration(),
                audio: AudioConfiguration = AudioConfiguration(),
                input: InputConfiguration = InputConfiguration(),
                network: NetworkConfiguration = NetworkConfiguration(),
                control: ControlConfiguration = ControlConfiguration(),
                mqtt: MQTTConfiguration? = nil,
                osd: OSDConfiguration = OSDConfiguration(),
                log: LogConfiguration = LogConfiguration(),
                remote: RemoteSourceConfiguration? = nil,
                cache: CacheConfiguration = CacheConfiguration(),
                sync: SyncConfiguration? = nil,
                source: URL) {
        precondition(!dayparts.isEmpty, "a configuration has at least one playlist")
        self.dayparts = dayparts
        self.schedule = schedule
        self.display = display
        self.audio = audio
        self.input = input
        self.network = network
        self.control = control
        self.mqtt = mqtt
        self.osd = osd
        self.log = log
        self.remote = remote
        self.cache = cache
        self.sync = sync
        self.source = source
    }

    /// Whether the file used `playlist:` (one playlist) rather than `playlists:` (dayparts).
    public var hasSinglePlaylist: Bool {
        dayparts.count == 1 && dayparts[0].name == Self.singlePlaylistName
            && dayparts[0].priority == 0 && !dayparts[0].interrupt
    }

    /// The playlist that plays while schedules are not followed: the one `playlist:`, or under
    /// `playlists:` the `default` one, else the first listed. Setting it replaces that playlist.
    public var playlist: PlaylistConfiguration {
        get { dayparts[fallbackIndex].playlist }
        set { dayparts[fallbackIndex].playlist = newValue }
    }

    private var fallbackIndex: Int {
        dayparts.firstIndex { $0.name == Daypart.defaultName } ?? 0
    }
}

// Encoded with the keys a config uses: `playlist` for a single playlist, else `playlists` in its
// list spelling (so their order, which decides overlaps, survives JSON).
extension MarqueeConfiguration: Codable {
    private enum CodingKeys: String, CodingKey {
        case playlist, playlists, schedule, display, audio, input, network, control, mqtt, osd, log, remote, cache, source, displays, media, metrics
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        if hasSinglePlaylist {
            try container.encode(playlist, forKey: .playlist)
        } else {
            try container.encode(dayparts, forKey: .playlists)
        }
        if schedule != ScheduleConfiguration() { try container.encode(schedule, forKey: .schedule) }
        try container.encode(display, forKey: .display)
        try container.encode(audio, forKey: .audio)
        try container.encode(input, forKey: .input)
        try container.encode(network, forKey: .network)
        try container.encode(control, forKey: .control)
        try container.encodeIfPresent(mqtt, forKey: .mqtt)
        try container.encode(osd, forKey: .osd)
        try container.encode(log, forKey: .log)
        try container.encodeIfPresent(remote, forKey: .remote)
        if cache != CacheConfiguration() { try container.encode(cache, forKey: .cache) }
        if !screens.isEmpty { try container.encode(screens, forKey: .displays) }
        if media != MediaConfiguration() { try container.encode(media, forKey: .media) }
        try container.encodeIfPresent(metrics, forKey: .metrics)
        try container.encode(source, forKey: .source)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if let playlist = try container.decodeIfPresent(PlaylistConfiguration.self, forKey: .playlist) {
            dayparts = [DaypartConfiguration(name: Self.singlePlaylistName, playlist: playlist)]
        } else {
            dayparts = try container.decode([DaypartConfiguration].self, forKey: .playlists)
            guard !dayparts.isEmpty else {
                throw DecodingError.dataCorruptedError(forKey: .playlists, in: container, debugDescription: "no playlists")
            }
        }
        schedule = try container.decodeIfPresent(ScheduleConfiguration.self, forKey: .schedule) ?? ScheduleConfiguration()
        display = try container.decode(DisplayConfiguration.self, forKey: .display)
        audio = try container.decode(AudioConfiguration.self, forKey: .audio)
        input = try container.decode(InputConfiguration.self, forKey: .input)
        network = try container.decode(NetworkConfiguration.self, forKey: .network)
        control = try container.decode(ControlConfiguration.self, forKey: .control)
        mqtt = try container.decodeIfPresent(MQTTConfiguration.self, forKey: .mqtt)
        osd = try container.decode(OSDConfiguration.self, forKey: .osd)
        log = try container.decode(LogConfiguration.self, forKey: .log)
        remote = try container.decodeIfPresent(RemoteSourceConfiguration.self, forKey: .remote)
        cache = try container.decodeIfPresent(CacheConfiguration.self, forKey: .cache) ?? CacheConfiguration()
        source = try container.decode(URL.self, forKey: .source)
        screens = try container.decodeIfPresent([ScreenConfiguration].self, forKey: .displays) ?? []
        media = try container.decodeIfPresent(MediaConfiguration.self, forKey: .media) ?? MediaConfiguration()
        metrics = try container.decodeIfPresent(MetricsConfiguration.self, forKey: .metrics)
    }
}
