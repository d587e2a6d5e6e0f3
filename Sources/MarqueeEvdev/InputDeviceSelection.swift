import MarqueeCore

/// Which input devices the player reads (config `input.devices`, `--input`).
public enum InputDeviceSelection: Sendable, Equatable {
    /// Every device that has at least one of these key codes (the active key map's): keyboards,
    /// keypads, media-key remotes, rc-core IR receivers, CEC. Power buttons, mice and touch
    /// screens have none and are left alone.
    case auto(boundCodes: Set<UInt16>)
    /// Exactly these: `/dev/input/...` paths (symlinks such as /dev/input/by-id/... included) or
    /// device names as the kernel reports them, matched exactly.
    case named([String])

    /// Whether to open `device`. `resolve` turns a configured path into the node it names (realpath),
    /// nil when it does not exist.
    public func accepts(_ device: InputDeviceInfo, resolve: (String) -> String?) -> Bool {
        switch self {
        case .auto(let codes):
            return !device.keyCodes.isDisjoint(with: codes)
        case .named(let entries):
            return entries.contains { entry in Self.entry(entry, names: device, resolve: resolve) }
        }
    }

    /// The configured entries no device in `devices` answers to, to say so once at start.
    public func unmatchedEntries(among devices: [InputDeviceInfo], resolve: (String) -> String?) -> [String] {
        guard case .named(let entries) = self else { return [] }
        return entries.filter { entry in !devices.contains { Self.entry(entry, names: $0, resolve: resolve) } }
    }

    /// What makes a device a keyboard: a key of the main block (KEY_ESC to KEY_F12: letters,
    /// digits, Ctrl, Alt, the function keys, the keypad), or right Ctrl and Alt, SysRq or Delete.
    /// Through them a keyboard reaches the console and the kernel (VT switches with Ctrl+Alt+Fn,
    /// Ctrl+Alt+Del, SysRq, a login prompt behind the picture) rather than the player.
    public static let keyboardKeyCodes: Set<UInt16> = Set(Array(1...88) + [97, 99, 100, 111])

    /// Under `input.lockdown`, also every keyboard, bound or not: none of its keys may reach the console.
    public func accepts(_ device: InputDeviceInfo, lockdown: Bool, resolve: (String) -> String?) -> Bool {
        accepts(device, resolve: resolve) || (lockdown && !device.keyCodes.isDisjoint(with: Self.keyboardKeyCodes))
    }

    /// An entry starting with `/` is a path; anything else a device name.
    static func entry(_ entry: String, names device: InputDeviceInfo, resolve: (String) -> String?) -> Bool {
        guard entry.hasPrefix("/") else { return entry == device.name }
        return entry == device.path || resolve(entry) == device.path
    }
}
