import MarqueeCore
import Yams

/// `displays:`: several screens from one process. Each entry is read like `display:` (connector,
/// mode, rotation, scaling, background) plus a name and what it shows: its own `playlist:` or
/// `mirror: NAME`. The list is then checked as a whole, so a mistake names the entry at fault.
extension ConfigurationDecoder {
    static let screenKeys = ["name", "connector", "mode", "rotation", "scaling", "background", "playlist", "mirror", "audio"]
    /// The `display:` keys each screen of `displays:` sets for itself instead.
    static let perScreenDisplayKeys = ["connector", "mode", "rotation", "scaling", "background"]

    /// A screen as read, with where its values were, for the checks across entries.
    struct ScreenEntry {
        var screen: ScreenConfiguration
        var namePosition: SourcePosition
        var connectorPosition: SourcePosition
        var mirrorPosition: SourcePosition?
        var audioPosition: SourcePosition?
    }

    /// The screens of `displays:`, checked; nil (after reporting) when any entry is unusable.
    mutating func decodeScreens(_ field: MappingField) -> [ScreenConfiguration]? {
        guard case .sequence(let sequence) = field.value else {
            log.error(at: field.valuePosition, "expected a list of screens under 'displays', found \(describe(field.value))")
            return nil
        }
        if sequence.isEmpty {
            log.error(at: field.valuePosition, "'displays' lists no screen")
            return nil
        }
        let entries = sequence.map { decodeScreen($0) }
        let read = entries.compactMap { $0 }
        let consistent = checkScreens(read)
        return consistent && read.count == entries.count ? read.map(\.screen) : nil
    }

    private mutating func decodeScreen(_ node: Node) -> ScreenEntry? {
        guard let entry = fields(of: node, in: "a screen of displays", allowed: Self.screenKeys, allowsNothing: false) else {
            return nil
        }
        return decodeScreen(entry, at: SourcePosition(of: node))
    }

    private mutating func decodeScreen(_ fields: [String: MappingField], at position: SourcePosition) -> ScreenEntry? {
        var name: String?
        if let node = fields["name"]?.value, let text = string(node, expected: "a screen name") {
            if text.isEmpty { log.error(at: SourcePosition(of: node), "a screen's name is empty") } else { name = text }
        } else if fields["name"] == nil {
            log.error(at: position, "a screen of displays is missing 'name'")
        }
        var look = DisplayConfiguration()
        decodeScreenLook(fields, into: &look)
        if fields["connector"] == nil {
            log.error(at: position, "screen '\(name ?? "?")' is missing 'connector' (each screen names its own, e.g. HDMI-A-1)")
        } else if look.connector == DisplayConfiguration.automaticConnector, let node = fields["connector"]?.value {
            log.error(at: SourcePosition(of: node),
                      "screen '\(name ?? "?")': connector auto is ambiguous with several screens; name the connector (e.g. HDMI-A-1)")
            return nil
        }
        var content: ScreenConfiguration.Content?
        switch (fields["playlist"], fields["mirror"]) {
        case (let playlist?, nil):
            content = decodePlaylist(playlist).map { .playlist($0) }
        case (nil, let mirror?):
            content = string(mirror.value, expected: "the name of the screen to mirror").map { .mirror($0) }
        case (_?, let mirror?):
            log.error(at: mirror.keyPosition, "screen '\(name ?? "?")' has both 'playlist' and 'mirror'; give one")
        case (nil, nil):
            log.error(at: position, "screen '\(name ?? "?")' has neither 'playlist' nor 'mirror: NAME'; give one")
        }
        var audioDevice: String?
        if let audio = fields["audio"], let device = screenAudioDevice(audio.value) { audioDevice = device }
        guard let name, let content, fields["connector"] != nil else { return nil }
        let screen = ScreenConfiguration(name: name, connector: look.connector, mode: look.mode, rotation: look.rotation,
                                         scaling: look.scaling, background: look.background, content: content,
                                         audioDevice: audioDevice)
        return ScreenEntry(screen: screen, namePosition: fields["name"]!.valuePosition,
                           connectorPosition: fields["connector"]!.valuePosition,
                           mirrorPosition: fields["mirror"]?.valuePosition, audioPosition: fields["audio"]?.keyPosition)
    }

    /// `audio: {device: PCM}` of one screen.
    private mutating func screenAudioDevice(_ node: Node) -> String? {
        guard let audio = fields(of: node, in: "a screen's audio", allowed: ["device"]), let node = audio["device"]?.value else { return nil }
        return string(node, expected: "an ALSA PCM name")
    }

