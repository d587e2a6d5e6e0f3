import MarqueeCore

/// Which keypads and remotes drive the player, and what their keys do.
public struct InputConfiguration: Sendable, Equatable {
    /// The map the config's keys are laid over: written `default` or `none`.
    public enum BaseKeyMap: String, Sendable, Equatable, CaseIterable, Codable {
        /// `KeyMap.default`: numeric keypads, media remotes and keyboards work out of the box.
        case `default`
        /// No key bound: only the keys under `input.keys` do anything (a kiosk's keypad).
        case none
    }

    public var devices: Devices
    /// Whether to take devices exclusively (EVIOCGRAB), so key presses do not also reach the
    /// console underneath, which would otherwise print or log in on the screen behind the video.
    public var grab: Bool
    /// `input.keymap`: where the key map starts from.
    public var baseKeyMap: BaseKeyMap
    /// Only the keys the config names; `keyMap` lays them over the base map. Nil unbinds the key
    /// (`KEY_ESC: none`).
    public var keyOverrides: [KeyName: Command?]
    /// `input.stopTimeout`: after a stop from a key, playback resumes once the player has stayed
    /// stopped this long. Nil (`none` or 0): a stop stays until something else plays.
    public var stopTimeout: MediaTime?
    /// `input.lockdown`: a kiosk's keyboards belong to the player: every keyboard is grabbed, bound
    /// or not, so its VT switches, Ctrl+Alt+Del and SysRq reach nothing.
    public var lockdown = false
    /// `input.visitorKeys`: the commands keys may issue at all; nil (`all`): every command the
    /// map binds. Whatever they leave stopped, paused, muted or in another repeat or scaling mode
    /// is put back after `stopTimeout` either way.
    public var visitorCommands: Set<Command>?

    /// `numericEntry` in `visitorKeys`: the digits and the key that plays the entered item.
    public static let numericEntryName = "numericEntry"
    public static let numericEntryCommands: Set<Command> = Set(Command.allCases.filter { $0.digit != nil } + [.playEnteredItem])

    public static let defaultStopTimeout = MediaTime(seconds: 60)

    public init(devices: Devices = .auto, grab: Bool = true, baseKeyMap: BaseKeyMap = .default,
                keyOverrides: [KeyName: Command?] = [:], stopTimeout: MediaTime? = InputConfiguration.defaultStopTimeout) {
        self.devices = devices
        self.grab = grab
        self.baseKeyMap = baseKeyMap
        self.keyOverrides = keyOverrides
        self.stopTimeout = stopTimeout
    }

    /// The base map (default or empty) with this config's keys laid over it, keeping only the
    /// commands `visitorKeys` allows.
    public var keyMap: KeyMap {
        let merged = (baseKeyMap == .none ? KeyMap.empty : KeyMap.default).merging(keyOverrides)
        return visitorCommands.map(merged.keeping(only:)) ?? merged
    }
}

// KeyName is not Codable; keys are encoded by name, as a config writes them, and an unbound key as
// `none`. The stop timeout is the exact text `MediaTime.parse` reads back, or `none`.
extension InputConfiguration: Codable {
    private enum CodingKeys: String, CodingKey {
        case devices, grab, keymap, keys, stopTimeout, lockdown, visitorKeys
    }

    static let unboundName = "none"

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(devices, forKey: .devices)
        try container.encode(grab, forKey: .grab)
        try container.encode(baseKeyMap, forKey: .keymap)
        let keys = Dictionary(uniqueKeysWithValues: keyOverrides.map { ($0.key.name, $0.value?.rawValue ?? Self.unboundName) })
        try container.encode(keys, forKey: .keys)
        try container.encode(stopTimeout.map(PlaylistItemConfiguration.exactText) ?? Self.unboundName, forKey: .stopTimeout)
        if lockdown { try container.encode(lockdown, forKey: .lockdown) }
        if let visitorCommands { try container.encode(visitorCommands.map(\.rawValue).sorted(), forKey: .visitorKeys) }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        devices = try container.decodeIfPresent(Devices.self, forKey: .devices) ?? .auto
        grab = try container.decodeIfPresent(Bool.self, forKey: .grab) ?? true
        lockdown = try container.decodeIfPresent(Bool.self, forKey: .lockdown) ?? false
        baseKeyMap = try container.decodeIfPresent(BaseKeyMap.self, forKey: .keymap) ?? .default
        var overrides: [KeyName: Command?] = [:]
        for (name, commandName) in try container.decodeIfPresent([String: String].self, forKey: .keys) ?? [:] {
            guard let key = KeyName(name) else {
                throw DecodingError.dataCorruptedError(forKey: .keys, in: container, debugDescription: "bad key name \(name)")
            }
            if commandName == Self.unboundName {
                overrides.updateValue(nil, forKey: key)
            } else if let command = Command(rawValue: commandName) {
                overrides.updateValue(command, forKey: key)
            } else {
                throw DecodingError.dataCorruptedError(forKey: .keys, in: container,
                                                       debugDescription: "bad key binding \(name): \(commandName)")
            }
        }
        keyOverrides = overrides
        if let names = try container.decodeIfPresent([String].self, forKey: .visitorKeys) {
            visitorCommands = Set(try names.map { name in
                guard let command = Command(rawValue: name) else {
                    throw DecodingError.dataCorruptedError(forKey: .visitorKeys, in: container, debugDescription: "bad visitor command \(name)")
                }
                return command
            })
        }
        switch try container.decodeIfPresent(String.self, forKey: .stopTimeout) {
        case nil: stopTimeout = Self.defaultStopTimeout
        case Self.unboundName?: stopTimeout = nil
        case let text?:
            switch MediaTime.parse(text) {
            case .success(let time): stopTimeout = time > .zero ? time : nil
            case .failure(let error):
                throw DecodingError.dataCorruptedError(forKey: .stopTimeout, in: container, debugDescription: error.description)
            }
        }
    }
}
