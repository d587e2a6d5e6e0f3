/// Everything the one command path carries into the player: a transport command, a jump to an
/// item (numeric entry, or a control interface), or quitting the process (SIGTERM).
public enum ControlAction: Sendable, Equatable, CustomStringConvertible {
    case command(Command)
    /// Play this item (0-based) now.
    case playItem(index: Int)
    /// End playback for good and let the process exit.
    case quit
    /// Read the config again (SIGHUP): a valid one replaces the playlist and settings, an invalid
    /// one is logged and changes nothing.
    case reload

    /// What a key asked for, on the same path as every other source.
    public init(_ intent: KeyIntent) {
        switch intent {
        case .command(let command): self = .command(command)
        case .playItem(let index): self = .playItem(index: index)
        }
    }

    /// The name in the events log's `command` field: a Command's raw value, `playItem` or `quit`.
    public var name: String {
        switch self {
        case .command(let command): command.rawValue
        case .playItem: "playItem"
        case .quit: "quit"
        case .reload: "reload"
        }
    }

    /// `next`, `playItem 3` (1-based, as typed), `quit`.
    public var description: String {
        switch self {
        case .playItem(let index): "playItem \(index + 1)"
        default: name
        }
    }
}