    /// Names unique, one screen per connector, each mirror of a screen that plays a playlist;
    /// false when any check failed.
    private mutating func checkScreens(_ entries: [ScreenEntry]) -> Bool {
        var consistent = true
        var names: [String: Int] = [:]
        var connectors: [String: String] = [:]
        for entry in entries {
            let screen = entry.screen
            if names[screen.name] != nil {
                log.error(at: entry.namePosition, "a second screen is named '\(screen.name)'; each screen needs its own name")
                consistent = false
            }
            names[screen.name] = names[screen.name] ?? 0
            if let other = connectors[screen.connector] {
                log.error(at: entry.connectorPosition,
                          "screens '\(other)' and '\(screen.name)' are both on connector \(screen.connector); one screen per connector")
                consistent = false
            } else {
                connectors[screen.connector] = screen.name
            }
        }
        let byName = Dictionary(entries.map { ($0.screen.name, $0.screen) }, uniquingKeysWith: { first, _ in first })
        for entry in entries {
            if entry.screen.mirrored != nil, entry.screen.audioDevice != nil, let position = entry.audioPosition {
                log.error(at: position, "screen '\(entry.screen.name)' mirrors a picture and has no sound of its own; give 'audio' to the screen it mirrors")
                consistent = false
            }
            guard let target = entry.screen.mirrored, let position = entry.mirrorPosition else { continue }
            if target == entry.screen.name {
                log.error(at: position, "screen '\(target)' cannot mirror itself")
                consistent = false
            } else if let mirrored = byName[target] {
                if let further = mirrored.mirrored {
                    log.error(at: position, "screen '\(entry.screen.name)' mirrors '\(target)', which is itself a mirror (of '\(further)'); mirror '\(further)' instead")
                    consistent = false
                }
            } else {
                let known = entries.filter { $0.screen.playlist != nil }.map { "'\($0.screen.name)'" }
                log.error(at: position, "screen '\(entry.screen.name)' mirrors an unknown screen '\(target)' (expected \(Suggestion.list(known)))")
                consistent = false
            }
        }
        return consistent
    }

    /// The screen whose playlist plays on `audio.device`: `audio.screen` when given (which must
    /// name a screen with a playlist), else the first with one. Nil after reporting.
    mutating func mainScreen(of screens: [ScreenConfiguration], audio: AudioConfiguration,
                             audioScreenPosition: SourcePosition?) -> ScreenConfiguration? {
        guard let wanted = audio.screen else { return screens.first { $0.playlist != nil } }
        let position = audioScreenPosition ?? SourcePosition(line: 1, column: 1)
        guard let screen = screens.first(where: { $0.name == wanted }) else {
            log.error(at: position, "audio.screen names an unknown screen '\(wanted)' (expected \(Suggestion.list(screens.map { "'\($0.name)'" })))")
            return nil
        }
        guard screen.playlist != nil else {
            log.error(at: position, "audio.screen '\(wanted)' mirrors another screen and plays nothing of its own; name the screen it mirrors")
            return nil
        }
        return screen
    }
}

extension ConfigurationDecoder {
    /// The screens and the one that drives the single-screen settings.
    struct DecodedScreens {
        var screens: [ScreenConfiguration]
        var main: ScreenConfiguration

        /// `display:` with the main screen's connector, mode, rotation, scaling and background.
        func display(over shared: DisplayConfiguration) -> DisplayConfiguration {
            var display = shared
            display.connector = main.connector
            display.mode = main.mode
            display.rotation = main.rotation
            display.scaling = main.scaling
            display.background = main.background
            return display
        }
    }

    /// `displays:` in the context of the rest of the file: no top-level playlist beside it, no
    /// per-screen key left in `display:`, and `audio.screen` naming a screen with a playlist.
    mutating func decodeScreens(_ field: MappingField, display: MappingField?, playlist: MappingField?, source: MappingField?,
                                audio: AudioConfiguration, audioField: MappingField?) -> DecodedScreens? {
        if let playlist {
            log.error(at: playlist.keyPosition, "with 'displays', each screen has its own 'playlist'; move this one under a screen")
        }
        if let source {
            log.error(at: source.keyPosition, "'source' (a fetched playlist) is not supported with 'displays' yet")
        }
        if let display, case .mapping(let mapping) = display.value {
            for (key, _) in mapping {
                guard case .scalar(let scalar) = key, Self.perScreenDisplayKeys.contains(scalar.string) else { continue }
                log.error(at: SourcePosition(of: key),
                          "display.\(scalar.string) does not apply with 'displays'; give each screen its own '\(scalar.string)'")
            }
        }
        guard let screens = decodeScreens(field) else { return nil }
        let screenPosition: SourcePosition? = audioField.flatMap { audioField in
            guard case .mapping(let mapping) = audioField.value else { return nil }
            return mapping.first { if case .scalar(let key) = $0.key { key.string == "screen" } else { false } }
                .map { SourcePosition(of: $0.value) }
        }
        guard let main = mainScreen(of: screens, audio: audio, audioScreenPosition: screenPosition) else { return nil }
        if playlist != nil || source != nil { return nil }
        return DecodedScreens(screens: screens, main: main)
    }
}
