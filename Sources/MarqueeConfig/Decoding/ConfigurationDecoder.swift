import Foundation
import Yams

/// Walks a composed YAML/JSON node tree into a `MarqueeConfiguration`. Decoding goes through
/// nodes rather than `Decodable` so every problem carries the line and column of its key or value,
/// and a bad value is logged and replaced by its default so the walk goes on to find the rest.
struct ConfigurationDecoder {
    var log: DiagnosticLog
    let baseDirectory: URL
    /// Keys renamed because they repeated an earlier key; already reported, so skipped here.
    let duplicateKeySentinels: Set<String>
    let checkingMediaFiles: Bool
    /// Set for a config fetched from a server: its items' relative urls resolve against it.
    var mediaBase: URL? = nil
    /// Where each item decoded so far was written, in order (for `sync:`, which has one playlist).
    var itemPlaces: [SyncConfiguration.Place] = []

    static let sections = ["playlist", "playlists", "schedule", "display", "audio", "input", "network", "control", "mqtt", "osd", "log", "source", "cache", "sync", "displays", "media", "proofOfPlay", "device", "resume", "metrics"]

    mutating func decodeConfiguration(_ root: Node, source: URL) -> MarqueeConfiguration? {
        guard let fields = fields(of: root, in: "the config", allowed: Self.sections, allowsNothing: false) else {
            return nil
        }
        let remote = fields["source"].flatMap { decodeSource($0.value) }
        let dayparts: [DaypartConfiguration]?
        switch (fields["playlist"], fields["playlists"]) {
        case (let single?, nil):
            dayparts = decodePlaylist(single).map { [DaypartConfiguration(name: MarqueeConfiguration.singlePlaylistName, playlist: $0)] }
        case (nil, let named?):
            dayparts = decodeDayparts(named)
        case (_?, let named?):
            log.error(at: named.keyPosition, "give either 'playlist' (one playlist) or 'playlists' (named dayparts), not both")
            dayparts = nil
        case (nil, nil) where fields["displays"] != nil:
            // Each screen has its own; the main screen's becomes the playlist below.
            dayparts = nil
        case (nil, nil) where fields["source"] != nil:
            // A bootstrap: the playlist is the server's. Until one is fetched, nothing plays.
            dayparts = [DaypartConfiguration(name: MarqueeConfiguration.singlePlaylistName,
                                             playlist: PlaylistConfiguration(items: []))]
        case (nil, nil):
            log.error(at: SourcePosition(of: root), "missing 'playlist' (the items to play) or 'playlists' (named dayparts)")
            dayparts = nil
        }
        let schedule = fields["schedule"].map { decodeScheduleSettings($0.value) } ?? ScheduleConfiguration()
        var display = fields["display"].map { decodeDisplay($0.value) } ?? DisplayConfiguration()
        var audio = fields["audio"].map { decodeAudio($0.value) } ?? AudioConfiguration()
        var screens: [ScreenConfiguration] = []
        var screenDayparts: [DaypartConfiguration]?
        if let displaysField = fields["displays"] {
            let decoded = decodeScreens(displaysField, display: fields["display"], playlist: fields["playlist"] ?? fields["playlists"],
                                        source: fields["source"], audio: audio, audioField: fields["audio"])
            if let decoded {
                screens = decoded.screens
                display = decoded.display(over: display)
                // The main screen's own sound device, when it names one, is the one it plays on.
                if let device = decoded.main.audioDevice { audio.device = device }
                screenDayparts = [DaypartConfiguration(name: MarqueeConfiguration.singlePlaylistName, playlist: decoded.main.playlist!)]
            }
        } else if let screen = audio.screen, let audioField = fields["audio"] {
            log.error(at: audioField.keyPosition, "audio.screen '\(screen)' names a screen, but the config has no 'displays' list")
        }
        let input = fields["input"].map { decodeInput($0.value) } ?? InputConfiguration()
        let network = fields["network"].map { decodeNetwork($0.value) } ?? NetworkConfiguration()
        let control = fields["control"].map { decodeControl($0.value) } ?? ControlConfiguration()
        let mqtt = fields["mqtt"].map { decodeMQTT($0.value) }
        let osd = fields["osd"].map { decodeOSD($0.value) } ?? OSDConfiguration()
        let log = fields["log"].map { decodeLog($0.value) } ?? LogConfiguration()
        let cache = fields["cache"].map { decodeCache($0.value) } ?? CacheConfiguration()
        var sync = fields["sync"].flatMap { decodeSync($0) }
        if let syncField = fields["sync"] {
            checkSync(syncField, fields: fields, dayparts: dayparts ?? [], remote: remote)
            if let screensField = fields["displays"] {
                // Said at `displays:`, the key to take out for a wall.
                self.log.error(at: screensField.keyPosition, "sync (line \(syncField.keyPosition.line)) cannot be combined with 'displays' yet: a wall is one screen per player")
            }
            sync?.itemPlaces = itemPlaces
        }
        guard let dayparts = dayparts ?? screenDayparts, !dayparts.isEmpty else { return nil }
        var configuration = MarqueeConfiguration(dayparts: dayparts, schedule: schedule, display: display, audio: audio, input: input,
                                    network: network, control: control, mqtt: mqtt, osd: osd, log: log,
                                    remote: remote, cache: cache, sync: sync, source: source)
        configuration.screens = screens
        if let media = fields["media"] { configuration.media = decodeMedia(media.value) }
        if let ledger = fields["proofOfPlay"] { configuration.proofOfPlay = decodeProofOfPlay(ledger.value) }
        if let device = fields["device"] { configuration.device = decodeDevice(device.value) }
        if let resume = fields["resume"] { configuration.resume = bool(resume.value) }
        configuration.metrics = fields["metrics"].map { decodeMetrics($0.value) }
        return configuration
    }

