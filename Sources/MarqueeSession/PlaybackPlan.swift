import Foundation
import MarqueeConfig
import MarqueeCore
import MarqueePlayer

/// What `marquee play` will play: the queue and settings from a config file or from media given on
/// the command line, with the command-line flags laid over them.
package struct PlaybackPlan {
    package var items: [QueueItem]
    package var settings: PlayerSettings
    package var output: DisplayConfiguration.Output
    /// `display.connector` and `display.mode`: only the DRM output uses them.
    package var connector = DisplayConfiguration.automaticConnector
    package var mode = DisplayConfiguration.Mode.preferred
    /// `display.modesetting`: legacy forces SetCrtc/PageFlip.
    package var modesetting = DisplayConfiguration.Modesetting.auto
    /// `display.cec`: the HDMI-CEC adapter that turns the TV off and on with the display.
    package var cec = DisplayConfiguration.CEC.auto
    /// `input:`: which keypads and remotes, grabbed or not, with which key map.
    package var input = InputConfiguration()
    /// `log.level`; `--log-level` overrides it.
    package var logLevel = LogConfiguration.Level.info
    /// `audio:`: the ALSA device, starting volume, buffer and period.
    package var audio = AudioConfiguration()
    /// `display.maxImagePixels`: stills with more pixels are refused.
    package var maxImagePixels = ImagePixelLimit.default
    /// Where the control socket listens (config `control.socket`; `--control` overrides it).
    package var control = ControlConfiguration()
    /// `mqtt:`: the broker, topic and credentials; nil: no MQTT.
    package var mqtt: MQTTConfiguration?
    /// `metrics:`: where `/metrics` is served (`--metrics` overrides it); nil: no metrics server.
    package var metrics: MetricsConfiguration?
    /// `osd:`: the media controller's labels on the screen and the status card.
    package var osd = OSDSettings()
    package var warnings: [String] = []
    /// The config file it came from; nil for media given on the command line (nothing to reload).
    package var configPath: String?
    /// The dayparts and their timetable when the config has any schedule (`playlists:`, a window
    /// on a playlist or item, `display.power`); nil: `items` play all the time.
    package var schedule: ScheduledPlaylists?
    /// `source:`: the playlist is fetched from a server (the config is a bootstrap); nil: it is here.
    package var remote: RemoteSourceConfiguration?
    /// `cache:`: where remote media are downloaded to, and its limits.
    package var cache = CacheConfiguration()
    /// `media.roots`: where a control client's `load` may read from; nil: the config's folder and the cache.
    package var mediaRoots: [String]?
    /// `proofOfPlay:`: the play ledger (`--ledger` turns it on for a run).
    package var proofOfPlay = ProofOfPlayConfiguration()
    /// `device:`: the id the ledger's records name this player by.
    package var device = DeviceConfiguration()
    /// `resume:`: a restart picks up where the last run stopped; nil: only under StateDirectory=.
    package var resume: Bool?
    /// The remote items that are downloaded before they play (not streams), by url, with the hash
    /// the config gives; every daypart's items included.
    package var cachedMedia: [String: CachedMedia] = [:]
    /// `sync:`: frame-locked playback from a shared epoch; nil: the player runs on its own.
    package var sync: SyncConfiguration?
    /// `displays:`: every screen, the main one (whose playlist is `items`) included; empty for one screen.
    package var screens: [ScreenConfiguration] = []

    package static let configExtensions: Set<String> = ["yaml", "yml", "json", "m3u", "m3u8"]

    /// One local argument with a config extension is a config; anything else is a list of media (an
    /// http(s) URL ending in `.m3u8` is an HLS stream, not a playlist file).
    package static func load(arguments: [String]) throws -> PlaybackPlan {
        // `marquee play https://cms.example/lobby.yaml`: a config fetched, polled and cached.
        if arguments.count == 1, ["http", "https"].contains(URLScheme.of(arguments[0]) ?? ""),
           let url = URL(string: arguments[0]), ["yaml", "yml", "json"].contains(url.pathExtension.lowercased()) {
            return bootstrap(fetching: url)
        }
        if arguments.count == 1, !["http", "https"].contains(URLScheme.of(arguments[0]) ?? ""),
           configExtensions.contains(URL(fileURLWithPath: arguments[0]).pathExtension.lowercased()) {
            return try fromConfig(path: arguments[0])
        }
        return try fromMedia(arguments)
    }

    /// The config file at `path`; `settled` waits for a file being written to stop changing (a reload).
    package static func fromConfig(path: String, settled: Bool = false) throws -> PlaybackPlan {
        let result = settled ? ConfigurationLoader.loadSettled(path: path) : ConfigurationLoader.load(path: path)
        return try fromConfig(result, path: path)
    }

    /// A config already read and checked (a file, or the text of a control request).
    package static func fromConfig(_ result: ConfigurationLoadResult, path: String) throws -> PlaybackPlan {
        guard let configuration = result.configuration, !result.hasErrors else {
            throw PlayError(lines: result.errors.map(\.description))
        }
        var settings = PlayerSettings()
        settings.repeatMode = configuration.playlist.repeat
        settings.actionAtItemEnd = configuration.playlist.actionAtItemEnd
        settings.shuffleSeed = configuration.playlist.seed ?? UInt64.random(in: .min ... .max)
        settings.scaling = configuration.display.scaling
        settings.background = configuration.display.background
        settings.displayRotation = configuration.display.rotation
        settings.volume = configuration.audio.volume
        settings.readAhead = configuration.network.readAheadDuration
        let items = queueItems(configuration.playlist)
        // Each daypart's seed is drawn once, so a daypart that comes back shuffles as before.
        let schedule = configuration.isScheduled ? ScheduledPlaylists(
            timetable: configuration.timetable(),
            playlists: configuration.dayparts.map { daypart in
                ScheduledPlaylists.Playlist(items: queueItems(daypart.playlist), repeatMode: daypart.playlist.repeat,
                                            actionAtItemEnd: daypart.playlist.actionAtItemEnd,
                                            shuffleSeed: daypart.playlist.seed ?? UInt64.random(in: .min ... .max))
            }) : nil
        var plan = PlaybackPlan(items: items, settings: settings, output: configuration.display.output,
                            connector: configuration.display.connector, mode: configuration.display.mode,
                            modesetting: configuration.display.modesetting, cec: configuration.display.cec, input: configuration.input, logLevel: configuration.log.level,
                            audio: configuration.audio, maxImagePixels: configuration.display.maxImagePixels,
                            control: configuration.control, mqtt: configuration.mqtt, osd: configuration.osd.settings,
                            warnings: result.warnings.map(\.description), configPath: path, schedule: schedule,
                            remote: configuration.remote, cache: configuration.cache,
                            cachedMedia: cachedMedia(configuration), sync: configuration.sync)
        plan.screens = configuration.screens
        plan.mediaRoots = configuration.media.roots
        plan.proofOfPlay = configuration.proofOfPlay
        plan.device = configuration.device
        plan.resume = configuration.resume
        plan.metrics = configuration.metrics
        return plan
    }

    /// A plan that has nothing to play until the config at `url` is fetched (or read from the cache).
    package static func bootstrap(fetching url: URL) -> PlaybackPlan {
        var settings = PlayerSettings()
        settings.shuffleSeed = UInt64.random(in: .min ... .max)
        return PlaybackPlan(items: [], settings: settings, output: .auto, remote: RemoteSourceConfiguration(url: url))
    }

    private static func cachedMedia(_ configuration: MarqueeConfiguration) -> [String: CachedMedia] {
        var media: [String: CachedMedia] = [:]
        for item in configuration.dayparts.flatMap(\.playlist.items) where item.isCached {
            guard case .remote(let url) = item.location else { continue }
            media[item.location.description] = CachedMedia(url: url, sha256: item.sha256, size: item.size)
        }
        return media
    }

    package static func queueItems(_ playlist: PlaylistConfiguration) -> [QueueItem] {
        playlist.items.map {
            QueueItem(url: $0.location.description, start: $0.start, end: $0.end, duration: $0.duration,
                      scaling: $0.scaling, title: $0.title, cues: $0.cues, id: $0.id)
        }
    }

    private static func fromMedia(_ arguments: [String]) throws -> PlaybackPlan {
        let workingDirectory = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
        var items: [QueueItem] = []
        var problems: [String] = []
        for argument in arguments {
            switch MediaLocation.resolve(argument, relativeTo: workingDirectory) {
            case .success(let location): items.append(QueueItem(url: location.description))
            case .failure(let error): problems.append("\(argument): \(error.message)")
            }
        }
        guard problems.isEmpty else { throw PlayError(lines: problems) }
        var settings = PlayerSettings()
        settings.shuffleSeed = UInt64.random(in: .min ... .max)
        return PlaybackPlan(items: items, settings: settings, output: .auto)
    }
}

