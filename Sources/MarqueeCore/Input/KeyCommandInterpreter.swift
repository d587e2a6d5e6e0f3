/// One key report from an input device, as the evdev backend reads it.
public struct KeyEvent: Sendable, Equatable {
    public enum Action: Sendable, Equatable {
        case press, release
        /// The kernel's autorepeat while a key is held.
        case autorepeat
    }

    public var code: UInt16
    public var action: Action
    /// The event's timestamp (monotonic), for numeric-entry timeouts.
    public var time: MediaTime
    /// Reported by the resynchronisation after SYN_DROPPED (libevdev's sync events): it brings the
    /// key state up to date but is not something the user just did.
    public var isResync: Bool

    public init(code: UInt16, action: Action, time: MediaTime, isResync: Bool = false) {
        self.code = code
        self.action = action
        self.time = time
        self.isResync = isResync
    }
}

/// What a key report asks of the player.
public enum KeyIntent: Sendable, Equatable {
    case command(Command)
    /// Numeric entry finished: play this item (0-based).
    case playItem(index: Int)
}

/// Turns key reports into commands: the key map, the autorepeat policy (seek, step and volume act
/// while held; toggles and jumps once per press), numeric entry (digits, then playEnteredItem, plays
/// that item; a pause longer than `entryTimeout` or any other command abandons the digits), and
/// recovery from SYN_DROPPED (events were lost: resynchronised key states change nothing, and a
/// half-typed number is dropped rather than completed with missing digits).
public struct KeyCommandInterpreter: Sendable {
    public var keyMap: KeyMap
    public var entryTimeout: MediaTime
    /// Item numbers longer than this are not typed on purpose.
    public static let maximumEntryDigits = 4

    private var pressed: Set<UInt16> = []
    private var entry: (digits: String, lastTime: MediaTime)?

    public init(keyMap: KeyMap, entryTimeout: MediaTime = MediaTime(seconds: 3)) {
        self.keyMap = keyMap
        self.entryTimeout = entryTimeout
    }

    /// The digits typed so far, for an on-screen hint.
    public var pendingEntry: String? { entry?.digits }

    public mutating func interpret(_ event: KeyEvent) -> [KeyIntent] {
        if event.isResync {
            if event.action == .release { pressed.remove(event.code) } else { pressed.insert(event.code) }
            return []
        }
        switch event.action {
        case .release:
            pressed.remove(event.code)
            return []
        case .press:
            pressed.insert(event.code)
        case .autorepeat:
            // A repeat of a key pressed before events were dropped is still a held key.
            pressed.insert(event.code)
        }
        guard let command = keyMap.command(forCode: event.code) else { return [] }
        if event.action == .autorepeat && !command.actsOnAutorepeat { return [] }
        return intents(for: command, at: event.time)
    }

    /// The kernel dropped events (its buffer overflowed): key states will be resynchronised and
    /// any half-typed item number is abandoned.
    public mutating func eventsDropped() {
        entry = nil
    }

    /// Whether a key is down, as far as the reports say.
    public func isPressed(_ code: UInt16) -> Bool {
        pressed.contains(code)
    }

    private mutating func intents(for command: Command, at time: MediaTime) -> [KeyIntent] {
        if let pending = entry, time - pending.lastTime > entryTimeout { entry = nil }
        if let digit = command.digit {
            let digits = (entry?.digits ?? "") + String(digit)
            entry = digits.count <= Self.maximumEntryDigits ? (digits, time) : nil
            return []
        }
        if command == .playEnteredItem {
            defer { entry = nil }
            guard let digits = entry?.digits, let number = Int(digits), number >= 1 else { return [] }
            return [.playItem(index: number - 1)]
        }
        entry = nil
        return [.command(command)]
    }
}