    /// `media: {roots: [DIR, ...]}`: folders relative to the config's.
    private mutating func decodeMedia(_ node: Node) -> MediaConfiguration {
        var media = MediaConfiguration()
        guard let fields = fields(of: node, in: "media", allowed: ["roots"]) else { return media }
        guard let roots = fields["roots"]?.value else { return media }
        guard case .sequence(let sequence) = roots, !sequence.isEmpty else {
            log.error(at: SourcePosition(of: roots), "expected a list of folders, found \(describe(roots))")
            return media
        }
        let folders: [String] = sequence.compactMap { node in
            guard let text = string(node, expected: "a folder"), !text.isEmpty else { return nil }
            let path = URL(fileURLWithPath: text, relativeTo: baseDirectory).standardizedFileURL.path
            var isFolder: ObjCBool = false
            if checkingMediaFiles && !(FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) && isFolder.boolValue) {
                log.warning(at: SourcePosition(of: node), "media root \(path): no such folder")
            }
            return path
        }
        if folders.count == sequence.count { media.roots = folders }
        return media
    }

    private mutating func decodeLog(_ node: Node) -> LogConfiguration {
        var configuration = LogConfiguration()
        guard let fields = fields(of: node, in: "log", allowed: ["level"]) else { return configuration }
        if let node = fields["level"]?.value, let level: LogConfiguration.Level = choice(node, named: "log level") {
            configuration.level = level
        }
        return configuration
    }
}

extension ConfigurationDecoder {
    /// The mapping's fields by key. Unknown keys are reported (with a suggestion when one is
    /// close); `<<` merge keys are expanded, explicit keys winning. Nil, after reporting, when the
    /// node is not a mapping; an empty value (`display:` alone) counts as an empty mapping if `allowsNothing`.
    mutating func fields(of node: Node, in section: String, allowed: [String],
                         allowsNothing: Bool = true) -> [String: MappingField]? {
        if allowsNothing && isNothing(node) { return [:] }
        guard case .mapping(let mapping) = node else {
            log.error(at: SourcePosition(of: node), "expected a mapping of \(section) settings, found \(describe(node))")
            return nil
        }
        var fields: [String: MappingField] = [:]
        var merged: [MappingField] = []
        for (key, value) in mapping {
            guard case .scalar(let scalar) = key else {
                log.error(at: SourcePosition(of: key), "expected a key name in \(section), found \(describe(key))")
                continue
            }
            let name = scalar.string
            if duplicateKeySentinels.contains(name) { continue }
            if name == "<<" && tagName(key) == .merge {
                merged += mergedFields(from: value, in: section)
                continue
            }
            guard allowed.contains(name) else {
                reportUnknownKey(name, at: SourcePosition(of: key), in: section, allowed: allowed)
                continue
            }
            fields[name] = MappingField(key: key, value: value)
        }
        for field in merged {
            guard case .scalar(let scalar) = field.key, fields[scalar.string] == nil else { continue }
            guard allowed.contains(scalar.string) else {
                reportUnknownKey(scalar.string, at: field.keyPosition, in: section, allowed: allowed)
                continue
            }
            fields[scalar.string] = field
        }
        return fields
    }

    private mutating func mergedFields(from value: Node, in section: String) -> [MappingField] {
        switch value {
        case .mapping(let mapping):
            return mapping.map { MappingField(key: $0.key, value: $0.value) }
        case .sequence(let sequence):
            return sequence.flatMap { mergedFields(from: $0, in: section) }
        default:
            log.error(at: SourcePosition(of: value), "'<<' must merge a mapping (an alias such as *defaults)")
            return []
        }
    }

    private mutating func reportUnknownKey(_ name: String, at position: SourcePosition, in section: String,
                                           allowed: [String]) {
        if let suggestion = Suggestion.closest(to: name, among: allowed) {
            log.error(at: position, "unknown key '\(name)' in \(section); did you mean '\(suggestion)'?")
        } else {
            log.error(at: position, "unknown key '\(name)' in \(section) (expected \(Suggestion.list(allowed.map { "'\($0)'" })))")
        }
    }
}