/// The command-line flags laid over a config, on the first load and on every reload.
package struct PlanOverrides {
    package var output: DisplayConfiguration.Output?
    package var repeatMode: RepeatMode?
    package var scaling: ScalingMode?
    package var exitWhenIdle = false
    package var inputDevices: InputConfiguration.Devices?
    package var grab: Bool?
    package var control: ControlConfiguration.Socket?
    /// `--ledger DIR`: the play ledger on, in that folder.
    package var ledger: String?
    /// `--metrics ADDRESS|none`: `.some(nil)` turns a config's metrics server off.
    package var metrics: MetricsListenAddress??

    package init(output: DisplayConfiguration.Output? = nil, repeatMode: RepeatMode? = nil, scaling: ScalingMode? = nil,
                 exitWhenIdle: Bool = false, inputDevices: InputConfiguration.Devices? = nil, grab: Bool? = nil,
                 control: ControlConfiguration.Socket? = nil, ledger: String? = nil, metrics: MetricsListenAddress?? = nil) {
        self.ledger = ledger
        self.output = output
        self.repeatMode = repeatMode
        self.scaling = scaling
        self.exitWhenIdle = exitWhenIdle
        self.inputDevices = inputDevices
        self.grab = grab
        self.control = control
        self.metrics = metrics
    }

    package func apply(to plan: inout PlaybackPlan) {
        if let output { plan.output = output }
        if let repeatMode {
            plan.settings.repeatMode = repeatMode
            // The flag is every daypart's repeat mode.
            for index in plan.schedule?.playlists.indices ?? 0..<0 { plan.schedule?.playlists[index].repeatMode = repeatMode }
        }
        if let scaling { plan.settings.scaling = scaling }
        plan.settings.exitWhenIdle = exitWhenIdle
        if let inputDevices { plan.input.devices = inputDevices }
        if let control { plan.control.socket = control }
        if let metrics { plan.metrics = metrics.map { MetricsConfiguration(listen: $0) } }
        if let grab { plan.input.grab = grab }
        if let ledger {
            plan.proofOfPlay.enabled = true
            plan.proofOfPlay.directory = ledger
        }
    }
}

/// Why `marquee play` could not start (or a reload was refused); each line is printed as is, with
/// any password in a URL it names hidden.
package struct PlayError: Error {
    package let lines: [String]

    package init(lines: [String]) {
        self.lines = lines.map(CredentialRedaction.redacted)
    }
}
