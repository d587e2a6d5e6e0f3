/// A descriptor, timer or set of signals registered with a `ControlPlaneLoop`, named by this id
/// for `remove` and `rearm`.
public struct EventSourceID: Hashable, Sendable, CustomStringConvertible {
    let raw: UInt64
    public var description: String { "source \(raw)" }
}

/// What a descriptor is ready for when its handler is called.
public struct EventReadiness: OptionSet, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    public static let readable = EventReadiness(rawValue: 1 << 0)
    public static let writable = EventReadiness(rawValue: 1 << 1)
    /// The other end closed for good (a socket's peer, a pipe's writer) or the device went away.
    /// A peer that shut only its writing side is not one: its reader sees end of file.
    public static let hungUp = EventReadiness(rawValue: 1 << 2)
    public static let failed = EventReadiness(rawValue: 1 << 3)
}

/// What a handler asks of its source after it ran.
public enum EventSourceStep: Sendable {
    /// Call again when the descriptor is next ready.
    case keep
    /// The source is done (end of file, a device that vanished): removed, its `ended` called.
    case end
}

/// Why a source stopped, told once to its `ended` callback on the loop's thread.
public enum EventSourceEnding: Sendable, Equatable {
    /// Its handler returned `.end`.
    case byHandler
    /// It reported a hang-up and its handler went on asking to be called: ended rather than spin.
    case hungUp
    /// `remove` was called for it.
    case removed
    /// The loop stopped (the process is quitting) with the source still registered.
    case loopStopped
    /// The kernel refused to watch it (epoll_ctl) or the loop itself failed.
    case failed(SystemError)
}
