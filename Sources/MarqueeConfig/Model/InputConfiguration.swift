import MarqueeCore

/// Which keypads and remotes drive the player, and what their keys do.
public struct InputConfiguration: Sendable, Equatable {
    public var devices: Devices
    /// Whether to take devices exclusively (EVIOCGRAB), so key presses do not also reach the
    /// console underneath, which would otherwise print or log in on the screen behind the video.
    public var grab: Bool
    /// Only the keys the config names; `keyMap` lays them over the default map.
    public var keyOverrides: [KeyName: Command]

    public init(devices: Devices = .auto, grab: Bool = true, keyOverrides: [KeyName: Command] = [:]) {
        self.devices = devices
        self.grab = grab
        self.keyOverrides = keyOverrides
    }

    /// The default key map with this config's keys laid over it.
    public var keyMap: KeyMap { KeyMap.default.merging(keyOverrides) }
}

// KeyName is not Codable; keys are encoded by name, as a config writes them.
extension InputConfiguration: Codable {
    private enum CodingKeys: String, CodingKey {
        case devices, grab, keys
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(devices, forKey: .devices)
        try container.encode(grab, forKey: .grab)
        let keys = Dictionary(uniqueKeysWithValues: keyOverrides.map { ($0.key.name, $0.value.rawValue) })
        try container.encode(keys, forKey: .keys)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        devices = try container.decodeIfPresent(Devices.self, forKey: .devices) ?? .auto
        grab = try container.decodeIfPresent(Bool.self, forKey: .grab) ?? true
        var overrides: [KeyName: Command] = [:]
        for (name, commandName) in try container.decodeIfPresent([String: String].self, forKey: .keys) ?? [:] {
            guard let key = KeyName(name), let command = Command(rawValue: commandName) else {
                throw DecodingError.dataCorruptedError(forKey: .keys, in: container,
                                                       debugDescription: "bad key binding \(name): \(commandName)")
            }
            overrides[key] = command
        }
        keyOverrides = overrides
    }
}
