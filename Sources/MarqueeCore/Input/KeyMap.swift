/// Which command each evdev key issues. Keys are matched by code, so kernel aliases
/// (KEY_STOPCD and KEY_STOP are distinct; KEY_ZOOM and KEY_FULL_SCREEN are one) behave alike.
public struct KeyMap: Sendable, Equatable {
    public private(set) var commandsByCode: [UInt16: Command]

    public init(_ bindings: [KeyName: Command] = [:]) {
        commandsByCode = [:]
        for (key, command) in bindings { commandsByCode[key.code] = command }
    }

    public func command(forCode code: UInt16) -> Command? { commandsByCode[code] }

    public func command(for key: KeyName) -> Command? { commandsByCode[key.code] }

    /// The codes any device must report for it to be worth opening.
    public var boundCodes: Set<UInt16> { Set(commandsByCode.keys) }

    /// This map with `overrides` laid over it key by key: a command binds the key, nil unbinds it
    /// (config `KEY_ESC: none`); other keys keep their binding.
    public func merging(_ overrides: [KeyName: Command?]) -> KeyMap {
        var merged = self
        for (key, command) in overrides { merged.commandsByCode[key.code] = command }
        return merged
    }

    /// This map with only the keys whose command is in `commands` (config `input.visitorKeys`).
    public func keeping(only commands: Set<Command>) -> KeyMap {
        var kept = self
        kept.commandsByCode = commandsByCode.filter { commands.contains($0.value) }
        return kept
    }

    /// No key bound (config `input.keymap: none`): only the keys a config lists do anything.
    public static let empty = KeyMap()

    /// Numeric keypads, media-key remotes and plain keyboards all work out of the box. Quitting is
    /// not a key command at all (it is a control action: the socket's `quit`, SIGTERM), so no
    /// visitor can end the process from a keypad; `stop` is bound, and `input.stopTimeout` brings
    /// playback back after a stop from a key.
    public static let `default`: KeyMap = {
        let table: [(String, Command)] = [
            // Numeric keypad: digits pick an item, enter plays it.
            ("KEY_KP0", .digit0), ("KEY_KP1", .digit1), ("KEY_KP2", .digit2), ("KEY_KP3", .digit3),
            ("KEY_KP4", .digit4), ("KEY_KP5", .digit5), ("KEY_KP6", .digit6), ("KEY_KP7", .digit7),
            ("KEY_KP8", .digit8), ("KEY_KP9", .digit9), ("KEY_KPENTER", .playEnteredItem),
            ("KEY_KPPLUS", .volumeUp), ("KEY_KPMINUS", .volumeDown),
            ("KEY_KPASTERISK", .cycleRepeatMode), ("KEY_KPSLASH", .cycleScalingMode),
            ("KEY_KPDOT", .togglePlayPause),
            // Media keys of remotes, IR receivers (rc-core) and CEC.
            ("KEY_PLAYPAUSE", .togglePlayPause), ("KEY_PLAY", .play), ("KEY_PAUSE", .pause),
            ("KEY_STOPCD", .stop), ("KEY_STOP", .stop),
            ("KEY_NEXTSONG", .next), ("KEY_PREVIOUSSONG", .previous),
            ("KEY_FASTFORWARD", .skipForward), ("KEY_REWIND", .skipBackward),
            ("KEY_VOLUMEUP", .volumeUp), ("KEY_VOLUMEDOWN", .volumeDown), ("KEY_MUTE", .toggleMute),
            // A plain keyboard.
            ("KEY_SPACE", .togglePlayPause), ("KEY_ENTER", .togglePlayPause), ("KEY_ESC", .stop),
            ("KEY_LEFT", .skipBackward), ("KEY_RIGHT", .skipForward),
            ("KEY_UP", .volumeUp), ("KEY_DOWN", .volumeDown),
            ("KEY_PAGEUP", .previous), ("KEY_PAGEDOWN", .next),
            ("KEY_DOT", .stepForward), ("KEY_COMMA", .stepBackward),
        ]
        var bindings: [KeyName: Command] = [:]
        for (name, command) in table {
            guard let key = KeyName(name) else { preconditionFailure("default key map names unknown key \(name)") }
            bindings[key] = command
        }
        return KeyMap(bindings)
    }()
}
